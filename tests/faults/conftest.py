"""Fault-injection fixtures: prepared kernels, clean reference runs, the measured report.

Clusters (real Celery worker processes in their own sessions) come from
``tests/integration/conftest.py``; every process is stopped at teardown. The
session-scoped :class:`FaultReport` counts what the suite really did and writes
``tests/faults/.report.json`` at the end of the session, so the README figures are
measured, not typed.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from tests.integration.conftest import (  # noqa: F401 - cluster_factory is a fixture
    Cluster,
    add_banded_day,
    cluster_factory,
    copy_roots,
    make_demo,
    tree_bytes,
    wait_until,
)

REPORT_PATH = Path(__file__).with_name(".report.json")
DAY = "2026-01-07"
WEAVER = "memory-weaver"
SCAN_GAP = "scan-gap.md.pending"
# Small slices (so a band is several scan tasks), one-event-enough thresholds (so the
# updater really edits the board), a short lock TTL (so a killed holder's lease expires
# within a test).
PASS_ENV = {
    "SUBCON_SCAN_SLICE_EVENTS": "4",
    "SUBCON_WEAKENING_THRESHOLD": "1",
    "SUBCON_LOCK_TTL_SECONDS": "1",
    "SUBCON_LOCK_WAIT_SECONDS": "60",
}


@dataclass
class FaultReport:
    """Counters for the README figures (see module docstring)."""

    faults_injected: dict[str, int] = field(default_factory=dict)
    faults_survived: dict[str, int] = field(default_factory=dict)
    inputs_tried: dict[str, int] = field(default_factory=dict)
    hypothesis_examples: int = 0
    items_checked: int = 0
    items_lost: int = 0
    commits_audited: int = 0
    rejected_lines_committed: int = 0
    outside_paths_committed: int = 0

    def injected(self, kind: str) -> None:
        self.faults_injected[kind] = self.faults_injected.get(kind, 0) + 1

    def survived(self, kind: str) -> None:
        self.faults_survived[kind] = self.faults_survived.get(kind, 0) + 1

    def tried(self, kind: str, n: int = 1, *, hypothesis: bool = False) -> None:
        self.inputs_tried[kind] = self.inputs_tried.get(kind, 0) + n
        if hypothesis:
            self.hypothesis_examples += n

    def items(self, checked: int, lost: int) -> None:
        self.items_checked += checked
        self.items_lost += lost

    def to_json(self) -> dict[str, Any]:
        return {
            "faults_injected": sum(self.faults_injected.values()),
            "faults_survived": sum(self.faults_survived.values()),
            "inputs_tried": sum(self.inputs_tried.values()),
            "hypothesis_examples": self.hypothesis_examples,
            "items_checked": self.items_checked,
            "items_lost": self.items_lost,
            "commits_audited": self.commits_audited,
            "rejected_lines_committed": self.rejected_lines_committed,
            "outside_allowlist_paths_committed": self.outside_paths_committed,
            "by_fault": {
                k: {"injected": v, "survived": self.faults_survived.get(k, 0)}
                for k, v in sorted(self.faults_injected.items())
            },
            "inputs_by_kind": dict(sorted(self.inputs_tried.items())),
        }


_REPORT = FaultReport()


@pytest.fixture(scope="session")
def fault_report() -> Iterator[FaultReport]:
    """The session's counters; written to ``tests/faults/.report.json`` at the end."""
    yield _REPORT
    data = _REPORT.to_json()
    tmp = REPORT_PATH.with_name(f".report.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, REPORT_PATH)


def prepared_kernel(root: Path) -> KernelPaths:
    """A demo kernel plus a four-band day and its posted ``scan-gap.md.pending``."""
    from shared.memcheck.check import run_memory_check

    paths = make_demo(root)
    add_banded_day(paths, DAY, range(0, 24, 6), per_hour=3)
    run_memory_check(paths, Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime))
    assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
    return paths


@pytest.fixture(scope="module")
def demo_base(tmp_path_factory: pytest.TempPathFactory) -> KernelPaths:
    """One demo kernel per test module; tests work on copies (:func:`fresh`)."""
    return make_demo(tmp_path_factory.mktemp("hostile") / "base")


def settings_for(paths: KernelPaths, env: dict[str, str]) -> Settings:
    """Settings as a worker started with ``env`` would build them (no broker)."""
    extra = {k.removeprefix("SUBCON_").lower(): v for k, v in env.items()}
    return Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, **extra)


def clean_reference(base: KernelPaths, dest: Path, env: dict[str, str]) -> dict[str, Any]:
    """Run the embedded pass (no faults) on a copy of ``base``; returns its report and
    the resulting memory tree and inbox listing."""
    from workers.embedded import run_partition

    clean = copy_roots(base, dest)
    report = run_partition(settings_for(clean, env), WEAVER, commit=False)
    return {
        "report": report,
        "tree": tree_bytes(clean.memory_dir),
        "inbox": inbox_names(clean),
        "paths": clean,
    }


def inbox_names(paths: KernelPaths, partition: str = WEAVER) -> list[str]:
    inbox = paths.inbox_dir(partition)
    return sorted(p.name for p in inbox.iterdir()) if inbox.is_dir() else []


def read_pid(reached: Path, timeout: float = 90.0) -> int:
    """Wait for a pause point's ``.reached`` file and return the pid it names."""
    wait_until(reached.is_file, timeout, f"{reached.name} (a worker at the pause point)")
    return int(reached.read_text(encoding="utf-8").split()[0])


def sigkill(pid: int) -> None:
    """SIGKILL ``pid`` and wait until it is gone (a reaped child or a zombie)."""
    os.kill(pid, signal.SIGKILL)

    def gone() -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][:1]
        except OSError:
            return True
        return state in ("Z", "X")

    wait_until(gone, 10, f"pid {pid} to die")


def git_history_audit(kernel: Path, forbidden: list[str]) -> tuple[int, int, int]:
    """(committer commits, rejected lines they hold, outside-allowlist paths they touch).

    Every commit the committer made (``Partition: memory-committer`` trailer) is
    re-reviewed: each changed allowlisted file's changed lines go through the same review
    gates again, and must also not contain any of the ``forbidden`` lines verbatim.
    """
    from shared.committer.diffing import changed_lines
    from shared.review.allowlist import classify
    from shared.review.reviewer import review_text

    revs = run_git(kernel, "rev-list", "--all").stdout.split()
    commits = bad_lines = bad_paths = 0
    for rev in revs:
        if (
            "Partition: memory-committer"
            not in run_git(kernel, "log", "-1", "--format=%B", rev).stdout
        ):
            continue
        commits += 1
        changed = run_git(
            kernel, "diff-tree", "--root", "--no-commit-id", "-r", "--name-only", "-z", rev
        ).stdout.split("\0")
        for path in (p for p in changed if p):
            kind = classify(path)
            if kind is None:
                bad_paths += 1
                continue
            new = run_git(kernel, "show", f"{rev}:{path}", check=False)
            if new.returncode != 0:
                continue  # a deletion
            old = run_git(kernel, "show", f"{rev}^:{path}", check=False)
            touched = changed_lines(old.stdout, new.stdout) if old.returncode == 0 else None
            rejects = [d for d in review_text(path, kind, new.stdout, touched) if d.rejected]
            verbatim = [f for f in forbidden if f.strip() and f.strip() in new.stdout]
            bad_lines += len(rejects) + len(verbatim)
    return commits, bad_lines, bad_paths


def audit_into(report: FaultReport, kernel: Path, forbidden: list[str]) -> tuple[int, int]:
    """Audit ``kernel``'s history into ``report``; returns (bad lines, bad paths)."""
    commits, bad_lines, bad_paths = git_history_audit(kernel, forbidden)
    report.commits_audited += commits
    report.rejected_lines_committed += bad_lines
    report.outside_paths_committed += bad_paths
    return bad_lines, bad_paths


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail a block that overruns ``seconds`` (the suite must stay bounded)."""
    begun = time.monotonic()
    yield
    spent = time.monotonic() - begun
    assert spent < seconds, f"block took {spent:.1f}s (limit {seconds}s)"


class OwnRedis:
    """A private ``redis-server`` (own port and dir) with extra arguments, restartable,
    for faults that must not disturb the session's server: restarts, passwords, TLS."""

    def __init__(self, workdir: Path, *extra: str, scheme: str = "redis", auth: str = "") -> None:
        from tests.integration.conftest import free_port

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
        log = open(self.workdir / "redis.log", "ab")  # noqa: SIM115 - closed below
        self.proc = subprocess.Popen(
            [binary, *ports, "--bind", "127.0.0.1", "--dir", str(self.workdir), *self.extra],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
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

    def log(self) -> str:
        path = self.workdir / "redis.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Callable[..., OwnRedis]]:
    """Factory for private redis-servers; every one is stopped at teardown."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is required in CI (.ci/run installs it)")
        pytest.skip("redis-server not installed")
    made: list[OwnRedis] = []

    def make(*extra: str, scheme: str = "redis", auth: str = "") -> OwnRedis:
        server = OwnRedis(tmp_path / f"redis-{len(made)}", *extra, scheme=scheme, auth=auth)
        made.append(server)
        return server

    try:
        yield make
    finally:
        # Result objects of this test still subscribed to a server (kept alive by
        # reference cycles) must go while it is up, or their __del__ retries later.
        gc.collect()
        for server in made:
            server.stop()


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
