"""Redis key names for the Celery layer: they live in :mod:`shared.kernel.files.keys`."""

from shared.kernel.keys import kernel_id, key, redis_client

__all__ = ["kernel_id", "key", "redis_client"]
