"""Real worker processes for integration tests: Celery workers, beat and Flower.

Every process runs in its own session so that teardown can signal the whole group
(prefork children included); teardown always runs, even when a test fails.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from shared.kernel.paths import KernelPaths
from shared.settings import Settings

REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(predicate: Callable[[], Any], timeout: float, what: str, poll: float = 0.2) -> Any:
    """Poll ``predicate`` until it returns a truthy value or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(poll)


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
        return Settings(
            kernel_dir=self.paths.kernel,
            runtime_dir=self.paths.runtime,
            broker_url=self.redis_url,
            **{k.removeprefix("SUBCON_").lower(): v for k, v in self.extra_env.items()},
        )

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


@pytest.fixture
def cluster_factory(redis_url: str, tmp_path: Path) -> Iterator[Callable[..., Cluster]]:
    """Build clusters for kernels; every process is stopped at teardown."""
    made: list[Cluster] = []

    def make(paths: KernelPaths, **extra_env: str) -> Cluster:
        logdir = tmp_path / f"logs-{len(made)}"
        logdir.mkdir()
        cluster = Cluster(paths, redis_url, logdir, dict(extra_env))
        made.append(cluster)
        return cluster

    try:
        yield make
    finally:
        for cluster in made:
            cluster.stop()


def make_demo(root: Path) -> KernelPaths:
    """A demo kernel (``subcon init --demo``) under ``root``."""
    from shared.setup.bootstrap import init_kernel

    paths = KernelPaths(kernel=root / "kernel", runtime=root / "runtime")
    init_kernel(paths, demo=True, force=False)
    return paths


def demo_messages(paths: KernelPaths) -> list[dict[str, Any]]:
    """The demo spine's external channel messages (English and Chinese), parsed."""
    import json

    from shared.spine.event import is_external

    samples: list[dict[str, Any]] = []
    for day_file in sorted(paths.events_dir.glob("*.jsonl")):
        # The demo days hold a torn write cut inside a multibyte character: not UTF-8.
        for line in day_file.read_bytes().splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue  # the demo spine keeps malformed lines on purpose
            if (
                isinstance(event, dict)
                and is_external(event)
                and event.get("type") == "channel.message"
            ):
                samples.append(event)
    assert samples, "demo spine has no external messages"
    return samples


def add_banded_day(paths: KernelPaths, date: str, hours: range, per_hour: int) -> int:
    """Append a day whose external events fall in ``hours`` (non-adjacent hours = bands),
    reusing the demo spine's external messages (English and Chinese). Returns the count."""

    from shared.spine.writer import append_event

    samples = demo_messages(paths)
    count = 0
    year, month, day = (int(x) for x in date.split("-"))
    for hour in hours:
        for n in range(per_hour):
            sample = samples[count % len(samples)]
            fields = {k: v for k, v in sample.items() if k not in ("id", "ts")}
            moment = datetime(year, month, day, hour, 5 + n, n % 60, tzinfo=UTC)
            append_event(paths, fields, moment)
            internal = {
                "type": "system.cadence_tick",
                "source": {"kind": "system", "name": "cadence"},
                "payload": {"count": 0},
            }
            append_event(paths, internal, moment.replace(second=(n + 30) % 60))
            count += 1
    return count


def write_big_day(paths: KernelPaths, date: str, count: int) -> None:
    """One hour band of ``count`` external messages (the demo spine's, English and
    Chinese), written straight to the day file: one slice, long enough to be watched."""
    import json

    from shared.spine.writer import make_envelope

    samples = demo_messages(paths)
    start = datetime.fromisoformat(f"{date}T10:00:00+00:00")
    lines = []
    for n in range(count):
        fields = {k: v for k, v in samples[n % len(samples)].items() if k not in ("id", "ts")}
        moment = start + timedelta(microseconds=n * 50_000)
        fields["ts"] = (
            moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        )
        lines.append(json.dumps(make_envelope(fields), ensure_ascii=False))
    paths.day_file(date).write_text("\n".join(lines) + "\n", encoding="utf-8")


def copy_roots(src: KernelPaths, dest: Path) -> KernelPaths:
    """A byte-identical copy of both roots (kernel git repo included)."""
    out = KernelPaths(kernel=dest / "kernel", runtime=dest / "runtime")
    shutil.copytree(src.kernel, out.kernel, symlinks=True)
    shutil.copytree(src.runtime, out.runtime, symlinks=True)
    return out


def tree_bytes(root: Path, *, skip: tuple[str, ...] = (".git",)) -> dict[str, bytes]:
    """Every regular file under ``root`` by relative path (skipping ``skip`` dirs)."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts and rel.parts[0] in skip:
            continue
        if path.is_file() and not path.is_symlink():
            out[str(rel)] = path.read_bytes()
    return out


@pytest.fixture(autouse=True)
def _drop_results() -> Iterator[None]:
    """Collect Celery results while Redis still runs: an AsyncResult's finaliser talks to
    the result backend, and at interpreter exit the session's redis-server is gone."""
    yield
    gc.collect()
