"""Redis key names (one namespace per kernel) and the per-process Redis client."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import redis

from shared.kernel.lock.redis_lock import kernel_id as lock_kernel_id
from shared.kernel.paths import KernelPaths

# The parts after ``subcon:<kernel id>:`` of the keys subcon itself keeps.
TICK = "tick"
TICK_SLOT = "tick-slot"
COMMIT_PENDING = "commit-pending"
# The kernel registry (shared/kernels/registry.py): one hash, name -> entry JSON, for
# every kernel the Redis serves (not under one kernel's namespace).
KERNEL_REGISTRY = "subcon:kernels"

_CLIENTS: dict[tuple[int, str], redis.Redis] = {}


def kernel_id(paths: KernelPaths) -> str:
    """The kernel lock's id of the kernel dir, so several kernels can share one Redis."""
    return lock_kernel_id(paths.kernel)


def key(paths: KernelPaths, *parts: str) -> str:
    """``subcon:<kernel id>:<part>:...``."""
    return ":".join(("subcon", kernel_id(paths), *parts))


def shown_url(url: str) -> str:
    """``url`` with its password as ``***`` (for messages and ``status``)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def redis_client(url: str) -> redis.Redis:
    """One client per process and URL; a forked worker child builds its own."""
    slot = (os.getpid(), url)
    client = _CLIENTS.get(slot)
    if client is None:
        client = redis.Redis.from_url(url, socket_timeout=30, socket_connect_timeout=10)
        _CLIENTS[slot] = client
    return client


def client_for(url: str | None) -> redis.Redis | None:
    """The process's client for ``url``; None when no Redis is configured."""
    return redis_client(url) if url else None
