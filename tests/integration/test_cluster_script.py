"""deploy/cluster.sh for real: start, status, stop of redis-server, three workers, beat and
Flower on one host; which settings win; what a failed start prints first."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from testing.cluster import REPO
from testing.kernels import make_demo, write_big_day
from testing.redis_server import free_port
from testing.waiting import wait_until

pytestmark = pytest.mark.integration

SCRIPT = REPO / "deploy" / "cluster.sh"
BIG_DAY = "2026-02-14"


def env_for(tmp: Path, env_file: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    env.update(
        SUBCON_ENV_FILE=str(env_file),
        SUBCON_CLUSTER_DIR=str(tmp / "state"),
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def run(env: dict[str, str], *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[tuple[KernelPaths, Path]]:
    paths = make_demo(tmp_path / "roots")
    redis_port, flower_port = free_port(), free_port()
    env_file = tmp_path / "subcon.env"
    # The file names a kernel that does not exist: the exported one must win.
    env_file.write_text(
        "\n".join(
            [
                "SUBCON_KERNEL_DIR=/nonexistent/kernel-from-file",
                f"SUBCON_RUNTIME_DIR={paths.runtime}",
                f"SUBCON_REDIS_PORT={redis_port}",
                f"SUBCON_REDIS_DIR={tmp_path / 'redis'}",
                f"SUBCON_BROKER_URL=redis://127.0.0.1:{redis_port}/0",
                "SUBCON_SCAN_CONCURRENCY=1",
                "SUBCON_KERNEL_CONCURRENCY=1",
                # no tick during the test: the only scan is the test's own, one slice
                "SUBCON_TICK_SECONDS=3600",
                "SUBCON_SCAN_SLICE_EVENTS=100000",
                f"SUBCON_FLOWER_PORT={flower_port}",
                "SUBCON_FLOWER_USER=subcon",
                "SUBCON_FLOWER_PASSWORD=from-the-file",
                "",
            ]
        ),
        encoding="utf-8",
    )
    try:
        yield paths, env_file
    finally:
        # whatever a failing test left running
        run(env_for(tmp_path, env_file, SUBCON_KERNEL_DIR=str(paths.kernel)), "stop")


def _redis_shutdown(text: str) -> datetime:
    found = re.search(r"(\d\d \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) # User requested shutdown", text)
    assert found, text[-2000:]
    return datetime.strptime(found.group(1), "%d %b %Y %H:%M:%S.%f")


def _last_celery_time(text: str) -> datetime:
    stamps = re.findall(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}):", text, re.M)
    assert stamps, text[-2000:]
    return datetime.strptime(stamps[-1], "%Y-%m-%d %H:%M:%S,%f")


def logs(tmp: Path) -> dict[str, str]:
    return {p.stem: p.read_text(errors="replace") for p in (tmp / "state").glob("*.log")}


def test_file_value_without_export_is_named_in_the_error(
    kernel: tuple[KernelPaths, Path], tmp_path: Path
) -> None:
    _, env_file = kernel
    proc = run(env_for(tmp_path, env_file), "start")
    assert proc.returncode == 2
    assert "/nonexistent/kernel-from-file" in proc.stderr
    assert f"SUBCON_KERNEL_DIR from {env_file}" in proc.stderr
    assert not (tmp_path / "state").exists()


def test_start_status_stop_in_order(kernel: tuple[KernelPaths, Path], tmp_path: Path) -> None:
    paths, env_file = kernel
    pause = tmp_path / "go"
    env = env_for(
        tmp_path,
        env_file,
        SUBCON_KERNEL_DIR=str(paths.kernel),
        SUBCON_TEST_PAUSE=f"scan:{pause}",
        SUBCON_TEST_PAUSE_MATCH=BIG_DAY.replace("-", ""),
    )

    started = run(env, "start")
    assert started.returncode == 0, started.stdout + started.stderr + str(logs(tmp_path))
    out = started.stdout
    assert f"settings: {env_file}" in out
    assert f"SUBCON_KERNEL_DIR={paths.kernel}  (the environment)" in out
    assert f"SUBCON_RUNTIME_DIR={paths.runtime}  ({env_file})" in out
    assert f"password: SUBCON_FLOWER_PASSWORD in {env_file}" in out
    assert "from-the-file" not in out  # where the password is, never the password
    assert "cluster up: redis scan kernel commit beat flower" in out

    status = run(env, "status")
    assert status.returncode == 0
    for name in ("redis", "scan", "kernel", "commit", "beat", "flower"):
        assert re.search(rf"^{name}: running \(pid \d+\)$", status.stdout, re.M), status.stdout
    for worker in ("scan@", "kernel@", "commit@"):
        assert worker in status.stdout

    again = run(env, "start")
    assert again.returncode == 0 and again.stdout.startswith("already running:")

    # A scan is running when stop comes: the scan worker finishes it before it exits
    # (warm shutdown), and redis is still there for its result. The scan waits at the
    # test hook until the worker has begun its shutdown.
    write_big_day(paths, BIG_DAY, 500)
    cli_env = {**env}
    for line in env_file.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("=")
        if key.startswith("SUBCON_") and key not in cli_env:
            cli_env[key] = value
    scan = subprocess.Popen(
        [sys.executable, "-m", "workers", "scan", "--from", BIG_DAY, "--to", BIG_DAY],
        cwd=REPO,
        env=cli_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    scan_log = tmp_path / "state" / "scan.log"
    try:
        wait_until(pause.with_name("go.reached").exists, 60, "the scan to reach its pause")
        stopping = subprocess.Popen(
            ["bash", str(SCRIPT), "stop"],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_until(
            lambda: "Warm shutdown" in scan_log.read_text(errors="replace"),
            60,
            "the scan worker's warm shutdown",
        )
        assert stopping.poll() is None  # stop waits for the running scan
        pause.touch()
        out, err = stopping.communicate(timeout=180)
    finally:
        pause.touch()
        scan.kill()
        scan.wait(timeout=30)
    assert stopping.returncode == 0, err
    scan_text = scan_log.read_text(errors="replace")
    done = re.search(r"Task subcon\.memory-weaver\.scan\[[0-9a-f-]+\] succeeded", scan_text)
    assert done, scan_text[-3000:]
    assert scan_text.index("Warm shutdown") < done.start(), scan_text[-3000:]
    stopped = subprocess.CompletedProcess(stopping.args, stopping.returncode, out, err)
    order = re.findall(r"^stopped (\w+) \(pid \d+\)$", stopped.stdout, re.M)
    assert sorted(order) == sorted(["beat", "flower", "scan", "kernel", "commit", "redis"])
    assert order[:2] == ["beat", "flower"]
    assert order[-1] == "redis"
    assert "killed" not in stopped.stdout

    texts = logs(tmp_path)
    assert set(texts) == {"redis", "scan", "kernel", "commit", "beat", "flower"}
    for name, text in texts.items():
        assert "CRITICAL" not in text, (name, text[-3000:])
        assert "ConnectionError" not in text, (name, text[-3000:])
        assert "WorkerLostError" not in text, (name, text[-3000:])
    # beat let go of its lock while redis still ran; redis shut down cleanly, last
    assert "beat: Releasing lock" in texts["beat"]
    assert "ready to exit" in texts["redis"]
    # and by the logs' own clocks: every Celery process's last line precedes redis's
    # shutdown
    redis_down = _redis_shutdown(texts["redis"])
    for name in ("beat", "scan", "kernel", "commit"):
        assert _last_celery_time(texts[name]) <= redis_down, name
    after = run(env, "status")
    assert all(f"{n}: not running" in after.stdout for n in ("redis", "beat", "flower"))
    assert after.returncode == 3


def test_failed_start_prints_its_own_cause_first(
    kernel: tuple[KernelPaths, Path], tmp_path: Path
) -> None:
    paths, env_file = kernel
    env = env_for(tmp_path, env_file, SUBCON_KERNEL_DIR=str(paths.kernel))
    # a previous run's shutdown is in the logs
    assert run(env, "start").returncode == 0
    assert run(env, "stop").returncode == 0

    # exported and empty: Flower refuses to run without a password
    broken = run({**env, "SUBCON_FLOWER_PASSWORD": ""}, "start")
    assert broken.returncode == 1
    err = broken.stderr.splitlines()
    assert err[0] == "start failed: flower exited", broken.stderr
    assert err[1].startswith("---- ") and err[1].endswith("flower.log (this start)")
    cause = "\n".join(err[2:])
    assert "set SUBCON_FLOWER_PASSWORD" in cause
    # only this start's lines: none of the previous run's shutdown
    assert cause.count("==== start") == 1
    assert "Warm shutdown" not in cause and "worker: " not in cause
    assert "password: SUBCON_FLOWER_PASSWORD in the environment" in broken.stdout
    # what did start was stopped again
    after = run(env, "status")
    assert "redis: not running" in after.stdout and "scan: not running" in after.stdout


def test_first_use_creates_a_private_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / "fresh.env"
    proc = run(env_for(tmp_path, env_file, SUBCON_RUNTIME_DIR=str(tmp_path)), "status")
    assert proc.returncode == 3, proc.stderr  # nothing runs
    assert f"created {env_file} from the example" in proc.stderr
    mode = stat.S_IMODE(env_file.stat().st_mode)
    assert mode == 0o600
    text = env_file.read_text(encoding="utf-8")
    password = re.search(r"^SUBCON_FLOWER_PASSWORD=(.+)$", text, re.M)
    assert password and password.group(1) != "change-me" and len(password.group(1)) >= 20
    assert f"password: SUBCON_FLOWER_PASSWORD in {env_file}" in proc.stdout
    # the exported runtime dir won over the example's
    assert f"SUBCON_RUNTIME_DIR={tmp_path}  (the environment)" in proc.stdout
