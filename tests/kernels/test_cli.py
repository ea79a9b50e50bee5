"""`subcon kernels add|list|remove` and `subcon --kernel-name NAME COMMAND`, run as the
real command in a subprocess (issue #31)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from testing.kernels import make_demo
from testing.redis_server import free_port

REPO = Path(__file__).resolve().parents[2]


class Subcon:
    """The ``subcon`` command with its own environment (no settings file, a private
    registry file, optionally a broker)."""

    def __init__(self, tmp_path: Path, **env: str) -> None:
        self.registry_file = tmp_path / "config" / "kernels.json"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
        self.env.update(
            PYTHONPATH=str(REPO),
            SUBCON_KERNELS_FILE=str(self.registry_file),
            # the settings' own kernel: not any registered one
            SUBCON_KERNEL_DIR=str(tmp_path / "default-kernel"),
            SUBCON_RUNTIME_DIR=str(tmp_path / "default-runtime"),
            **env,
        )
        self.cwd = tmp_path

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workers", *args],
            env=self.env,
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=120,
        )


def one_line_error(result: subprocess.CompletedProcess[str], code: int) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 or lines[-1].startswith("Error: "), result.stderr
    return lines[-1]


@pytest.fixture
def subcon(tmp_path: Path) -> Subcon:
    return Subcon(tmp_path)


@pytest.fixture
def alpha(tmp_path: Path) -> KernelPaths:
    """A demo kernel (board, dossiers, a spine, git genesis) to register."""
    return make_demo(tmp_path / "alpha")


def _add(subcon: Subcon, name: str, paths: KernelPaths, *imports: str) -> None:
    """``subcon kernels add NAME --kernel … --runtime … [--import …]``, which must succeed."""
    extra = [arg for spec in imports for arg in ("--import", spec)]
    args = ["kernels", "add", name, "--kernel", str(paths.kernel), "--runtime", str(paths.runtime)]
    done = subcon(*args, *extra)
    assert done.returncode == 0, done.stderr


def test_add_list_remove(subcon: Subcon, alpha: KernelPaths, tmp_path: Path) -> None:
    done = subcon(
        "kernels",
        "add",
        "alpha",
        "--kernel",
        str(alpha.kernel),
        "--runtime",
        str(alpha.runtime),
        "--import",
        "claude-code:transcripts",
    )
    assert done.returncode == 0, done.stderr
    assert f"added kernel 'alpha' to the registry {subcon.registry_file}" in done.stdout
    assert f"  import:  claude-code:{tmp_path}/transcripts" in done.stdout  # from the cwd
    assert "--kernel-name alpha status" in done.stdout

    # relative dirs are taken from the current dir
    beta = subcon("kernels", "add", "beta", "--kernel", "beta/k", "--runtime", "beta/r")
    assert beta.returncode == 0, beta.stderr
    assert f"  kernel:  {tmp_path}/beta/k  (does not exist yet)" in beta.stdout
    assert "`subcon --kernel-name beta init` creates the missing dirs" in beta.stdout

    listed = subcon("kernels", "list")
    assert listed.returncode == 0, listed.stderr
    out = listed.stdout.splitlines()
    assert out[0] == f"registry: {subcon.registry_file}"
    assert out[1].startswith("default  (the settings' own kernel")
    assert f"  kernel:  {tmp_path}/default-kernel  (does not exist yet)" in out
    assert out.index("alpha") < out.index("beta")
    assert f"  kernel:  {alpha.kernel}" in out and f"  runtime: {alpha.runtime}" in out

    doc = json.loads(subcon("kernels", "list", "--json").stdout)
    assert doc["registry"] == {"store": "file", "where": str(subcon.registry_file)}
    assert doc["default"]["kernel"] == str(tmp_path / "default-kernel")
    assert [k["name"] for k in doc["kernels"]] == ["alpha", "beta"]
    assert doc["kernels"][0]["kernel_exists"] and not doc["kernels"][1]["kernel_exists"]
    assert doc["kernels"][0]["imports"] == [f"claude-code:{tmp_path}/transcripts"]

    before = sorted(p.relative_to(alpha.kernel) for p in alpha.kernel.rglob("*"))
    gone = subcon("kernels", "remove", "alpha")
    assert gone.returncode == 0, gone.stderr
    assert "removed kernel 'alpha'" in gone.stdout and "no file was deleted" in gone.stdout
    assert sorted(p.relative_to(alpha.kernel) for p in alpha.kernel.rglob("*")) == before
    assert alpha.runtime.is_dir()
    names = [k["name"] for k in json.loads(subcon("kernels", "list", "--json").stdout)["kernels"]]
    assert names == ["beta"]
    said = one_line_error(subcon("kernels", "remove", "alpha"), 2)
    assert said == (
        f"subcon: no kernel named 'alpha' in the registry ({subcon.registry_file}): "
        "`subcon kernels list` shows them, `subcon kernels add` adds one"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["Alpha", "--kernel", "/k/a", "--runtime", "/k/b"], "kernel name 'Alpha' refused"),
        (["../x", "--kernel", "/k/a", "--runtime", "/k/b"], "kernel name '../x' refused"),
        (["default", "--kernel", "/k/a", "--runtime", "/k/b"], "reserved"),
        (["b", "--kernel", "/k/a", "--runtime", "/k/a/var"], "is inside the kernel dir"),
        (["b", "--kernel", "/k/x", "--runtime", "/k/y", "--import", "x:/t"], "FORMAT:PATH"),
    ],
)
def test_a_refused_add_is_one_line_and_exit_2(subcon: Subcon, args: list[str], said: str) -> None:
    assert said in one_line_error(subcon("kernels", "add", *args), 2)
    assert not subcon.registry_file.exists()


def test_missing_dirs_are_a_usage_error(subcon: Subcon) -> None:
    assert "Missing option '--runtime'" in one_line_error(
        subcon("kernels", "add", "a", "--kernel", "/k"), 2
    )


def test_an_overlapping_kernel_is_refused_through_a_symlink(
    subcon: Subcon, alpha: KernelPaths, tmp_path: Path
) -> None:
    _add(subcon, "alpha", alpha)
    (tmp_path / "alias").symlink_to(alpha.kernel / "memory")
    said = one_line_error(
        subcon("kernels", "add", "b", "--kernel", "alias", "--runtime", "b-runtime"), 2
    )
    assert said.startswith(f"subcon: kernel dir {alpha.kernel}/memory is inside the kernel dir")


def test_kernel_name_runs_a_command_on_the_registered_kernel(
    subcon: Subcon, alpha: KernelPaths
) -> None:
    _add(subcon, "alpha", alpha, f"codex:{alpha.kernel.parent}/s")
    status = subcon("--kernel-name", "alpha", "status", "--json")
    assert status.returncode == 0, status.stderr
    doc = json.loads(status.stdout)
    assert doc["kernel"] == {"path": str(alpha.kernel), "exists": True}
    assert doc["runtime"] == {"path": str(alpha.runtime), "exists": True}
    assert doc["settings"]["sources"]["kernel_dir"] == "the kernel registry (--kernel-name alpha)"
    # the named kernel's import sources, not SUBCON_IMPORT
    assert list(doc["import"]["sources"]) == [f"codex:{alpha.kernel.parent}/s"]
    text = subcon("--kernel-name", "alpha", "status")
    assert text.returncode == 0 and text.stdout.startswith(f"kernel: {alpha.kernel}\n")
    for command in (["check", "--dry-run", "--json"], ["audit", "--json"]):
        done = subcon("--kernel-name", "alpha", *command)
        assert done.returncode in (0, 1), (command, done.stderr)
        json.loads(done.stdout)
    report = subcon("--kernel-name", "alpha", "report", "--json")
    assert report.returncode == 0, report.stderr
    assert str(alpha.kernel) in report.stdout


def test_without_kernel_name_the_settings_kernel_is_used_as_before(
    subcon: Subcon, alpha: KernelPaths, tmp_path: Path
) -> None:
    _add(subcon, "alpha", alpha)
    for args in ([], ["--kernel-name", "default"]):
        said = one_line_error(subcon(*args, "status"), 2)
        assert f"kernel dir {tmp_path}/default-kernel does not exist" in said
    plain = subcon(
        "--kernel", str(alpha.kernel), "--runtime", str(alpha.runtime), "status", "--json"
    )
    assert json.loads(plain.stdout)["settings"]["sources"]["kernel_dir"] == "the command line"


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["--kernel-name", "nope", "status"], 2, "subcon: no kernel named 'nope' in the registry"),
        (["--kernel-name", "../etc", "audit"], 2, "subcon: no kernel named '../etc'"),
        (
            ["--kernel-name", "alpha", "--kernel", "/k", "status"],
            2,
            "Error: --kernel-name names the kernel and runtime dirs",
        ),
        (
            ["--kernel-name", "alpha", "kernels", "list"],
            2,
            "Error: `kernels` takes kernel names as arguments",
        ),
    ],
)
def test_a_bad_kernel_name_is_one_line_and_exit_2(
    subcon: Subcon, alpha: KernelPaths, args: list[str], code: int, said: str
) -> None:
    _add(subcon, "alpha", alpha)
    assert one_line_error(subcon(*args), code).startswith(said)


def test_a_damaged_registry_file_is_named_and_exit_2(subcon: Subcon) -> None:
    subcon.registry_file.parent.mkdir(parents=True)
    subcon.registry_file.write_text("{")
    said = one_line_error(subcon("kernels", "list"), 2)
    assert said.startswith(f"subcon: kernel registry {subcon.registry_file} is not JSON")


def test_a_redis_that_does_not_answer_exits_3(tmp_path: Path) -> None:
    subcon = Subcon(tmp_path, SUBCON_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
    said = one_line_error(subcon("kernels", "list"), 3)
    assert said.startswith("subcon: the kernel registry's Redis at redis://127.0.0.1:")
    said = one_line_error(subcon("--kernel-name", "a", "status"), 3)
    assert "does not answer" in said


def test_with_a_broker_the_registry_is_the_clusters_hash(
    redis_url: str, tmp_path: Path, alpha: KernelPaths
) -> None:
    subcon = Subcon(tmp_path, SUBCON_BROKER_URL=redis_url)
    added = subcon(
        "kernels", "add", "alpha", "--kernel", str(alpha.kernel), "--runtime", str(alpha.runtime)
    )
    assert added.returncode == 0, added.stderr
    assert "the cluster ticks 'alpha' from beat's next tick on" in added.stdout
    assert not subcon.registry_file.exists()
    doc = json.loads(subcon("kernels", "list", "--json").stdout)
    assert doc["registry"]["store"] == "redis" and doc["registry"]["where"].endswith(
        "(hash subcon:kernels)"
    )
    assert [k["name"] for k in doc["kernels"]] == ["alpha"]
    status = json.loads(subcon("--kernel-name", "alpha", "status", "--json").stdout)
    assert status["kernel"]["path"] == str(alpha.kernel) and status["mode"] == "distributed"

    # In-process on the named kernel, with the cluster's Redis holding the registry (the
    # workers' side: tests/integration/test_many_kernels.py).
    inproc = Subcon(tmp_path, SUBCON_BROKER_URL="", SUBCON_REDIS_URL=redis_url)
    woven = inproc("--kernel-name", "alpha", "weave", "--no-commit", "--json")
    assert woven.returncode == 0, woven.stderr
    report_log = json.loads(woven.stdout)["report_log"]
    assert (alpha.runtime / report_log).is_file()  # the pass ran on alpha's runtime

    removed = subcon("kernels", "remove", "alpha")
    assert removed.returncode == 0 and "no file was deleted" in removed.stdout
    assert json.loads(subcon("kernels", "list", "--json").stdout)["kernels"] == []
