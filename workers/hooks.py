"""Cross-cutting behaviour as Celery signal handlers: timing, structured logs, boot checks,
what Flower shows.

Connected once per process (``dispatch_uid``); a failing handler is logged and never
breaks a task. Lock release needs no hook: every lock is held by a ``with`` block, and
a killed child's lease simply expires (its TTL stops being renewed).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import signals

from shared.constants import QUEUE_SCAN
from workers import monitoring, progress

log = logging.getLogger("subcon.tasks")

_started: dict[str, float] = {}
_connected = False


def _task_prerun(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    if task_id:
        _started[task_id] = time.monotonic()


def _task_postrun(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    begun = _started.pop(task_id or "", None)
    if begun is None:
        return
    log.info(
        "task %s id=%s state=%s duration_ms=%d",
        getattr(task, "name", "?"),
        task_id,
        state,
        int((time.monotonic() - begun) * 1000),
    )


def _task_failure(
    task_id: str | None = None, exception: BaseException | None = None, sender: Any = None, **_: Any
) -> None:
    log.warning(
        "task %s id=%s failed: %s: %s",
        getattr(sender, "name", "?"),
        task_id,
        type(exception).__name__,
        exception,
    )


def _worker_init(**_: Any) -> None:
    # Before the pool forks: the children inherit both. Flower then shows results as
    # JSON and scans' PROGRESS state (see workers.monitoring).
    monitoring.install()
    progress.subscribe(monitoring.send_progress)


def _worker_ready(sender: Any = None, **_: Any) -> None:
    # Fail loudly at boot when the roots are missing, instead of at the first task.
    app = getattr(sender, "app", None)
    paths = getattr(app, "subcon_paths", None)
    if paths is None:
        return
    roots = [(paths.kernel, "kernel"), (paths.runtime, "runtime")]
    # A scan-only worker (a scan host) reads var/events alone: there is no kernel there.
    amqp = getattr(app, "amqp", None)
    queues = set(amqp.queues.consume_from or ()) if amqp is not None else set()
    if queues and queues <= {QUEUE_SCAN}:
        roots = [(paths.runtime, "runtime")]
        if paths.runtime.is_dir() and not paths.events_dir.is_dir():
            log.error("subcon scan worker: %s does not exist", paths.events_dir)
    for root, what in roots:
        if not root.is_dir():
            log.error(
                "subcon worker: %s dir %s does not exist (set SUBCON_%s_DIR)",
                what,
                root,
                what.upper(),
            )


def connect() -> None:
    """Connect the handlers (idempotent)."""
    global _connected
    if _connected:
        return
    signals.task_prerun.connect(_task_prerun, weak=False, dispatch_uid="subcon-prerun")
    signals.task_postrun.connect(_task_postrun, weak=False, dispatch_uid="subcon-postrun")
    signals.task_failure.connect(_task_failure, weak=False, dispatch_uid="subcon-failure")
    signals.worker_init.connect(_worker_init, weak=False, dispatch_uid="subcon-init")
    signals.worker_ready.connect(_worker_ready, weak=False, dispatch_uid="subcon-ready")
    _connected = True
