"""The embedded-mode file lock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shared.errors import LockHeld, LockLost
from shared.kernel.lock.file_lock import FileKernelLock
from testing.waiting import wait_until


def test_hold_fence_holder_and_release(tmp_path: Path) -> None:
    lock = FileKernelLock(tmp_path / "locks" / "k.lock", default_wait=0)
    assert lock.holder() is None
    with lock.hold("memory-weaver") as lease:
        lease.ensure()
        info = lock.holder()
        assert info is not None and info["owner"] == "memory-weaver" and info["fence"] == 1
        # A second holder in the same process contends like another process would.
        with pytest.raises(LockHeld), FileKernelLock(lock.path).hold("other", wait=0):
            pass
    assert lock.holder() is None
    with pytest.raises(LockLost):
        lease.ensure()
    with lock.hold("next") as second:
        assert second.fence == 2


def test_other_process_holds_then_dies(tmp_path: Path) -> None:
    path = tmp_path / "k.lock"
    ready = tmp_path / "ready"
    code = (
        "import time\n"
        "from pathlib import Path\n"
        "from shared.kernel.lock.file_lock import FileKernelLock\n"
        f"with FileKernelLock(Path({str(path)!r})).hold('doomed', wait=0):\n"
        f"    open({str(ready)!r}, 'w').close()\n"
        "    time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        wait_until(ready.exists, 10, "the holder process to take the lock", poll=0.02)
        lock = FileKernelLock(path)
        assert (lock.holder() or {}).get("owner") == "doomed"
        with pytest.raises(LockHeld), lock.hold("me", wait=0):
            pass
        proc.kill()
        proc.wait(10)
        with lock.hold("me", wait=5) as lease:
            assert lease.fence == 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_replaced_lock_file_or_moved_fence_is_lost(tmp_path: Path) -> None:
    lock = FileKernelLock(tmp_path / "k.lock")
    with lock.hold("a", wait=0) as lease:
        lock.fence_path.write_text("99\n", encoding="utf-8")
        with pytest.raises(LockLost):
            lease.ensure()
    with lock.hold("b", wait=0) as lease:
        assert lease.fence == 100
        lock.path.unlink()
        with pytest.raises(LockLost):
            lease.ensure()
