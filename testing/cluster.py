"""Real worker processes: Celery workers, beat, Flower and the committer CLI.

Every process runs in its own session so that teardown can signal the whole group
(prefork children included).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from shared.kernel.paths import KernelPaths
from shared.settings import Settings, load_settings
from testing.waiting import wait_until

REPO = Path(__file__).resolve().parents[1]
READY_TIMEOUT_S = 60.0


def settings_for(paths: KernelPaths, env: dict[str, str], **overrides: str) -> Settings:
    """Settings as a worker started with ``env`` (``SUBCON_*`` variables) builds them."""
    extra = {k.removeprefix("SUBCON_").lower(): v for k, v in env.items()}
    return load_settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, **overrides, **extra)


@dataclass
class Cluster:
    """Processes serving one kernel through one Redis."""

    paths: KernelPaths
    redis_url: str
    logdir: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    procs: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
        env.update(
            SUBCON_BROKER_URL=self.redis_url,
            SUBCON_KERNEL_DIR=str(self.paths.kernel),
            SUBCON_RUNTIME_DIR=str(self.paths.runtime),
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    @property
    def settings(self) -> Settings:
        return settings_for(self.paths, self.extra_env, broker_url=self.redis_url)

    def spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        return self.spawn_cmd(name, [sys.executable, "-m", "celery", "-A", "workers.app", *args])

    def spawn_cmd(self, name: str, cmd: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.logdir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            cmd,
            cwd=REPO,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self.procs.append((name, proc))
        return proc

    def worker(self, name: str, queue: str, concurrency: int = 1) -> None:
        self.spawn(
            name,
            [
                "worker",
                "-Q",
                queue,
                "--pool",
                "prefork",
                "-c",
                str(concurrency),
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel",
                "INFO",
                "--max-tasks-per-child",
                "100",
            ],
        )

    def commit_worker(self) -> None:
        """The commit worker exactly as deployed (deploy/commit-worker.sh)."""
        self.spawn_cmd(
            "commit",
            [str(REPO / "deploy" / "commit-worker.sh"), "--without-gossip", "--without-mingle"],
        )

    def beat(self, name: str = "beat") -> subprocess.Popen[bytes]:
        return self.spawn(name, ["beat", "--loglevel", "INFO"])

    def wait_ready(self, names: list[str]) -> None:
        """Block until every named worker answers a ping."""
        from workers.app import make_app

        app = make_app(self.settings)
        host = socket.gethostname()
        wanted = {f"{n}@{host}" for n in names}

        def answered() -> bool:
            replies = app.control.ping(timeout=0.5) or []
            seen = {name for reply in replies for name in reply}
            return wanted <= seen

        try:
            wait_until(answered, READY_TIMEOUT_S, f"workers {sorted(wanted)}")
        except AssertionError:
            raise AssertionError(f"workers not ready; logs:\n{self.logs()}") from None

    def logs(self) -> str:
        parts = []
        for path in sorted(self.logdir.glob("*.log")):
            parts.append(f"==== {path.name}\n{path.read_text(errors='replace')[-4000:]}")
        return "\n".join(parts)

    def stop(self, name: str | None = None) -> None:
        """Stop one process (by name) or all: SIGTERM to the group, then SIGKILL."""
        chosen = [(n, p) for n, p in self.procs if name is None or n == name]
        for _, proc in chosen:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGTERM)
        for _, proc in chosen:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        self.procs = [(n, p) for n, p in self.procs if (n, p) not in chosen]


@contextlib.contextmanager
def running_cluster(
    paths: KernelPaths, redis_url: str, logdir: Path, **env: str
) -> Iterator[Cluster]:
    """A cluster on a URL of our choosing; every process is stopped on exit."""
    logdir.mkdir(parents=True, exist_ok=True)
    cluster = Cluster(paths, redis_url, logdir, dict(env))
    try:
        yield cluster
    finally:
        cluster.stop()


def committer_cmd(paths: KernelPaths, *extra: str) -> list[str]:
    """The committer CLI (``python -m workers commit --json``) on ``paths``."""
    return [
        sys.executable,
        "-m",
        "workers",
        "--kernel",
        str(paths.kernel),
        "--runtime",
        str(paths.runtime),
        "commit",
        "--json",
        *extra,
    ]


def committer_env(redis_url: str, **extra: str) -> dict[str, str]:
    """This process's environment without its ``SUBCON_*`` variables, on ``redis_url``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    env.update(SUBCON_REDIS_URL=redis_url, **extra)
    return env
