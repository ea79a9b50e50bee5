"""With SUBCON_BROKER_URL set and Redis down, the commands that send work to a cluster
say so in one line within seconds, with exit code 3, and enqueue names the item it wrote
(issue #32 items 2 and 4)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from shared.kernel.keys import shown_url
from shared.kernel.paths import KernelPaths
from shared.setup.bootstrap import init_kernel


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    "args",
    [
        ["weave"],
        ["tick"],
        ["scan", "--date", "2026-01-05"],
        ["enqueue", "--partition", "memory-weaver", "hi"],
    ],
)
def test_a_dead_broker_is_one_line_and_exit_3(tmp_path: Path, args: list[str]) -> None:
    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(paths, demo=False, force=False)
    url = f"redis://:s3cret@127.0.0.1:{_free_port()}/0"
    proc = subprocess.run(
        [sys.executable, "-m", "workers", "--kernel", str(paths.kernel), "--runtime",
         str(paths.runtime), *args],
        env={"PATH": "/usr/bin:/bin", "SUBCON_BROKER_URL": url, "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    lines = [ln for ln in proc.stderr.strip().splitlines() if ln.startswith("subcon:")]
    assert len(lines) == 1 and "cannot reach the broker at redis://:***@127.0.0.1:" in lines[0]
    assert "s3cret" not in proc.stderr + proc.stdout and "Traceback" not in proc.stderr
    if args[0] == "enqueue":
        (item,) = [p.name for p in paths.inbox_dir("memory-weaver").glob("*.pending")]
        assert lines[0].startswith(f"subcon: wrote {item}, but its weaver pass was not dispatched")


def test_the_password_is_masked() -> None:
    assert shown_url("rediss://:pw@h:6380/0?x=1") == "rediss://:***@h:6380/0?x=1"
    assert shown_url("redis://user:pw@h/1") == "redis://user:***@h/1"
    assert shown_url("redis://h:6379/0") == "redis://h:6379/0"


def test_status_says_the_broker_does_not_answer(tmp_path: Path) -> None:
    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(paths, demo=False, force=False)
    url = f"redis://:s3cret@127.0.0.1:{_free_port()}/0"
    proc = subprocess.run(
        [sys.executable, "-m", "workers", "--kernel", str(paths.kernel), "--runtime",
         str(paths.runtime), "status"],
        env={"PATH": "/usr/bin:/bin", "SUBCON_BROKER_URL": url, "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert proc.returncode == 0
    assert "broker: UNREACHABLE: cannot reach the broker at redis://:***@" in proc.stdout
    assert "s3cret" not in proc.stdout


def test_audit_names_a_missing_kernel_and_says_when_there_is_nothing(tmp_path: Path) -> None:
    """Issue #32 (low): audit on a missing kernel printed nothing and exited 0."""
    from workers.cli import main

    missing = ["--kernel", str(tmp_path / "nope"), "--runtime", str(tmp_path / "r"), "audit"]
    assert main(missing) == 2
    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r2")
    init_kernel(paths, demo=False, force=False)
    assert main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), "audit"]) == 0


def test_a_missing_runtime_suggests_an_init_that_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #32 item 8: status suggested `init` without --force, which init then refused."""
    import shutil

    from workers.cli import main

    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(paths, demo=False, force=False)
    shutil.rmtree(paths.runtime)
    roots = ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime)]
    assert main([*roots, "status"]) == 2
    err = capsys.readouterr().err
    assert f"--runtime {paths.runtime} init --force`" in err
    assert main([*roots, "init", "--force"]) == 0  # what it suggested works
    assert main([*roots, "status"]) == 0
