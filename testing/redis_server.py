"""The one ``redis-server`` launcher: a real server on a loopback port, restartable."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from testing.waiting import wait_until

# No RDB snapshots, no AOF: a test server keeps nothing on disk unless a test asks.
EPHEMERAL = ("--save", "", "--appendonly", "no")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def require_redis_server() -> str:
    """The ``redis-server`` binary; skips the test without it, fails in CI (``CI`` set)."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is required in CI (.ci/run installs it)")
        pytest.skip("redis-server not installed")
    return binary


def server_command(
    binary: str, bind: str, ports: list[str], workdir: Path, *extra: str
) -> list[str]:
    """The command line of a server on ``bind`` and ``ports`` (``--port N``, ``--tls-port N``),
    keeping its files in ``workdir``."""
    return [binary, *ports, "--bind", bind, "--dir", str(workdir), *extra]


class RedisServer:
    """A private ``redis-server`` (own port and dir) with extra arguments, restartable and
    killable for fault tests; its output goes to ``redis.log`` in its dir."""

    def __init__(self, workdir: Path, *extra: str, scheme: str = "redis", auth: str = "") -> None:
        self.workdir = workdir
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.extra = list(extra)
        self.scheme = scheme
        self.auth = auth
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        auth = f":{self.auth}@" if self.auth else ""
        return f"{self.scheme}://{auth}127.0.0.1:{self.port}/0"

    def start(self, *, port_args: list[str] | None = None) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        ports = port_args if port_args is not None else ["--port", str(self.port)]
        cmd = server_command(binary, "127.0.0.1", ports, self.workdir, *self.extra)
        log = open(self.workdir / "redis.log", "ab")  # noqa: SIM115 - closed below
        self.proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()

        def listening() -> bool:
            assert self.proc is not None and self.proc.poll() is None, self.log()
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
            ):
                return True
            return False

        wait_until(listening, 15, f"redis-server on {self.port}", poll=0.05)

    def kill(self) -> None:
        """SIGKILL (a crash, not a shutdown)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.proc = None

    def flush(self) -> None:
        import redis

        redis.Redis.from_url(self.url).flushall()

    def log(self) -> str:
        path = self.workdir / "redis.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""
