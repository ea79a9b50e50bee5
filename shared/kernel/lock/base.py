"""The kernel lock protocol shared by the Redis and the file implementation.

Every kernel mutation happens inside ``with lock.hold(owner) as lease:`` and calls
``lease.ensure()`` right before each write, so a holder whose lease expired (or was
taken over: a larger fence exists) stops before it mutates anything.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol


class Lease(Protocol):
    """Proof of holding the kernel lock. ``fence`` grows with every acquisition."""

    @property
    def fence(self) -> int: ...

    @property
    def token(self) -> str: ...

    def ensure(self) -> None:
        """Raise ``LockLost`` unless this lease still owns the lock."""


class KernelLock(Protocol):
    """One lock per kernel. ``hold`` raises ``LockHeld`` when ``wait`` runs out."""

    def hold(self, owner: str, wait: float | None = None) -> AbstractContextManager[Lease]:
        """Acquire (waiting up to ``wait`` seconds; 0 = do not wait; None = settings
        default), renew the TTL while the block runs, release on exit."""

    def holder(self) -> dict[str, Any] | None:
        """Who holds the lock now (owner, token, fence, since), or None."""
