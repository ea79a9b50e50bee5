"""Kernel lock on Redis: token-owned, TTL renewed by a daemon thread, fenced.

Keys (``<id>`` = :func:`kernel_id` of the kernel's realpath):

* ``subcon:lock:<id>`` — a hash ``{token, fence, owner, since, host, pid}`` with a PX TTL;
* ``subcon:lock:<id>:fence`` — a counter INCR'd at every acquisition, never reset.

Every state change runs as one Lua script, so "is it mine?" and "change it" are atomic.
``ensure()`` re-checks token *and* fence against the counter: a holder whose lease
expired and was taken over sees a larger fence and raises ``LockLost``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis

from shared.errors import LockError, LockHeld, LockLost
from shared.timestamps import iso

_ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return false end
local fence = redis.call('incr', KEYS[2])
redis.call('hset', KEYS[1], 'token', ARGV[1], 'fence', fence, 'owner', ARGV[2],
           'since', ARGV[3], 'host', ARGV[5], 'pid', ARGV[6])
redis.call('pexpire', KEYS[1], ARGV[4])
return fence
"""

_RENEW = """
if redis.call('hget', KEYS[1], 'token') ~= ARGV[1] then return 0 end
if tostring(redis.call('get', KEYS[2])) ~= ARGV[2] then return 0 end
redis.call('pexpire', KEYS[1], ARGV[3])
return 1
"""

_ENSURE = """
if redis.call('hget', KEYS[1], 'token') ~= ARGV[1] then return 0 end
if redis.call('hget', KEYS[1], 'fence') ~= ARGV[2] then return 0 end
if tostring(redis.call('get', KEYS[2])) ~= ARGV[2] then return 0 end
return 1
"""

_RELEASE = """
if redis.call('hget', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('del', KEYS[1])
return 1
"""

_POLL_SECONDS = 0.05


def kernel_id(kernel: Path) -> str:
    """A stable short id for a kernel: sha256 of its realpath, first 16 hex digits."""
    real = os.path.realpath(kernel)
    return hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]


class RedisLease:
    """A held Redis kernel lock. ``ensure()`` costs one round trip."""

    def __init__(self, lock: RedisKernelLock, token: str, fence: int) -> None:
        self._lock = lock
        self._token = token
        self._fence = fence
        self._lost = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def fence(self) -> int:
        return self._fence

    @property
    def token(self) -> str:
        return self._token

    def ensure(self) -> None:
        """Raise ``LockLost`` unless this lease still owns the lock with the current fence."""
        if self._lost.is_set():
            raise LockLost(f"kernel lock lease {self._fence} was lost (renewal failed)")
        try:
            ok = self._lock._ensure(self._token, self._fence)
        except redis.RedisError as exc:
            raise LockLost(f"kernel lock lease {self._fence} cannot be verified: {exc}") from exc
        if not ok:
            self._lost.set()
            raise LockLost(f"kernel lock lease {self._fence} expired or was taken over")

    def start_renewal(self) -> None:
        self._thread = threading.Thread(
            target=self._renew_loop, name=f"subcon-lock-renew-{self._fence}", daemon=True
        )
        self._thread.start()

    def stop_renewal(self) -> None:
        """Stop renewing (release does it; tests use it to simulate a dead holder)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _renew_loop(self) -> None:
        interval = max(self._lock.ttl / 3.0, 0.01)
        while not self._stop.wait(interval):
            try:
                if not self._lock._renew(self._token, self._fence):
                    self._lost.set()
                    return
            except redis.RedisError:
                # A Redis outage shorter than the TTL is survivable: keep trying;
                # ensure() reports the loss if the key is gone by then.
                continue


class RedisKernelLock:
    """The kernel lock for distributed mode (see module docstring)."""

    def __init__(
        self,
        client: redis.Redis,
        kernel_id: str,
        ttl: float = 60.0,
        default_wait: float = 30.0,
    ) -> None:
        self.client = client
        self.kernel_id = kernel_id
        self.ttl = ttl
        self.default_wait = default_wait
        self.key = f"subcon:lock:{kernel_id}"
        self.fence_key = f"{self.key}:fence"
        self._acquire_script = client.register_script(_ACQUIRE)
        self._renew_script = client.register_script(_RENEW)
        self._ensure_script = client.register_script(_ENSURE)
        self._release_script = client.register_script(_RELEASE)

    @property
    def _ttl_ms(self) -> int:
        return max(int(self.ttl * 1000), 1)

    def try_acquire(self, owner: str) -> RedisLease | None:
        """One acquisition attempt; the lease is not renewed until ``start_renewal``."""
        token = uuid.uuid4().hex
        try:
            fence = self._acquire_script(
                keys=[self.key, self.fence_key],
                args=[token, owner, iso(), self._ttl_ms, socket.gethostname(), os.getpid()],
            )
        except redis.RedisError as exc:
            raise LockError(f"cannot reach Redis for the kernel lock: {exc}") from exc
        if fence is None:
            return None
        return RedisLease(self, token, int(fence))

    @contextmanager
    def hold(self, owner: str, wait: float | None = None) -> Iterator[RedisLease]:
        """Acquire (waiting up to ``wait`` s; 0 = one attempt), renew while held, release.

        Raises:
            LockHeld: the lock stayed held by someone else for the whole wait.
            LockError: Redis is unreachable.
        """
        budget = self.default_wait if wait is None else wait
        deadline = time.monotonic() + budget
        while True:
            lease = self.try_acquire(owner)
            if lease is not None:
                break
            if time.monotonic() >= deadline:
                raise LockHeld(f"kernel lock is held: {self.holder()}")
            time.sleep(min(_POLL_SECONDS, max(deadline - time.monotonic(), 0.0)))
        lease.start_renewal()
        try:
            yield lease
        finally:
            lease.stop_renewal()
            # If Redis is gone the TTL frees the key; a later fence outranks this lease.
            with contextlib.suppress(redis.RedisError):
                self._release_script(keys=[self.key], args=[lease.token])

    def holder(self) -> dict[str, Any] | None:
        """The current holder's ``{owner, token, fence, since, host, pid}`` or None."""
        raw = self.client.hgetall(self.key)
        if not raw:
            return None
        info: dict[str, Any] = {_text(k): _text(v) for k, v in raw.items()}
        for key in ("fence", "pid"):
            if key in info and str(info[key]).isdigit():
                info[key] = int(info[key])
        return info

    def _renew(self, token: str, fence: int) -> bool:
        return bool(
            self._renew_script(keys=[self.key, self.fence_key], args=[token, fence, self._ttl_ms])
        )

    def _ensure(self, token: str, fence: int) -> bool:
        return bool(self._ensure_script(keys=[self.key, self.fence_key], args=[token, fence]))


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
