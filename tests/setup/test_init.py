"""`subcon init`: layout, layout files, partition files, git genesis, refusal and --force."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
import yaml

from shared.constants import GITIGNORE_ENTRIES
from shared.errors import ConfigError
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.setup.bootstrap import GENESIS_MESSAGE, init_kernel, is_own_repo
from shared.setup.templates import layout, partitions
from workers.cli import main

SHIPPED = Path("/work/shared/partitions/discovery")

WEAVER_FRONT_MATTER = """\
---
schedule:
  enabled: true
  cooldown_ticks: 5
  max_duration_ms: 2100000
contract:
  partition: memory-weaver
  consumes:
    - entity-converge.v1
    - sink.v1
    - merge.v1
    - orphan-islands.v1
    - orphan-newborn.v1
    - scan-gap.v1
---
"""

COMMITTER_FRONT_MATTER = """\
---
schedule:
  enabled: true
  cooldown_ticks: 3
  max_duration_ms: 1800000
---
"""


def snapshot(*roots: Path) -> dict[str, bytes | None]:
    """Every path under the roots with file contents (None for directories)."""
    out: dict[str, bytes | None] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            out[str(path)] = path.read_bytes() if path.is_file() else None
    return out


def git_out(cwd: Path, *args: str) -> str:
    return run_git(cwd, *args).stdout


def test_init_creates_runtime_and_kernel_layout(paths: KernelPaths) -> None:
    """Every directory of docs/formats.md §3.1 exists and run/ is private."""
    init_kernel(paths, demo=False, force=False)
    for rel in (
        "var", "run", "var/events", "var/events/index", "var/registry", "var/sessions",
        "var/jobs", "var/ingress", "var/telemetry", "var/usage", "var/cadence",
        "var/cadence/inbox", "run/locks", "run/queue_offsets", "var/subconscious",
        "var/meta/partitions",
    ):  # fmt: skip
        assert (paths.runtime / rel).is_dir(), rel
    for rel in (
        "memory", "memory/entities", "memory/topics", "memory/fragments", "memory/state",
        "subconscious", ".claude", "subconscious/memory-weaver", "subconscious/memory-committer",
    ):  # fmt: skip
        assert (paths.kernel / rel).is_dir(), rel
    assert stat.S_IMODE(os.stat(paths.run_dir).st_mode) == 0o700


def test_init_layout_files_are_byte_exact(paths: KernelPaths) -> None:
    init_kernel(paths, demo=False, force=False)
    assert paths.cadence_queue.read_bytes() == b"# Cadence Queue\n\n## Queue\n\n## Notes\n"
    assert paths.playlist.read_bytes() == (
        b"# Subconscious Playlist\n\n## Current Round\n\n## History\n"
    )
    assert paths.meta_state.read_bytes() == b"{}\n"
    assert paths.board.read_bytes() == b""
    lines = paths.gitignore.read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("# ")
    assert lines[1:] == [*GITIGNORE_ENTRIES, ""]
    assert lines[1:8] == [
        "memory/state/", "memory/fragments/", "memory/effectiveness/", "subconscious/inbox/",
        ".claude/", "*.tmp", "CLAUDE.local.md",
    ]  # fmt: skip
    status_text = (paths.registry_dir / "status.json").read_text(encoding="utf-8")
    assert status_text.endswith("}\n") and status_text.startswith('{\n  "generated_at"')
    status = json.loads(status_text)
    assert list(status) == [
        "generated_at", "kernel", "workspaces", "cadence", "spine", "health", "limits",
    ]  # fmt: skip
    assert status["kernel"] == {"root": str(paths.kernel), "version": "unknown"}
    assert status["cadence"] == {"mode": "layered", "last_tick": None}
    assert status["limits"] == {"context_budget_tokens": 18000}
    assert status["spine"]["event_log"].startswith(str(paths.events_dir) + "/")


def test_partition_files_carry_the_shipped_front_matter(paths: KernelPaths) -> None:
    init_kernel(paths, demo=False, force=False)
    weaver = paths.partition_prompt("memory-weaver").read_text(encoding="utf-8")
    committer = paths.partition_prompt("memory-committer").read_text(encoding="utf-8")
    assert weaver.startswith(WEAVER_FRONT_MATTER + "\n# memory-weaver\n")
    assert committer.startswith(COMMITTER_FRONT_MATTER + "\n# memory-committer\n")
    meta = yaml.safe_load(weaver.split("---\n")[1])
    assert meta["schedule"] == {"enabled": True, "cooldown_ticks": 5, "max_duration_ms": 2100000}
    assert meta["contract"]["partition"] == "memory-weaver"
    assert "scan-gap.v1" in meta["contract"]["consumes"]
    assert "contract" not in yaml.safe_load(committer.split("---\n")[1])
    root = (paths.subconscious_dir / "CLAUDE.md").read_text(encoding="utf-8")
    assert root.startswith("# Subconscious\n") and "playlist.md" in root


@pytest.mark.skipif(not SHIPPED.is_dir(), reason="shipped partition specs not on this machine")
@pytest.mark.parametrize("name", ["memory-weaver", "memory-committer"])
def test_front_matter_identical_to_shipped_spec(name: str) -> None:
    shipped = (SHIPPED / name / "CLAUDE.md").read_text(encoding="utf-8")
    ours = partitions.PARTITION_FILES[name]
    assert shipped.split("\n---\n", 1)[0] == ours.split("\n---\n", 1)[0]


def test_genesis_commit_identity_and_content(paths: KernelPaths) -> None:
    report = init_kernel(paths, demo=False, force=False)
    assert is_own_repo(paths.kernel)
    log = git_out(paths.kernel, "log", "--format=%an <%ae>|%cn <%ce>|%s").strip().split("\n")
    assert log == [f"aladuo <aladuo@local>|aladuo <aladuo@local>|{GENESIS_MESSAGE}"]
    assert report.git == "genesis"
    assert report.genesis_commit == git_out(paths.kernel, "rev-parse", "--short", "HEAD").strip()
    tracked = set(git_out(paths.kernel, "ls-files").split())
    assert {
        ".gitignore", "memory/CLAUDE.md", "subconscious/CLAUDE.md", "subconscious/playlist.md",
        "subconscious/memory-weaver/CLAUDE.md", "subconscious/memory-committer/CLAUDE.md",
    } <= tracked  # fmt: skip
    assert "memory/state/meta-memory-state.json" not in tracked
    assert git_out(paths.kernel, "status", "--porcelain", "-uall") == ""


def test_init_refuses_non_empty_kernel_and_changes_nothing(paths: KernelPaths) -> None:
    (paths.kernel / "notes.txt").write_text("mine\n", encoding="utf-8")
    before = snapshot(paths.kernel, paths.runtime)
    with pytest.raises(ConfigError, match=r"not empty.*--force"):
        init_kernel(paths, demo=True, force=False)
    assert snapshot(paths.kernel, paths.runtime) == before


def test_cli_refusal_exits_2_with_message(
    paths: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    (paths.kernel / "notes.txt").write_text("mine\n", encoding="utf-8")
    argv = ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), "init"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert str(paths.kernel) in err and "--force" in err
    assert sorted(p.name for p in paths.kernel.iterdir()) == ["notes.txt"]


def test_force_adds_layout_and_keeps_existing_files(paths: KernelPaths) -> None:
    (paths.kernel / "notes.txt").write_text("mine\n", encoding="utf-8")
    paths.board.parent.mkdir(parents=True)
    paths.board.write_text("- my own board line\n", encoding="utf-8")
    report = init_kernel(paths, demo=False, force=True)
    assert paths.board.read_text(encoding="utf-8") == "- my own board line\n"
    assert "kernel:memory/CLAUDE.md" in report.kept
    assert paths.partition_prompt("memory-weaver").is_file()
    assert "notes.txt" in git_out(paths.kernel, "ls-files").split()
    assert git_out(paths.kernel, "status", "--porcelain", "-uall") == ""


def test_existing_repo_only_syncs_gitignore(paths: KernelPaths) -> None:
    run_git(paths.kernel, "init", "-q")
    paths.gitignore.write_text("node_modules/\n  *.tmp  \nmemory/state/", encoding="utf-8")
    (paths.kernel / "README.md").write_text("kernel\n", encoding="utf-8")
    run_git(paths.kernel, "add", ".")
    run_git(paths.kernel, "commit", "-q", "-m", "user history")
    head = git_out(paths.kernel, "rev-parse", "HEAD")

    report = init_kernel(paths, demo=False, force=True)

    assert git_out(paths.kernel, "rev-parse", "HEAD") == head
    assert git_out(paths.kernel, "rev-list", "--count", "HEAD").strip() == "1"
    assert report.git == "existing-repo" and report.genesis_commit is None
    missing = [e for e in GITIGNORE_ENTRIES if e not in ("*.tmp", "memory/state/")]
    assert report.gitignore_added == missing
    assert paths.gitignore.read_text(encoding="utf-8") == (
        "node_modules/\n  *.tmp  \nmemory/state/\n" + "\n".join(missing) + "\n"
    )
    # A second run has nothing left to add and leaves the file alone.
    again = init_kernel(paths, demo=False, force=True)
    assert again.gitignore_added == []


def test_kernel_nested_in_another_repo_gets_its_own_genesis(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    outer.mkdir()
    run_git(outer, "init", "-q")
    nested = KernelPaths(kernel=outer / "aladuo", runtime=tmp_path / "rt")
    nested.kernel.mkdir()
    assert not is_own_repo(nested.kernel)
    report = init_kernel(nested, demo=False, force=False)
    assert report.git == "genesis"
    assert (nested.kernel / ".git").is_dir()
    assert is_own_repo(nested.kernel)


def test_init_creates_missing_roots(tmp_path: Path) -> None:
    fresh = KernelPaths(kernel=tmp_path / "a" / "kernel", runtime=tmp_path / "b" / "runtime")
    init_kernel(fresh, demo=False, force=False)
    assert fresh.playlist.is_file() and fresh.cadence_queue.is_file()


def test_root_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "kernel").write_text("x", encoding="utf-8")
    bad = KernelPaths(kernel=tmp_path / "kernel", runtime=tmp_path / "runtime")
    with pytest.raises(ConfigError, match="not a directory"):
        init_kernel(bad, demo=False, force=True)
    assert not bad.runtime.exists()


@pytest.mark.parametrize(
    ("text", "expected", "added"),
    [
        ("", "\n".join(GITIGNORE_ENTRIES) + "\n", list(GITIGNORE_ENTRIES)),
        (layout.render_gitignore(), layout.render_gitignore(), []),
        ("a\n", "a\n" + "\n".join(GITIGNORE_ENTRIES) + "\n", list(GITIGNORE_ENTRIES)),
        (
            "# c\n" + "\n".join(f" {e} " for e in GITIGNORE_ENTRIES[:-1]),
            "# c\n" + "\n".join(f" {e} " for e in GITIGNORE_ENTRIES[:-1]) + "\nCLAUDE.local.md\n",
            ["CLAUDE.local.md"],
        ),
    ],
)
def test_sync_gitignore(text: str, expected: str, added: list[str]) -> None:
    assert layout.sync_gitignore(text) == (expected, added)


def test_cli_init_json_report(paths: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), "init", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["git"] == "genesis" and doc["spine"] is None
    assert "kernel:subconscious/memory-weaver/CLAUDE.md" in doc["created"]
    assert "runtime:var/cadence/queue.md" in doc["created"]
