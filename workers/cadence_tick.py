"""The body of one cadence tick, shared by the tick task and embedded mode.

Order (docs/formats.md §7.1): advance the persistent tick number; under the
kernel lock run the memory check, re-read partitions, select and record the starts;
release the lock; dispatch each picked run (weaver pass or committer run).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from celery import Celery

from shared.cadence.runs import RunContext, TickPlan, begin_tick, finish_run
from shared.cadence.ticks import claim_tick_slot, open_tick_store
from shared.constants import COMMITTER, WEAVER
from shared.errors import LockHeld
from shared.importing.run import import_configured
from shared.kernel.lock.base import KernelLock
from shared.settings import Settings
from shared.timestamps import iso
from workers.canvas import dispatch_commit, dispatch_weaver
from workers.failures import describe, outcome_of
from workers.kernel_target import KernelTarget, default_target

log = logging.getLogger(__name__)


def _record_failure(
    lock: KernelLock, owner: str, target: KernelTarget, run: RunContext, exc: BaseException
) -> None:
    try:
        with lock.hold(owner):
            finish_run(target.paths, target.settings, run, outcome_of(exc))
    except Exception:  # the error callback or the next tick records it instead
        log.exception("kernel %s: could not record the failure of %s", target.name, run.partition)


def dispatch_runs(
    app: Celery, plan: TickPlan, lock: KernelLock, owner: str, target: KernelTarget | None = None
) -> list[dict[str, Any]]:
    """Send every run of ``plan``; an eager app runs them here and returns their reports.

    A run that fails to start (bad interval, broker down) or, eagerly, fails outright is
    recorded as ``error``/``timeout`` at once; the others finish in their last task.
    """
    to = target or default_target(app)
    eager = bool(app.conf.task_always_eager)
    out: list[dict[str, Any]] = []
    for run in plan.runs:
        entry: dict[str, Any] = {"partition": run.partition}
        try:
            if run.partition == WEAVER:
                result = dispatch_weaver(app, run=run, target=to)
            elif run.partition == COMMITTER:
                result = dispatch_commit(app, run=run, target=to)
            else:  # selection only picks implemented partitions
                continue
            entry["task_id"] = str(result.id)
            if eager:
                # eager: already computed; reading it is not a synchronous subtask wait
                entry["report"] = result.get(disable_sync_subtasks=False)
        except Exception as exc:
            log.warning("kernel %s: run of %s failed: %s", to.name, run.partition, exc)
            entry["error"] = describe(exc)
            _record_failure(lock, owner, to, run, exc)
        out.append(entry)
    return out


def run_tick_body(
    app: Celery, lock: KernelLock, owner: str, target: KernelTarget | None = None
) -> dict[str, Any]:
    """One tick; returns its JSON report (``tick``, ``runs``, ``skipped``, ``dispatched``...).

    Raises:
        ConfigError: the kernel dir or the runtime dir does not exist (a tick never
            makes a runtime up: the spine, inboxes and run states live there).
        InputError: the memory check met unusable input.
    """
    to = target or default_target(app)
    settings, paths = to.settings, to.paths
    started_at = iso()
    paths.require_kernel()
    paths.require_runtime()
    tick = open_tick_store(settings, paths).advance()
    # New transcript records first, so the gap check of this very tick sees them.
    imported = import_configured(paths, settings)
    try:
        with lock.hold(owner, wait=settings.lock_wait_seconds) as lease:
            plan = begin_tick(paths, settings, tick, lease=lease)
    except LockHeld as exc:
        # Like the original's in-flight guard: the number advances, the tick does nothing.
        return {"tick": tick, "import": imported, "skipped": f"kernel lock held: {exc}"}
    report = plan.to_json()
    report["kernel"] = to.name
    # When the tick began on its worker: a tick's start delay is what fairness is about.
    report["started_at"] = started_at
    if imported is not None:
        report["import"] = imported
    report["dispatched"] = dispatch_runs(app, plan, lock, owner, to)
    return report


def fan_out(app: Celery) -> list[str]:
    """Send a tick to every kernel of the registry; return their names in send order.

    The order turns by one kernel each period, so no kernel's tick always waits behind
    the others' in the kernel queue. Each tick expires after one period, as beat's own do:
    a tick that could not start within its period is replaced by the next one.
    """
    from shared.kernels.registry import open_registry
    from workers import routing
    from workers.kernel_target import KWARG

    settings: Settings = app.subcon_settings
    names = [entry.name for entry in open_registry(settings).list()]
    if not names:
        return []
    period = float(settings.tick_seconds)
    turn = int(time.time() // period) % len(names)
    order = names[turn:] + names[:turn]
    for name in order:
        app.tasks[routing.TICK].apply_async(kwargs={KWARG: name}, expires=period)
    return order


def run_tick(
    app: Celery,
    lock: KernelLock,
    owner: str,
    target: KernelTarget,
    client: redis.Redis | None,
    *,
    manual: bool,
    fanout: bool,
) -> dict[str, Any]:
    """What the tick task does: beat's tick (``fanout``) first sends a tick to every
    registered kernel; a tick that is not the operator's (``manual``) is dropped when
    another of the same kernel ran within half a period; then :func:`run_tick_body`.

    Raises:
        ConfigError, InputError: as :func:`run_tick_body`; UnknownKernel and
            BrokerUnreachable from the registry when fanning out.
    """
    sent = fan_out(app) if fanout else None
    if sent and not target.paths.kernel.is_dir():
        # A cluster of registered kernels only: the settings name no kernel.
        return {"tick": None, "fanned_out": sent, "skipped": "no kernel dir"}
    # A manual tick (`subcon tick`) is an operator's request: it always runs.
    guarded = not manual and not app.conf.task_always_eager
    slot = target.paths, target.settings.tick_seconds
    report: dict[str, Any]
    if guarded and client is not None and not claim_tick_slot(client, *slot):
        report = {"tick": None, "skipped": "duplicate tick within half a period"}
    else:
        report = run_tick_body(app, lock, owner, target)
        report["manual"] = manual
    if sent is not None:
        report["fanned_out"] = sent  # the other kernels' ticks were sent all the same
    return report
