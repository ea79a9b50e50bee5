"""The kernel lock: the stand-in for git's ``index.lock`` (see ``shared.kernel.lock.base``)."""

from shared.kernel.lock.base import KernelLock, Lease
from shared.kernel.lock.factory import open_kernel_lock

__all__ = ["KernelLock", "Lease", "open_kernel_lock"]
