"""Fixtures shared by every test: hermetic roots, a hermetic git, a real redis-server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from shared.settings import Settings


@pytest.fixture(autouse=True)
def _hermetic_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No test may read the developer's git config, subcon env or home directory."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(name, "subcon-test")
    for name in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(name, "test@subcon.invalid")
    for key in list(os.environ):
        if key.startswith(("SUBCON_", "ALADUO_")):
            monkeypatch.delenv(key)


@pytest.fixture
def paths(tmp_path: Path) -> KernelPaths:
    """Empty kernel and runtime roots in a temp dir (nothing created inside them)."""
    kernel = tmp_path / "kernel"
    runtime = tmp_path / "runtime"
    kernel.mkdir()
    runtime.mkdir()
    return KernelPaths(kernel=kernel, runtime=runtime)


@pytest.fixture
def settings(paths: KernelPaths) -> Settings:
    return Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A real ``redis-server`` process on a loopback port, restartable for fault tests."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None

    def flush(self) -> None:
        import redis

        redis.Redis.from_url(self.url).flushall()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server for the whole session. Skips locally when the binary is
    missing; in CI (``CI`` set) a missing binary is a failure, not a skip."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is required in CI (.ci/run installs it)")
        pytest.skip("redis-server not installed")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """A flushed database on the session's real redis-server."""
    redis_server.flush()
    return redis_server.url


@pytest.fixture(autouse=True, scope="session")
def _no_kombu_after_fork_cleanup() -> Iterator[None]:
    """Keep kombu from registering its pools for an after-fork cleanup in this process.

    Tests create Celery apps here (to send tasks, ping workers); a pool left with a
    channel mid-BRPOP (``control.ping`` leaves one) makes every later ``fork()`` of the
    test process (a multiprocessing test) run that cleanup in the child, which then
    blocks forever reading the inherited socket. No forked child of the test process
    uses kombu, so the cleanup has nothing to do here; worker processes are separate.
    """
    import kombu.pools
    import kombu.resource

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kombu.resource, "register_after_fork", None)
        patch.setattr(kombu.pools, "register_after_fork", None)
        yield
