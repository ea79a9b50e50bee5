"""The kernel lock: the stand-in for git's ``index.lock`` (see ``shared.lock.base``)."""

from shared.lock.base import KernelLock, Lease

__all__ = ["KernelLock", "Lease"]
