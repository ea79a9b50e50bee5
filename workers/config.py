"""Celery configuration derived from :class:`shared.settings.Settings`.

No side effects: the app factory applies the mapping :func:`celery_config` returns.
"""

from __future__ import annotations

from typing import Any

from shared.cadence.selection import MAX_HARD_LIMIT_S
from shared.constants import QUEUE_KERNEL
from shared.settings import Settings
from workers import routing

# Redis redelivers an unacked message after the visibility timeout; with acks_late a
# task still running past it would run twice, so it must exceed the longest hard limit
# (Celery's Redis caveats) by a wide margin.
VISIBILITY_TIMEOUT_S = int(2 * MAX_HARD_LIMIT_S + 600)
TICK_SCHEDULE_NAME = "subcon-cadence-tick"


def _common() -> dict[str, Any]:
    """The settings of every mode."""
    return {
        # JSON only: a pickled message is refused with ContentDisallowed.
        "task_serializer": "json",
        "result_serializer": "json",
        "event_serializer": "json",
        "accept_content": ["json"],
        "result_accept_content": ["json"],
        # Tasks are idempotent, so a message lost with its worker is safe to redeliver.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        # Flower: events from workers and from senders, STARTED states, named results.
        "task_track_started": True,
        "task_send_sent_event": True,
        "worker_send_task_events": True,
        "result_extended": True,
        "task_routes": routing.task_routes(),
        "task_default_queue": QUEUE_KERNEL,
        "result_expires": 24 * 3600,
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
        "enable_utc": True,
        "timezone": "UTC",
    }


def _redis(settings: Settings, kernel_id: str) -> dict[str, Any]:
    """The broker, result backend and RedBeat settings of a Redis deployment."""
    transport: dict[str, Any] = {"visibility_timeout": VISIBILITY_TIMEOUT_S}
    if settings.visibility_timeout_seconds is not None:
        # Fault tests: redeliver a dead worker's messages within seconds (kombu sweeps
        # for expired unacked messages every interval x throttle seconds).
        transport.update(
            visibility_timeout=settings.visibility_timeout_seconds,
            unacked_restore_interval=1,
            unacked_restore_throttle=1,
        )
    return {
        "broker_url": settings.broker_url,
        "result_backend": settings.effective_result_backend,
        "broker_transport_options": transport,
        "result_backend_transport_options": dict(transport),
        "beat_schedule": {
            TICK_SCHEDULE_NAME: {
                "task": routing.TICK,
                "schedule": float(settings.tick_seconds),
                # Beat's tick also sends one to every kernel of the registry.
                "kwargs": {"fanout": True},
                "options": {"queue": QUEUE_KERNEL, "expires": float(settings.tick_seconds)},
            }
        },
        "beat_scheduler": "redbeat.RedBeatScheduler",
        "beat_max_loop_interval": min(5.0, float(settings.tick_seconds)),
        "redbeat_redis_url": settings.effective_redis_url,
        "redbeat_redis_options": {},
        "redbeat_key_prefix": f"subcon:{kernel_id}:redbeat",
        # A second beat takes over only when the first stopped renewing for this long;
        # generous, so a beat stalled by a loaded host is not mistaken for a dead one.
        "redbeat_lock_timeout": 60,
    }


def celery_config(
    settings: Settings, kernel_id: str, *, eager: bool | None = None
) -> dict[str, Any]:
    """The Celery settings for ``settings``.

    With no broker configured (embedded mode) the app is eager: every task runs
    in-process, exceptions propagate, results live in process memory. Otherwise the
    broker is Redis and the result backend defaults to the broker (chords need it).
    ``kernel_id`` namespaces RedBeat's keys so two kernels can share one Redis;
    ``eager`` forces (or forbids) the in-process mode regardless of the broker.
    """
    conf = _common()
    if settings.embedded if eager is None else eager:
        conf.update(
            broker_url="memory://",
            result_backend="cache+memory://",
            task_always_eager=True,
            task_eager_propagates=True,
            task_store_eager_result=True,
        )
    else:
        conf.update(_redis(settings, kernel_id))
    return conf
