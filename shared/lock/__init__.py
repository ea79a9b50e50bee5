"""The kernel lock: the stand-in for git's ``index.lock`` (see ``shared.lock.base``)."""

from shared.lock.base import KernelLock, Lease
from shared.lock.factory import open_kernel_lock

__all__ = ["KernelLock", "Lease", "open_kernel_lock"]
