"""``deploy/cluster.sh status`` answers in its exit code (issue #32, low): 0 when every
process runs, 1 when some do not, 3 when none runs. No Redis or worker is started:
a stand-in process whose command line is a component's program plays that component."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "deploy" / "cluster.sh"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    env_file = tmp_path / "subcon.env"
    env_file.write_text(f"SUBCON_RUNTIME_DIR={tmp_path / 'runtime'}\n", encoding="utf-8")
    base = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    return {**base, "SUBCON_ENV_FILE": str(env_file), "SUBCON_CLUSTER_DIR": str(tmp_path)}


def status(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), "status"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def beat(env: dict[str, str], tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A process cluster.sh takes for beat (its command line names the beat program)."""
    proc = subprocess.Popen(["bash", "-c", "exec -a 'python -m workers.app beat' sleep 60"])
    (tmp_path / "beat.pid").write_text(f"{proc.pid}\n", encoding="utf-8")
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_status_exits_3_when_nothing_runs(env: dict[str, str]) -> None:
    proc = status(env)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    for name in ("redis", "scan", "kernel", "commit", "beat", "flower"):
        assert f"{name}: not running" in proc.stdout
    assert proc.stdout.rstrip().endswith("cluster: not running (deploy/cluster.sh start starts it)")


def test_status_exits_1_when_only_some_run(
    env: dict[str, str], beat: subprocess.Popen[bytes]
) -> None:
    proc = status(env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"beat: running (pid {beat.pid})" in proc.stdout
    assert "redis: not running" in proc.stdout
    assert "cluster: 5 of 6 processes not running" in proc.stdout


def test_the_exit_codes_are_documented() -> None:
    head = SCRIPT.read_text(encoding="utf-8").split("set -euo pipefail")[0]
    assert "exit 0 when" in head and "1 when some do not, 3 when none" in head


@pytest.mark.parametrize("home_name", ["dev", "home of a|b&c"])
def test_first_use_writes_the_roots_subcon_init_made(tmp_path: Path, home_name: str) -> None:
    """The README's one-host steps: `subcon init` (no options) makes ~/aladuo and
    ~/.aladuo; the env file cluster.sh creates on first use names those, not the
    example's /home/aladuo (issue #32, medium 5). A home the file's three readers (bash,
    systemd, compose) would each quote apart is left for the operator to set, and said."""
    home = tmp_path / home_name
    home.mkdir()
    env_file = tmp_path / "first.env"
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SUBCON_", "ALADUO_"))}
    env = {**base, "HOME": str(home), "SUBCON_ENV_FILE": str(env_file),
           "SUBCON_CLUSTER_DIR": str(tmp_path / "cluster")}  # fmt: skip
    proc = status(env)
    assert proc.returncode == 3, proc.stderr  # nothing runs
    text = env_file.read_text(encoding="utf-8")
    if home_name == "dev":
        assert f"\nSUBCON_KERNEL_DIR={home}/aladuo\n" in text
        assert f"\nSUBCON_RUNTIME_DIR={home}/.aladuo\n" in text
        assert "/home/aladuo" not in text
        assert f"kernel {home}/aladuo, runtime {home}/.aladuo" in proc.stderr
    else:
        assert "set SUBCON_KERNEL_DIR and SUBCON_RUNTIME_DIR there" in proc.stderr
        assert str(home) not in text
