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
from shared.kernel.paths import KernelPaths
from shared.kernels.registry import DEFAULT_NAME
from workers import monitoring, progress
from workers.kernel_target import KWARG

log = logging.getLogger("subcon.tasks")

_started: dict[str, float] = {}
_connected = False


def _task_prerun(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    if task_id:
        _started[task_id] = time.monotonic()


def _kernel_of(kwargs: Any) -> str:
    """The kernel a task message names (``kernel=``; none: the settings' own)."""
    name = kwargs.get(KWARG) if isinstance(kwargs, dict) else None
    return str(name) if name else DEFAULT_NAME


def _task_postrun(
    task_id: str | None = None,
    task: Any = None,
    state: str | None = None,
    kwargs: Any = None,
    **_: Any,
) -> None:
    begun = _started.pop(task_id or "", None)
    if begun is None:
        return
    log.info(
        "task %s id=%s kernel=%s state=%s duration_ms=%d",
        getattr(task, "name", "?"),
        task_id,
        _kernel_of(kwargs),
        state,
        int((time.monotonic() - begun) * 1000),
    )


def _task_failure(
    task_id: str | None = None,
    exception: BaseException | None = None,
    sender: Any = None,
    kwargs: Any = None,
    **_: Any,
) -> None:
    # One cluster serves many kernels: a failure line names the kernel it belongs to.
    log.warning(
        "task %s id=%s kernel=%s failed: %s: %s",
        getattr(sender, "name", "?"),
        task_id,
        _kernel_of(kwargs),
        type(exception).__name__,
        exception,
    )


# A worker that fails its boot checks exits with this status (bad configuration).
BOOT_FAILED_EXIT = 2


def boot_problems(paths: KernelPaths, queues: set[str]) -> list[str]:
    """What keeps a worker consuming ``queues`` from serving ``paths``, one line each.

    A scan-only worker (a scan host) reads ``var/events`` alone: it needs no kernel.
    """
    scan_only = bool(queues) and queues <= {QUEUE_SCAN}
    roots = [(paths.runtime, "runtime")]
    if not scan_only:
        roots.insert(0, (paths.kernel, "kernel"))
    return [
        f"subcon worker: {what} dir {root} does not exist (set SUBCON_{what.upper()}_DIR)"
        for root, what in roots
        if not root.is_dir()
    ]


def _worker_init(sender: Any = None, **_: Any) -> None:
    # Sent once the worker knows its queues, before the pool forks: fail at boot when
    # a root is missing, instead of at the first task.
    app = getattr(sender, "app", None)
    paths = getattr(app, "subcon_paths", None)
    if app is not None and paths is not None:
        problems = boot_problems(paths, set(app.amqp.queues.consume_from or ()))
        for problem in problems:
            log.critical(problem)
        if problems:
            # SystemExit, not an exception: Celery logs and ignores what a handler raises.
            raise SystemExit(BOOT_FAILED_EXIT)
    # The children inherit both. Flower then shows results as JSON and scans'
    # PROGRESS state (see workers.monitoring).
    monitoring.install()
    progress.subscribe(monitoring.send_progress)


def _worker_ready(sender: Any = None, **_: Any) -> None:
    # A scan host whose runtime has no var/events yet may get one later (the agent
    # writes it): said, not fatal.
    app = getattr(sender, "app", None)
    paths = getattr(app, "subcon_paths", None)
    if app is None or paths is None:
        return
    queues = set(app.amqp.queues.consume_from or ())
    scan_only = bool(queues) and queues <= {QUEUE_SCAN}
    if scan_only and paths.runtime.is_dir() and not paths.events_dir.is_dir():
        log.error("subcon scan worker: %s does not exist", paths.events_dir)


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
