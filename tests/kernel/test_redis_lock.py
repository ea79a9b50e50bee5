"""The Redis kernel lock against a real redis-server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from shared.errors import LockHeld, LockLost
from shared.kernel.lock.factory import open_kernel_lock
from shared.kernel.lock.file_lock import FileKernelLock
from shared.kernel.lock.redis_lock import RedisKernelLock, kernel_id
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from testing.waiting import wait_until


def make_lock(url: str, ttl: float = 5.0, kid: str = "k1") -> RedisKernelLock:
    return RedisKernelLock(redis.Redis.from_url(url), kid, ttl=ttl, default_wait=0)


def poll(predicate: Callable[[], object], timeout: float = 10.0) -> None:
    wait_until(predicate, timeout, "the condition", poll=0.02)


def test_hold_release_fence_and_holder(redis_url: str) -> None:
    lock = make_lock(redis_url)
    with lock.hold("memory-weaver") as first:
        first.ensure()
        info = lock.holder()
        assert info is not None
        assert (info["owner"], info["fence"], info["token"]) == ("memory-weaver", 1, first.token)
        assert info["pid"] == os.getpid()
        with pytest.raises(LockHeld), lock.hold("memory-committer", wait=0):
            pass
    assert lock.holder() is None
    with pytest.raises(LockLost):
        first.ensure()
    with lock.hold("memory-committer") as second:
        assert second.fence == 2


def test_wait_acquires_after_release_by_another_thread(redis_url: str) -> None:
    import threading

    lock = make_lock(redis_url)
    release = threading.Event()
    held = threading.Event()

    def holder() -> None:
        with lock.hold("a"):
            held.set()
            release.wait(5)

    t = threading.Thread(target=holder)
    t.start()
    held.wait(5)
    threading.Timer(0.2, release.set).start()
    with lock.hold("b", wait=5) as lease:
        assert lease.fence == 2
    t.join()


def test_renewal_keeps_the_lease_past_its_ttl(redis_url: str) -> None:
    lock = make_lock(redis_url, ttl=0.3)
    client = redis.Redis.from_url(redis_url)
    with lock.hold("committer") as lease:
        # Watch the renew thread push the key's expiry forward three times: together
        # that outlives the 300 ms TTL, so the lease survived only by being renewed.
        renewals, last = 0, client.pttl(lock.key)

        def renewed() -> bool:
            nonlocal renewals, last
            now = client.pttl(lock.key)
            if now > last:
                renewals += 1
            last = now
            return renewals >= 3

        poll(renewed)
        assert client.exists(lock.key)
        lease.ensure()


def test_dead_holder_expires_and_stale_lease_is_fenced_out(redis_url: str) -> None:
    lock = make_lock(redis_url, ttl=0.3)
    client = redis.Redis.from_url(redis_url)
    with lock.hold("stale") as stale:
        stale.stop_renewal()  # the holder "dies": nothing renews its TTL any more
        poll(lambda: not client.exists(lock.key))
        with lock.hold("fresh", wait=0) as fresh:
            assert fresh.fence > stale.fence
            with pytest.raises(LockLost):
                stale.ensure()
            fresh.ensure()
        # The stale holder's release must not delete someone else's lock.
        with lock.hold("third") as third:
            assert third.fence == fresh.fence + 1
    assert lock.holder() is None


def test_killed_holder_process_expires(redis_url: str, tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    code = (
        "import sys, time, redis\n"
        "from shared.kernel.lock.redis_lock import RedisKernelLock\n"
        f"lock = RedisKernelLock(redis.Redis.from_url({redis_url!r}), 'k1', ttl=0.5)\n"
        "with lock.hold('doomed', wait=0):\n"
        f"    open({str(ready)!r}, 'w').close()\n"
        "    time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        poll(ready.exists)
        lock = make_lock(redis_url)
        with pytest.raises(LockHeld), lock.hold("next", wait=0):
            pass
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        with lock.hold("next", wait=10) as lease:
            assert lease.fence == 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_kernel_id_is_stable_across_spellings(tmp_path: Path) -> None:
    real = tmp_path / "kernel"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real)
    assert kernel_id(real) == kernel_id(tmp_path / "alias") == kernel_id(real / ".." / "kernel")
    assert len(kernel_id(real)) == 16


def test_factory_picks_redis_or_file(paths: KernelPaths, redis_url: str) -> None:
    redis_lock = open_kernel_lock(
        Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, redis_url=redis_url), paths
    )
    assert isinstance(redis_lock, RedisKernelLock)
    assert redis_lock.kernel_id == kernel_id(paths.kernel)
    file_lock = open_kernel_lock(
        Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime), paths
    )
    assert isinstance(file_lock, FileKernelLock)
    assert file_lock.path == paths.file_lock


def test_unreachable_redis_is_a_lock_error_and_the_committer_skips(
    paths: KernelPaths, settings: Settings
) -> None:
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    from shared.committer.run import run_committer
    from shared.errors import LockError
    from shared.kernel.git import run_git

    client = redis.Redis(port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    lock = RedisKernelLock(client, "k", default_wait=0)
    with pytest.raises(LockError), lock.hold("x"):
        pass
    run_git(paths.kernel, "init", "-q")
    (paths.kernel / "memory").mkdir()
    (paths.kernel / "memory" / "CLAUDE.md").write_text("- x\n", encoding="utf-8")
    report = run_committer(paths, settings, lock=lock, tick=None)
    assert report.text == "NO_NEW_GRADIENT"
    assert report.skipped is not None
    assert report.skipped.startswith("kernel lock unavailable: cannot reach Redis")
    assert report.warnings and "audit stream publish failed" in report.warnings[0]
