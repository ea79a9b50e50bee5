"""Building and dispatching the weaver pass and committer runs.

A weaver pass is ``chord(scan per slice) -> crystallize -> update -> settle``; settle
then requests a commit. ``subcon scan`` runs the chord alone (scan + crystallize). Each
task carries soft and hard time limits derived from its partition's ``max_duration_ms``
and, for tick-started runs, an idempotent error callback that records the outcome.
"""

from __future__ import annotations

from typing import Any

from celery import Celery, chain, chord, signature
from celery.canvas import Signature
from celery.result import AsyncResult

from shared.cadence.commit_marker import mark_requested
from shared.cadence.runs import RunContext
from shared.cadence.selection import time_limits
from shared.constants import COMMITTER, WEAVER
from shared.kernel.keys import redis_client
from shared.kernel.paths import KernelPaths
from shared.partitions.discovery import read_partition
from workers import routing
from workers.config import VISIBILITY_TIMEOUT_S
from workers.failures import describe
from workers.kernel_target import KernelTarget, default_target

DEFAULT_MAX_DURATION_MS = {WEAVER: 2_100_000, COMMITTER: 1_800_000}


def partition_limits(paths: KernelPaths, partition: str) -> tuple[float, float]:
    """(soft, hard) limits from the partition's front matter as it reads right now."""
    info = read_partition(paths, partition)
    if info is not None and info.error is None:
        return time_limits(info.schedule.max_duration_ms)
    return time_limits(DEFAULT_MAX_DURATION_MS.get(partition, 60_000))


def _sig(
    app: Celery,
    name: str,
    args: tuple[Any, ...],
    limits: tuple[float, float],
    run: RunContext | None,
    target: KernelTarget,
) -> Signature:
    soft, hard = limits
    sig = signature(
        name, args=args, kwargs=target.kwargs, app=app, soft_time_limit=soft, time_limit=hard
    )
    if run is not None:
        # Not immutable: Celery prepends the failed task's id (an "old-style" errback,
        # sent as a task to the kernel queue, so a scan host never writes the kernel).
        failed = signature(routing.RUN_FAILED, args=(run.to_json(),), kwargs=target.kwargs, app=app)
        sig.link_error(failed)
    return sig


def weaver_canvas(
    app: Celery,
    plan_json: dict[str, Any],
    limits: tuple[float, float],
    run: RunContext | None = None,
    *,
    scan_only: bool = False,
    commit: bool = True,
    target: KernelTarget | None = None,
) -> Signature:
    """The pass as one canvas; its result is settle's report (crystallize's if scan_only)."""
    to = target or default_target(app)
    run_json = run.to_json() if run is not None else None
    scans = [
        _sig(app, routing.SCAN, (plan_json, slice_json, run_json), limits, run, to)
        for slice_json in plan_json.get("slices") or []
    ]
    if scans:
        body = _sig(app, routing.CRYSTALLIZE, (plan_json, run_json), limits, run, to)
        head: Signature = chord(scans, body, app=app)
    else:
        # An empty chord header would call its body without the results argument.
        head = _sig(app, routing.CRYSTALLIZE, ([], plan_json, run_json), limits, run, to)
    if scan_only:
        return head
    return chain(
        head,
        _sig(app, routing.UPDATE, (plan_json, run_json), limits, run, to),
        _sig(app, routing.SETTLE, (plan_json, run_json, commit), limits, run, to),
        app=app,
    )


def plan_weaver(
    app: Celery,
    *,
    interval: str | None = None,
    directed: str | None = None,
    target: KernelTarget | None = None,
) -> dict[str, Any]:
    """Plan a pass (read-only) and return the plan as JSON.

    Raises:
        InputError: the interval or the directed item is unusable.
    """
    from shared.weaver.pipeline import plan_pass

    to = target or default_target(app)
    plan_json: dict[str, Any] = plan_pass(
        to.paths, to.settings, interval=interval, directed=directed
    ).to_json()
    return plan_json


def send_weaver(
    app: Celery,
    plan_json: dict[str, Any],
    *,
    run: RunContext | None = None,
    scan_only: bool = False,
    commit: bool = True,
    target: KernelTarget | None = None,
) -> AsyncResult:
    """Send a planned pass. Eager apps run it right away."""
    to = target or default_target(app)
    limits = run.limits if run is not None else partition_limits(to.paths, WEAVER)
    canvas = weaver_canvas(
        app, plan_json, limits, run, scan_only=scan_only, commit=commit, target=to
    )
    return canvas.apply_async()


def dispatch_weaver(
    app: Celery,
    *,
    interval: str | None = None,
    directed: str | None = None,
    run: RunContext | None = None,
    scan_only: bool = False,
    commit: bool = True,
    target: KernelTarget | None = None,
) -> AsyncResult:
    """Plan a pass here and send its canvas (see :func:`plan_weaver`, :func:`send_weaver`).

    Raises:
        InputError: the interval or the directed item is unusable.
    """
    plan_json = plan_weaver(app, interval=interval, directed=directed, target=target)
    return send_weaver(app, plan_json, run=run, scan_only=scan_only, commit=commit, target=target)


def dispatch_commit(
    app: Celery, run: RunContext | None = None, target: KernelTarget | None = None
) -> AsyncResult:
    """Send one committer run (always; tick-started runs never collapse)."""
    to = target or default_target(app)
    limits = run.limits if run is not None else partition_limits(to.paths, COMMITTER)
    args = (run.to_json(),) if run is not None else ()
    return _sig(app, routing.COMMIT, args, limits, run, to).apply_async()


def request_commit(app: Celery, target: KernelTarget | None = None) -> dict[str, Any]:
    """Ask for a commit after a weaver pass; requests made while one is queued collapse.

    The queued-commit marker (:mod:`shared.cadence.commit_marker`) does the
    collapsing. Returns ``{"task_id"}``,
    ``{"collapsed": true}`` when it joined a queued request, or (eagerly, where the
    commit runs right here) ``{"task_id"}`` with :func:`commit_facts` (``outcome``,
    ``commit``, ``short``, ``text``...) or ``{"error"}``: a failed commit
    never fails the weaver pass that asked for it.
    """
    to = target or default_target(app)
    url = to.settings.effective_redis_url
    eager = bool(app.conf.task_always_eager)
    if url and not eager and not mark_requested(redis_client(url), to.paths, VISIBILITY_TIMEOUT_S):
        return {"collapsed": True}
    if not eager:
        return {"task_id": str(dispatch_commit(app, target=to).id)}
    try:
        result = dispatch_commit(app, target=to)
        report = result.get(disable_sync_subtasks=False)
    except Exception as exc:
        return {"error": describe(exc)}
    return {"task_id": str(result.id), **commit_facts(report)}


def commit_facts(report: dict[str, Any]) -> dict[str, Any]:
    """What a weaver or tick report needs to say about a committer run it caused."""
    keys = ("text", "outcome", "commit", "short", "summary", "files", "skipped", "why")
    facts = {k: report.get(k) for k in keys}
    facts["held_back"] = sorted({str(h.get("file")) for h in report.get("holds") or []})
    return facts
