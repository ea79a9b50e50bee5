"""Kernel lock for embedded mode: ``fcntl.flock`` on one file, plus a fence counter.

``<lock>`` is held with an exclusive flock for the whole block (the OS releases it if
the process dies, so there is no TTL to renew). ``<lock>.fence`` holds the counter,
incremented under the flock at each acquisition; ``<lock>.holder.json`` says who
holds it. ``ensure()`` checks that the flock's file is still the lock file and the
fence file still holds this lease's fence.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from shared.errors import LockHeld, LockLost
from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.timestamps import iso

_POLL_SECONDS = 0.05


class FileLease:
    """A held file kernel lock."""

    def __init__(self, lock: FileKernelLock, fd: int, token: str, fence: int) -> None:
        self._lock = lock
        self._fd = fd
        self._token = token
        self._fence = fence
        self.released = False

    @property
    def fence(self) -> int:
        return self._fence

    @property
    def token(self) -> str:
        return self._token

    def ensure(self) -> None:
        """Raise ``LockLost`` if released, if the lock file was replaced, or if the fence moved."""
        if self.released:
            raise LockLost(f"kernel lock lease {self._fence} was released")
        try:
            held = os.fstat(self._fd)
            current = os.stat(self._lock.path)
        except OSError as exc:
            raise LockLost(f"kernel lock file {self._lock.path} is gone: {exc}") from exc
        if (held.st_dev, held.st_ino) != (current.st_dev, current.st_ino):
            raise LockLost(f"kernel lock file {self._lock.path} was replaced")
        if self._lock.read_fence() != self._fence:
            raise LockLost(f"kernel lock lease {self._fence} was taken over")


class FileKernelLock:
    """The kernel lock for embedded mode (see module docstring)."""

    def __init__(self, path: Path, default_wait: float = 30.0) -> None:
        self.path = path
        self.default_wait = default_wait

    @property
    def fence_path(self) -> Path:
        return self.path.with_name(self.path.name + ".fence")

    @property
    def holder_path(self) -> Path:
        return self.path.with_name(self.path.name + ".holder.json")

    def read_fence(self) -> int:
        try:
            return int(self.fence_path.read_text(encoding="utf-8").strip() or 0)
        except (OSError, ValueError):
            return 0

    def _try_flock(self) -> int | None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return fd

    @contextmanager
    def hold(self, owner: str, wait: float | None = None) -> Iterator[FileLease]:
        """Acquire (waiting up to ``wait`` s; 0 = one attempt) and release on exit.

        Raises:
            LockHeld: another process (or another block in this one) holds the lock.
        """
        budget = self.default_wait if wait is None else wait
        deadline = time.monotonic() + budget
        while True:
            fd = self._try_flock()
            if fd is not None:
                break
            if time.monotonic() >= deadline:
                raise LockHeld(f"kernel lock is held: {self.holder()}")
            time.sleep(min(_POLL_SECONDS, max(deadline - time.monotonic(), 0.0)))
        try:
            fence = self.read_fence() + 1
            atomic_write_text(self.fence_path, f"{fence}\n")
            lease = FileLease(self, fd, uuid.uuid4().hex, fence)
            info = {
                "owner": owner,
                "token": lease.token,
                "fence": fence,
                "since": iso(),
                "host": socket.gethostname(),
                "pid": os.getpid(),
            }
            atomic_write_text(self.holder_path, pretty(info))
            try:
                yield lease
            finally:
                lease.released = True
                with contextlib.suppress(OSError):
                    self.holder_path.unlink()
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def holder(self) -> dict[str, Any] | None:
        """Who holds the lock now, or None when it is free."""
        fd = self._try_flock()
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
            return None
        try:
            data = json.loads(self.holder_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"owner": "unknown"}
        return data if isinstance(data, dict) else {"owner": "unknown"}
