"""Redis key names for the Celery layer: they live in :mod:`shared.coordination.keys`."""

from shared.coordination.keys import kernel_id, key, redis_client

__all__ = ["kernel_id", "key", "redis_client"]
