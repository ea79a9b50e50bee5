"""The kernel registry's rules, each both ways, and its file store (issue #31)."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import fakeredis
import pytest

from shared.errors import ConfigError, LockHeld, RegistryError, UnknownKernel
from shared.kernels.registry import (
    FILE_NAME,
    Change,
    Entries,
    FileStore,
    KernelEntry,
    RedisStore,
    Registry,
    check_imports,
    check_name,
    kernels_file,
    open_registry,
)
from shared.settings import Settings

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def registry(tmp_path: Path) -> Registry:
    return Registry(FileStore(tmp_path / "config" / FILE_NAME))


def dirs(root: Path, name: str) -> tuple[Path, Path]:
    return root / name / "kernel", root / name / "runtime"


# -- names ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a", "0", "team-7", "a_b-c", "x" * 63, "9lives"])
def test_good_names_are_taken(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "",
        "A",
        "Team",
        "-a",
        "_a",
        "a.b",
        "a/b",
        "..",
        ".",
        "../x",
        "a b",
        "x" * 64,
        "a\n",
        "\na",
        "ä",
        "a:b",
        "default",
    ],
)
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(RegistryError) as err:
        check_name(name)
    assert "\n" not in str(err.value)


def test_default_is_reserved_for_the_settings_kernel(registry: Registry, tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="reserved for the unnamed kernel"):
        registry.add("default", *dirs(tmp_path, "a"))
    with pytest.raises(UnknownKernel, match="unnamed kernel of the settings"):
        registry.get("default")
    with pytest.raises(UnknownKernel):
        registry.remove("default")


def test_a_registry_error_is_a_config_error_so_the_cli_exits_2() -> None:
    assert issubclass(RegistryError, ConfigError) and issubclass(UnknownKernel, RegistryError)
    assert (RegistryError.code, UnknownKernel.code) == ("registry", "unknown-kernel")


# -- dirs -------------------------------------------------------------------------------


def test_an_entry_stores_real_absolute_dirs(registry: Registry, tmp_path: Path) -> None:
    kernel, runtime = dirs(tmp_path, "a")
    entry = registry.add("a", tmp_path / "x" / ".." / "a" / "kernel", runtime)
    assert (entry.kernel, entry.runtime) == (kernel, runtime)
    assert registry.get("a") == entry and registry.list() == [entry]
    assert not kernel.exists()  # adding creates nothing


def test_a_tilde_is_expanded(registry: Registry) -> None:
    entry = registry.add("a", "~/k", "~/rt")
    assert entry.kernel == Path(os.path.realpath(Path.home() / "k"))


@pytest.mark.parametrize("which", ["kernel", "runtime"])
def test_relative_dirs_are_refused(registry: Registry, tmp_path: Path, which: str) -> None:
    kernel, runtime = dirs(tmp_path, "a")
    given = {"kernel": kernel, "runtime": runtime, which: Path("rel") / which}
    with pytest.raises(RegistryError, match=f"{which} dir 'rel/{which}' is relative"):
        registry.add("a", given["kernel"], given["runtime"])
    assert registry.list() == []


def test_the_root_and_a_file_are_refused(registry: Registry, tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="filesystem root"):
        registry.add("a", "/", tmp_path / "rt")
    with pytest.raises(RegistryError, match="filesystem root"):
        registry.add("a", tmp_path / "k", tmp_path / ".." / ".." / ".." / ".." / ".." / "..")
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(RegistryError, match="is a file"):
        registry.add("a", afile, tmp_path / "rt")


@pytest.mark.parametrize(
    ("kernel", "runtime", "relation"),
    [("k", "k", "is"), ("k", "k/var", "is inside"), ("k/sub", "k", "contains")],
)
def test_an_entrys_runtime_never_overlaps_its_kernel(
    registry: Registry, tmp_path: Path, kernel: str, runtime: str, relation: str
) -> None:
    with pytest.raises(RegistryError, match=f"runtime dir .* {relation} the kernel dir"):
        registry.add("a", tmp_path / kernel, tmp_path / runtime)
    # side by side, even with one name a prefix of the other, is fine
    assert registry.add("a", tmp_path / "k", tmp_path / "k-runtime").name == "a"


def test_a_runtime_reached_through_a_symlink_into_its_kernel_is_refused(
    registry: Registry, tmp_path: Path
) -> None:
    (tmp_path / "k" / "var").mkdir(parents=True)
    (tmp_path / "innocent").symlink_to(tmp_path / "k" / "var")
    with pytest.raises(RegistryError, match=f"runtime dir {tmp_path}/k/var is inside"):
        registry.add("a", tmp_path / "k", tmp_path / "innocent")


# -- conflicts with other entries --------------------------------------------------------


def test_a_name_is_registered_once(registry: Registry, tmp_path: Path) -> None:
    registry.add("a", *dirs(tmp_path, "a"))
    with pytest.raises(RegistryError, match="'a' is already registered"):
        registry.add("a", *dirs(tmp_path, "b"))
    assert registry.add("b", *dirs(tmp_path, "b")).name == "b"


@pytest.mark.parametrize(
    ("kernel", "runtime", "said"),
    [
        ("a/kernel", "b/runtime", "kernel dir .*/a/kernel is the kernel dir of kernel 'a'"),
        ("a/kernel/sub", "b/runtime", "kernel dir .* is inside the kernel dir of kernel 'a'"),
        ("a/runtime/k", "b/runtime", "kernel dir .* is inside the runtime dir of kernel 'a'"),
        ("a", "b/runtime", "kernel dir .* contains the kernel dir of kernel 'a'"),
        ("b/kernel", "a/kernel/rt", "runtime dir .* is inside the kernel dir of kernel 'a'"),
        ("b/kernel", "a/runtime", "runtime dir .*/a/runtime is the runtime dir of kernel 'a'"),
        ("b/kernel", "a/runtime/b", "runtime dir .* is inside the runtime dir of kernel 'a'"),
    ],
)
def test_dirs_of_two_kernels_never_overlap(
    registry: Registry, tmp_path: Path, kernel: str, runtime: str, said: str
) -> None:
    registry.add("a", *dirs(tmp_path, "a"))
    with pytest.raises(RegistryError, match=said):
        registry.add("b", tmp_path / kernel, tmp_path / runtime)
    assert [e.name for e in registry.list()] == ["a"]


def test_neighbours_whose_names_share_a_prefix_do_not_overlap(
    registry: Registry, tmp_path: Path
) -> None:
    registry.add("a", tmp_path / "k1", tmp_path / "r1")
    registry.add("b", tmp_path / "k10", tmp_path / "r10")
    assert [e.name for e in registry.list()] == ["a", "b"]


def test_dot_dot_does_not_smuggle_a_kernel_into_another(registry: Registry, tmp_path: Path) -> None:
    registry.add("a", *dirs(tmp_path, "a"))
    sneaky = tmp_path / "b" / ".." / "a" / "kernel" / "inner"
    with pytest.raises(RegistryError, match=f"kernel dir {tmp_path}/a/kernel/inner is inside"):
        registry.add("b", sneaky, tmp_path / "b" / "runtime")


def test_a_symlink_does_not_smuggle_a_kernel_into_another(
    registry: Registry, tmp_path: Path
) -> None:
    kernel, runtime = dirs(tmp_path, "a")
    kernel.mkdir(parents=True)
    registry.add("a", kernel, runtime)
    (tmp_path / "elsewhere").symlink_to(kernel)
    with pytest.raises(RegistryError, match="is the kernel dir of kernel 'a'"):
        registry.add("b", tmp_path / "elsewhere", tmp_path / "b-rt")
    with pytest.raises(RegistryError, match="is inside the kernel dir of kernel 'a'"):
        registry.add("b", tmp_path / "elsewhere" / "nested", tmp_path / "b-rt")


def test_a_symlink_to_a_fresh_dir_is_stored_as_its_target(
    registry: Registry, tmp_path: Path
) -> None:
    target = tmp_path / "disk" / "kernel"
    target.mkdir(parents=True)
    (tmp_path / "link").symlink_to(target)
    entry = registry.add("a", tmp_path / "link", tmp_path / "rt")
    assert entry.kernel == target


def test_a_symlink_made_after_registration_is_still_caught(
    registry: Registry, tmp_path: Path
) -> None:
    """An entry's dirs are resolved again when another entry is checked against them."""
    registry.add("a", tmp_path / "a-link", tmp_path / "a-rt")  # a-link does not exist yet
    (tmp_path / "real").mkdir()
    assert registry.add("b", tmp_path / "real", tmp_path / "b-rt").name == "b"
    registry.remove("b")
    (tmp_path / "a-link").symlink_to(tmp_path / "real")
    with pytest.raises(RegistryError, match="is the kernel dir of kernel 'a'"):
        registry.add("b", tmp_path / "real", tmp_path / "b-rt")


# -- import sources ----------------------------------------------------------------------


def test_import_sources_are_normalised_and_kept_once() -> None:
    specs = ["claude-code:~/.claude/projects", "codex:/s/./x", "claude-code:~/.claude/projects"]
    home = Path.home()
    assert check_imports(specs) == (f"claude-code:{home}/.claude/projects", "codex:/s/x")


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("nope:/x", "not FORMAT:PATH"),
        ("/x", "not FORMAT:PATH"),
        ("codex:", "not FORMAT:PATH"),
        ("codex:rel/dir", "relative"),
        ("codex:/a,codex:/b", "one FORMAT:PATH per --import"),
        ("codex:/a;b", "one FORMAT:PATH per --import"),
    ],
)
def test_bad_import_sources_are_refused(
    registry: Registry, tmp_path: Path, spec: str, said: str
) -> None:
    with pytest.raises(RegistryError, match=said):
        registry.add("a", *dirs(tmp_path, "a"), imports=[spec])
    assert registry.list() == []


def test_an_entrys_imports_read_back_as_a_subcon_import_setting(
    registry: Registry, tmp_path: Path
) -> None:
    from shared.importing.sources import parse_sources

    entry = registry.add("a", *dirs(tmp_path, "a"), imports=["codex:/s", "aider:/p/x.md"])
    assert [s.spec for s in parse_sources(entry.import_setting)] == ["codex:/s", "aider:/p/x.md"]
    assert registry.get("a").imports == ("codex:/s", "aider:/p/x.md")


# -- remove ------------------------------------------------------------------------------


def test_remove_forgets_the_entry_and_touches_no_file(registry: Registry, tmp_path: Path) -> None:
    kernel, runtime = dirs(tmp_path, "a")
    for root in (kernel, runtime):
        root.mkdir(parents=True)
        (root / "keep.md").write_text("kept\n")
    added = registry.add("a", kernel, runtime)
    assert registry.remove("a") == added
    assert registry.list() == []
    assert (kernel / "keep.md").read_text() == (runtime / "keep.md").read_text() == "kept\n"
    with pytest.raises(UnknownKernel, match="no kernel named 'a'"):
        registry.remove("a")
    with pytest.raises(UnknownKernel, match="no kernel named 'a'"):
        registry.get("a")
    # the name and the dirs are free again
    assert registry.add("a", kernel, runtime).kernel == kernel


# -- the file store ----------------------------------------------------------------------


def test_the_file_is_versioned_json_written_atomically(registry: Registry, tmp_path: Path) -> None:
    registry.add("b", *dirs(tmp_path, "b"))
    registry.add("a", *dirs(tmp_path, "a"), imports=["codex:/s"])
    path = tmp_path / "config" / FILE_NAME
    doc = json.loads(path.read_text())
    assert doc["version"] == 1 and list(doc["kernels"]) == ["a", "b"]
    assert doc["kernels"]["a"]["imports"] == ["codex:/s"]
    # no temp file left behind, only the file and its lock
    assert sorted(p.name for p in path.parent.iterdir()) == [FILE_NAME, f"{FILE_NAME}.lock"]


def test_a_failed_write_leaves_the_old_file_whole(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry.add("a", *dirs(tmp_path, "a"))
    path = tmp_path / "config" / FILE_NAME
    before = path.read_bytes()

    def refuse(*_paths: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(RegistryError, match=r"cannot be written: .*No space left"):
        registry.add("b", *dirs(tmp_path, "b"))
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [FILE_NAME, f"{FILE_NAME}.lock"]


def test_a_held_file_lock_makes_a_change_wait_then_give_up(tmp_path: Path) -> None:
    store = FileStore(tmp_path / FILE_NAME, lock_wait=0.2)
    fd = os.open(store.lock_path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(LockHeld, match="stayed locked by another process"):
            Registry(store).add("a", *dirs(tmp_path, "a"))
        assert Registry(store).list() == []  # reading needs no lock
    finally:
        os.close(fd)
    assert Registry(store).add("a", *dirs(tmp_path, "a")).name == "a"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{", "is not JSON"),
        ("[]", "not a version 1 registry"),
        ('{"version": 2, "kernels": {}}', "not a version 1 registry"),
        ('{"version": 1, "kernels": {"a": {"kernel": "rel", "runtime": "/r"}}}', "absolute"),
        (
            '{"version": 1, "kernels": {"a": {"name": "b", "kernel": "/k", "runtime": "/r"}}}',
            "its own name",
        ),
        (
            '{"version": 1, "kernels": {"a": {"kernel": "/k", "runtime": "/r", "imports": "x"}}}',
            "'imports' must be a list",
        ),
    ],
)
def test_a_damaged_file_is_named_not_overwritten(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / FILE_NAME
    path.write_text(text)
    registry = Registry(FileStore(path))
    with pytest.raises(RegistryError, match=said) as err:
        registry.list()
    assert str(path) in str(err.value)
    with pytest.raises(RegistryError):
        registry.add("z", *dirs(tmp_path, "z"))
    assert path.read_text() == text


ADDER = """
import sys, time
from pathlib import Path
from shared.kernels.registry import FileStore, Registry, RedisStore
where, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = RedisStore.from_url(where) if where.startswith("redis") else FileStore(Path(where))
registry = Registry(store)
root, gate = Path(sys.argv[4]), Path(sys.argv[5])
while not gate.exists():
    time.sleep(0.001)
for n in range(count):
    name = f"{prefix}{n}"
    registry.add(name, root / name / "kernel", root / name / "runtime")
"""


def add_concurrently(where: str, root: Path, processes: int, each: int) -> None:
    """``processes`` processes each add ``each`` kernels to the registry at ``where`` at
    the same time; every one must succeed."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    gate = root.parent / f"{root.name}.go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", ADDER, where, f"p{p}-", str(each), str(root), str(gate)],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(processes)
    ]
    time.sleep(0.5)  # every process imported and waits at the gate: they start together
    gate.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err


def test_concurrent_adds_from_two_processes_lose_no_entry(tmp_path: Path) -> None:
    path = tmp_path / "config" / FILE_NAME
    add_concurrently(str(path), tmp_path / "kernels", processes=2, each=40)
    names = [e.name for e in Registry(FileStore(path)).list()]
    assert sorted(names) == sorted(f"p{p}-{n}" for p in range(2) for n in range(40))
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


# -- choosing the store ------------------------------------------------------------------


def test_embedded_settings_use_the_file_in_subcons_config_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    plain = Settings(kernel_dir=tmp_path / "k", runtime_dir=tmp_path / "r")
    assert kernels_file(plain) == Path.home() / ".config" / "subcon" / FILE_NAME
    assert kernels_file(plain, {"XDG_CONFIG_HOME": "/xdg"}) == Path("/xdg/subcon") / FILE_NAME
    chosen = plain.model_copy(update={"kernels_file": tmp_path / "mine.json"})
    registry = open_registry(chosen)
    assert isinstance(registry.store, FileStore) and registry.where == str(tmp_path / "mine.json")


def test_a_configured_redis_holds_the_registry(tmp_path: Path) -> None:
    url = "redis://:secret@127.0.0.1:1/0"
    for settings in (Settings(broker_url=url), Settings(redis_url=url)):
        registry = open_registry(settings)
        assert isinstance(registry.store, RedisStore)
        assert registry.where == "redis://:***@127.0.0.1:1/0 (hash subcon:kernels)"


# -- the Redis store's logic (fakeredis; the real server is in test_registry_redis) ------


def test_the_redis_store_keeps_one_json_field_per_kernel(tmp_path: Path) -> None:
    client = fakeredis.FakeRedis()
    registry = Registry(RedisStore(client, "fake"))
    registry.add("b", *dirs(tmp_path, "b"))
    added = registry.add("a", *dirs(tmp_path, "a"), imports=["codex:/s"])
    assert sorted(client.hkeys("subcon:kernels")) == [b"a", b"b"]
    stored = json.loads(client.hget("subcon:kernels", "a") or b"")
    assert stored["kernel"] == str(tmp_path / "a" / "kernel") and stored["imports"] == ["codex:/s"]
    assert registry.get("a") == added and [e.name for e in registry.list()] == ["a", "b"]
    registry.remove("a")
    assert client.hkeys("subcon:kernels") == [b"b"]


def test_the_redis_store_checks_again_when_the_hash_changed_meanwhile(tmp_path: Path) -> None:
    """Another client's add between the read and the write restarts the change, which
    then sees the newcomer and refuses the overlap."""
    server = fakeredis.FakeServer()
    other = Registry(RedisStore(fakeredis.FakeRedis(server=server), "fake"))
    seen: list[list[str]] = []

    class Racing(RedisStore):
        def update(self, change: Change) -> None:
            def spy(current: Entries) -> Entries:
                seen.append(sorted(current))
                if len(seen) == 1:
                    other.add("a", *dirs(tmp_path, "a"))
                return change(current)

            super().update(spy)

    racing = Registry(Racing(fakeredis.FakeRedis(server=server), "fake"))
    with pytest.raises(RegistryError, match="is the kernel dir of kernel 'a'"):
        racing.add("b", tmp_path / "a" / "kernel", tmp_path / "b-rt")
    assert seen == [[], ["a"]]
    assert [e.name for e in other.list()] == ["a"]


def test_a_malformed_redis_field_is_named(tmp_path: Path) -> None:
    client = fakeredis.FakeRedis()
    client.hset("subcon:kernels", "a", "not json")
    with pytest.raises(RegistryError, match=r"fake .*entry 'a' is malformed"):
        Registry(RedisStore(client, "fake")).list()


def test_an_entry_round_trips_through_json(tmp_path: Path) -> None:
    entry = KernelEntry(
        "a", tmp_path / "k", tmp_path / "r", ("codex:/s",), "2026-01-01T00:00:00.000Z"
    )
    assert KernelEntry.from_json("a", entry.to_json(), "here") == entry
