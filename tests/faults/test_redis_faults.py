"""Redis faults: the server crashes and restarts mid-pass; a lock holder dies; a stale
holder wakes up after its lease was taken over and must not commit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from shared.kernel.git import run_git
from shared.kernel.lock.redis_lock import RedisKernelLock, kernel_id
from shared.kernel.paths import KernelPaths
from testing.cluster import committer_cmd, committer_env, running_cluster
from testing.gitrepo import BAD_LINE as REJECTED
from testing.gitrepo import DOSSIER
from testing.kernels import copy_roots, tree_bytes
from testing.redis_server import RedisServer
from testing.waiting import poll_until, wait_until
from tests.faults.harness import (
    PASS_ENV,
    SCAN_GAP,
    WEAVER,
    FaultReport,
    audit_into,
    clean_reference,
    inbox_names,
    prepared_kernel,
    read_pid,
    seed_repo,
    sigkill,
)
from workers.app import make_app
from workers.canvas import dispatch_weaver

pytestmark = pytest.mark.integration


def finished(app: Any, task_id: str, timeout: float) -> dict[str, Any] | None:
    """The pass report if it completes within ``timeout`` s, else None.

    Polls the stored result with plain GETs (never a pub/sub subscription, which would
    outlive the server this test kills and retry in the background of later tests).
    """

    def stored() -> dict[str, Any] | None:
        try:
            meta = app.backend.get_task_meta(task_id)
        except (redis.ConnectionError, OSError):
            return None
        return meta["result"] if meta.get("status") == "SUCCESS" else None

    return poll_until(stored, timeout)


def test_redis_crash_and_restart_mid_pass(
    tmp_path: Path, own_redis: Callable[..., RedisServer], fault_report: FaultReport
) -> None:
    # As deploy/redis.sh runs it: append-only file; fsync always so a SIGKILL loses nothing.
    server = own_redis("--appendonly", "yes", "--appendfsync", "always", "--save", "")
    server.start()
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "dist")
    flag = tmp_path / "scan-go"
    env = {**PASS_ENV, "SUBCON_TEST_PAUSE": f"scan:{flag}"}
    with running_cluster(paths, server.url, tmp_path / "logs", **env) as cluster:
        cluster.worker("scan", "scan", 2)
        cluster.worker("kernel", "kernel", 1)
        cluster.wait_ready(["scan", "kernel"])
        app = make_app(cluster.settings)
        task_id = dispatch_weaver(app, commit=False).id
        read_pid(flag.with_name("scan-go.reached"))

        fault_report.injected("redis-crash-restart-mid-pass")
        server.kill()
        assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
        server.start()
        flag.write_text("go\n", encoding="utf-8")

        report = finished(app, task_id, 60)
        how = "completed"
        if report is None:
            # Messages a worker had reserved on the dead connection come back only after
            # the visibility timeout: the next tick re-plans from disk instead, and the
            # Stage-1 item is still there because nothing was acked.
            assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
            how = "retried"
            retry_id = dispatch_weaver(make_app(cluster.settings), commit=False).id
            report = finished(app, retry_id, 120)
        assert report is not None, f"no pass completed after the restart:\n{cluster.logs()}"

        # workers reconnected: both still answer a ping (the test's own pooled broker
        # connections died with the server, so the first attempts may fail)
        def answered() -> bool:
            try:
                cluster.wait_ready(["scan", "kernel"])
            except (redis.ConnectionError, OSError):
                return False
            return True

        wait_until(answered, 60, "the workers to answer after the restart")
    assert report["status"] == clean["report"]["status"]
    assert tree_bytes(paths.memory_dir) == clean["tree"]
    assert inbox_names(paths) == clean["inbox"]
    fault_report.items(checked=1, lost=0 if SCAN_GAP not in inbox_names(paths) else 1)
    fault_report.tried(f"redis-restart-{how}")
    fault_report.survived("redis-crash-restart-mid-pass")


HOLDER = textwrap.dedent(
    """
    import sys, time, redis
    from shared.kernel.lock.redis_lock import RedisKernelLock
    lock = RedisKernelLock(redis.Redis.from_url(sys.argv[1]), sys.argv[2], ttl=0.5)
    with lock.hold("doomed-holder", wait=5) as lease:
        print(lease.fence, flush=True)
        time.sleep(600)
    """
)


def test_dead_lock_holder_expires_and_fence_grows(
    paths: KernelPaths, redis_url: str, fault_report: FaultReport
) -> None:
    kid = kernel_id(paths.kernel)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, redis_url, kid],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert proc.stdout is not None
        old_fence = int(proc.stdout.readline())
        lock = RedisKernelLock(redis.Redis.from_url(redis_url), kid, ttl=5, default_wait=0)
        # alive and renewing: a second holder is refused
        from shared.errors import LockHeld

        with pytest.raises(LockHeld), lock.hold("second", wait=0):
            pass
        fault_report.injected("lock-holder-sigkill")
        sigkill(proc.pid)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    # its renewals stopped with it: the lease expires after its TTL
    wait_until(lambda: lock.holder() is None, 10, "the dead holder's lease to expire")
    with lock.hold("next", wait=0) as lease:
        assert lease.fence > old_fence
        lease.ensure()
    fault_report.survived("lock-holder-sigkill")


def test_stale_committer_wakes_after_takeover_and_cannot_commit(
    paths: KernelPaths, redis_url: str, tmp_path: Path, fault_report: FaultReport
) -> None:
    k = paths.kernel
    seed_repo(paths)
    before = run_git(k, "rev-parse", "HEAD").stdout.strip()
    (k / "memory/entities/beta.md").write_text(DOSSIER.replace("Acme", "Beta"), encoding="utf-8")
    flag = tmp_path / "stale-go"
    proc = subprocess.Popen(
        committer_cmd(paths),
        env=committer_env(
            redis_url, SUBCON_TEST_PAUSE_AFTER_STAGE=str(flag), SUBCON_LOCK_TTL_SECONDS="0.5"
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    lock = RedisKernelLock(redis.Redis.from_url(redis_url), kernel_id(k), ttl=30, default_wait=0)
    try:
        wait_until(flag.with_name("stale-go.reached").is_file, 60, "the committer to stage")
        stale_fence = int((lock.holder() or {})["fence"])
        # freeze it (a GC pause, a suspended VM): its renewal thread stops too
        fault_report.injected("stale-lock-holder-wakes")
        os.kill(proc.pid, signal.SIGSTOP)
        wait_until(lambda: lock.holder() is None, 10, "the frozen holder's lease to expire")
        with lock.hold("usurper", wait=0) as lease:
            assert lease.fence > stale_fence
            os.kill(proc.pid, signal.SIGCONT)
            flag.write_text("go\n", encoding="utf-8")
            out, err = proc.communicate(timeout=60)
            report = json.loads(out)
            assert report["outcome"] == "no_new_gradient", err
            assert "lock lost" in (report["skipped"] or ""), report
            assert run_git(k, "rev-parse", "HEAD").stdout.strip() == before
            lease.ensure()
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGCONT)
            proc.kill()
            proc.wait()
    run_git(k, "fsck", "--strict")
    assert not list((k / ".git").glob("subcon-commit-*"))
    assert "?? memory/entities/beta.md" in run_git(k, "status", "--porcelain", "-uall").stdout
    # the next committer, with the lock free, lands the same file
    rerun = subprocess.run(
        committer_cmd(paths), env=committer_env(redis_url), capture_output=True, timeout=60
    )
    assert json.loads(rerun.stdout)["files"] == ["memory/entities/beta.md"], rerun.stderr
    assert audit_into(fault_report, k, [REJECTED]) == (0, 0)
    fault_report.survived("stale-lock-holder-wakes")


def test_redis_outage_longer_than_the_lease_mid_crystallize(
    tmp_path: Path, own_redis: Callable[..., RedisServer], fault_report: FaultReport
) -> None:
    """Redis goes away while the kernel worker holds the lock mid-crystallize, for longer
    than the lease TTL. When it is back the lease is gone: the worker's next write
    fails its fence check (LockLost), the stage retries under a fresh lease, and the
    pass still ends byte-identical to a clean run."""
    server = own_redis("--appendonly", "yes", "--appendfsync", "always", "--save", "")
    server.start()
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "dist")
    flag = tmp_path / "write-go"
    env = {
        **PASS_ENV,
        "SUBCON_TEST_PAUSE": f"write:{flag}",
        # the second effectiveness file: the first one is written under the old lease
        "SUBCON_TEST_PAUSE_MATCH": "memory/effectiveness/lesson-chinese-reply-language.md",
    }
    with running_cluster(paths, server.url, tmp_path / "logs", **env) as cluster:
        cluster.worker("scan", "scan", 2)
        cluster.worker("kernel", "kernel", 1)
        cluster.wait_ready(["scan", "kernel"])
        app = make_app(cluster.settings)
        task_id = dispatch_weaver(app, commit=False).id
        read_pid(flag.with_name("write-go.reached"))
        client = redis.Redis.from_url(server.url)
        lock = RedisKernelLock(client, kernel_id(paths.kernel))
        fence = int((lock.holder() or {})["fence"])

        fault_report.injected("redis-outage-beyond-lease")
        server.kill()
        time.sleep(2.5)  # the fault itself: an outage longer than the 1 s lease
        server.start()
        wait_until(lambda: lock.holder() is None, 10, "the expired lease to be gone")
        flag.write_text("go\n", encoding="utf-8")
        report = finished(app, task_id, 90)
        assert report is not None, cluster.logs()
        kernel_log = (cluster.logdir / "kernel.log").read_text(errors="replace")
        assert "LockLost" in kernel_log  # the stale lease was refused ...
        assert int(client.get(lock.fence_key) or 0) > fence  # ... and a fresh one taken
    assert report["status"] == clean["report"]["status"]
    assert tree_bytes(paths.memory_dir) == clean["tree"]
    assert inbox_names(paths) == clean["inbox"]
    fault_report.items(checked=1, lost=0)
    fault_report.survived("redis-outage-beyond-lease")
