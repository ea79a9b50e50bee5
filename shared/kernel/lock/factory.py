"""Pick the kernel lock implementation from the settings."""

from __future__ import annotations

from shared.kernel.lock.base import KernelLock
from shared.kernel.paths import KernelPaths
from shared.settings import Settings


def open_kernel_lock(settings: Settings, paths: KernelPaths) -> KernelLock:
    """Redis lock when ``settings.effective_redis_url`` is set, else the file lock.

    The Redis lock is keyed by the kernel's realpath, so every worker that points at
    the same kernel (by any path) contends for the same lock.
    """
    url = settings.effective_redis_url
    if url:
        import redis

        from shared.kernel.lock.redis_lock import RedisKernelLock, kernel_id

        return RedisKernelLock(
            redis.Redis.from_url(url),
            kernel_id(paths.kernel),
            ttl=settings.lock_ttl_seconds,
            default_wait=settings.lock_wait_seconds,
        )
    from shared.kernel.lock.file_lock import FileKernelLock

    return FileKernelLock(paths.file_lock, default_wait=settings.lock_wait_seconds)
