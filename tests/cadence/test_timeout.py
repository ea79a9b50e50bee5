"""A run past its partition's time budget is recorded as ``timeout`` and backs off
(docs/formats.md §7.4)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from celery.exceptions import ChordError, SoftTimeLimitExceeded, TimeLimitExceeded

from shared.cadence.runs import RunContext, TickPlan
from shared.errors import InputError, PassTimeout, StageFailed
from shared.kernel.lock.factory import open_kernel_lock
from shared.kernel.paths import KernelPaths
from shared.partitions.playlist import read_playlist, rebuild, write_playlist
from shared.partitions.state import read_state, write_state
from shared.settings import Settings
from shared.timestamps import parse_iso
from workers.app import make_app
from workers.cadence_tick import dispatch_runs
from workers.failures import outcome_of


@pytest.mark.parametrize(
    ("exc", "outcome"),
    [
        (SoftTimeLimitExceeded(), "timeout"),
        (TimeLimitExceeded(60.0), "timeout"),
        (PassTimeout("late"), "timeout"),
        (ChordError("Dependency abc raised SoftTimeLimitExceeded('x')"), "timeout"),
        (StageFailed.wrap(InputError("events.jsonl", 3, "bad")), "error"),
        (None, "error"),
    ],
)
def test_outcome_classification(exc: BaseException | None, outcome: str) -> None:
    assert outcome_of(exc) == outcome


def expired_run(paths: KernelPaths, tick: int) -> RunContext:
    """A weaver run started by tick ``tick`` whose budget is already spent."""
    prev = read_state(paths, "memory-weaver")
    started = datetime.now(UTC)
    if prev.last_finished_at:
        # Timestamps keep milliseconds: a fast machine can start the next run within the
        # millisecond the last one finished in, which would read as an already-finished run.
        started = max(started, parse_iso(prev.last_finished_at) + timedelta(milliseconds=1))
    run = replace(RunContext.start("memory-weaver", tick, 1000, started), deadline=0.0)
    write_playlist(paths, rebuild(read_playlist(paths), ["memory-weaver"]))
    write_state(
        paths,
        "memory-weaver",
        replace(prev, last_started_at=run.started_at, last_run_tick=tick),
    )
    return run


def test_expired_run_is_recorded_as_timeout_and_backs_off(demo: KernelPaths) -> None:
    settings = Settings(kernel_dir=demo.kernel, runtime_dir=demo.runtime, tick_seconds=60)
    app = make_app(settings)
    lock = open_kernel_lock(settings, demo)
    for tick in (1, 2, 3):
        plan = TickPlan(tick=tick, runs=(expired_run(demo, tick),))
        (entry,) = dispatch_runs(app, plan, lock, "test")
        assert entry["error"].startswith("PassTimeout")
        state = read_state(demo, "memory-weaver")
        assert (state.last_result, state.consecutive_failures) == ("timeout", tick)
        assert state.last_run_tick == tick
    # timeout: no backoff while failures <= 2; the third waits min(3 x 60 s, 2 h)
    assert state.last_finished_at is not None and state.backoff_until is not None
    delay = parse_iso(state.backoff_until) - parse_iso(state.last_finished_at)
    assert delay == timedelta(seconds=180)
    history = (read_playlist(demo) or "").split("## History", 1)[1]
    assert history.count("executed=memory-weaver") == 3
