"""Cadence tick selection (docs/formats.md §7.3) as pure functions over text and records.

The impure tick (read partitions, states and the playlist; write them back; dispatch
work) lives in ``shared.cadence.runs``. Everything here takes values and returns values, so
the scheduling rules are tested with tables, no files and no clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Final

from shared.partitions import playlist as pl
from shared.timestamps import iso, parse_iso

# Hard limits are clamped so that the broker's visibility timeout (a fixed setting)
# can always exceed twice the longest one.
MAX_HARD_LIMIT_S: Final = 4 * 3600.0
MIN_HARD_LIMIT_S: Final = 1.0

SKIP_MISSING: Final = "missing"
SKIP_DISABLED: Final = "disabled"
SKIP_UNIMPLEMENTED: Final = "unimplemented"


def time_limits(max_duration_ms: int | float) -> tuple[float, float]:
    """(soft, hard) Celery time limits in seconds for a partition's ``max_duration_ms``.

    The hard limit is ``max(1, max_duration_ms)`` ms, as the original times a run (clamped to
    ``[MIN_HARD_LIMIT_S, MAX_HARD_LIMIT_S]``); the soft limit fires slightly earlier
    (10%, at most 30 s) so the task can stop cleanly before it is killed.
    """
    hard = min(max(MIN_HARD_LIMIT_S, max(1.0, float(max_duration_ms)) / 1000.0), MAX_HARD_LIMIT_S)
    soft = max(hard * 0.9, hard - 30.0)
    return soft, hard


@dataclass(frozen=True)
class PartitionView:
    """What selection needs to know about one discovered partition."""

    name: str
    enabled: bool
    cooldown_ticks: int = 1
    backoff_until: datetime | None = None
    last_run_tick: int | None = None
    running: bool = False


def is_backed_off(view: PartitionView, now: datetime) -> bool:
    return view.backoff_until is not None and now < view.backoff_until


def is_cooled_down(view: PartitionView, tick: int) -> bool:
    """Due when never run or ``tick - last_run_tick >= max(0, cooldown_ticks)``."""
    if view.last_run_tick is None:
        return True
    return tick - view.last_run_tick >= max(0, view.cooldown_ticks)


def is_running(
    last_started_at: str | None,
    last_finished_at: str | None,
    now: datetime,
    max_duration_ms: int | float,
) -> bool:
    """True while a run started and has not finished, unless it is stale.

    A run is stale once twice its hard limit has passed: its finish was lost (a worker
    died), and the partition must become eligible again.
    """
    if not last_started_at:
        return False
    try:
        started = parse_iso(last_started_at)
        finished = parse_iso(last_finished_at) if last_finished_at else None
    except ValueError:
        return False
    if finished is not None and finished >= started:
        return False
    _, hard = time_limits(max_duration_ms)
    return now < started + timedelta(seconds=2 * hard)


@dataclass(frozen=True)
class Selection:
    """The outcome of one tick's selection.

    ``playlist`` is the text to write back (None = unchanged). ``picks`` run in order;
    ``skipped`` were checked off without running (name, reason).
    """

    playlist: str | None
    picks: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)


def _next_item(
    text: str,
    views: Mapping[str, PartitionView],
    picks: list[str],
    *,
    tick: int,
    now: datetime,
    implemented: frozenset[str],
) -> tuple[str | None, str]:
    """The first unchecked item not picked yet that is due, and why it is to be
    checked off unrun ("" when it runs); (None, "") when no item is due."""
    for item in pl.parse_items(text):
        if item.done or item.name in picks:
            continue
        view = views.get(item.name)
        if view is None:
            return item.name, SKIP_MISSING
        if not view.enabled:
            return item.name, SKIP_DISABLED
        if view.running or is_backed_off(view, now) or not is_cooled_down(view, tick):
            continue
        return item.name, ("" if item.name in implemented else SKIP_UNIMPLEMENTED)
    return None, ""


def select_partitions(
    playlist_text: str | None,
    views: Mapping[str, PartitionView],
    enabled_order: Sequence[str],
    *,
    tick: int,
    now: datetime,
    limit: int,
    implemented: frozenset[str],
) -> Selection:
    """Pick up to ``limit`` partitions to run this tick (docs/formats.md §7.2, §7.3).

    ``views`` holds every partition discovery kept; ``enabled_order`` the enabled ones
    in discovery order (a rebuilt round lists them). Items whose partition is missing,
    disabled or has no implementation in subcon are checked off (History written with
    ``now``) and reported in ``skipped``; picked items are left unchecked: the run's
    finish checks them off. Backed-off, cooling-down and still-running items are passed
    over in favour of later ones.
    """
    original = playlist_text
    text = playlist_text
    picks: list[str] = []
    skipped: list[tuple[str, str]] = []
    notes: list[str] = []
    now_iso = iso(now)
    while len(picks) < limit:
        if text is None or pl.is_round_complete(text):
            if not enabled_order:
                break
            text = pl.rebuild(text, enabled_order)
        pick, reason = _next_item(text, views, picks, tick=tick, now=now, implemented=implemented)
        if pick is None:
            break
        if not reason:
            picks.append(pick)
            continue
        before = pl.unchecked_count(text)
        checked = pl.check_off(text, pick, now_iso)
        if checked is None or pl.unchecked_count(checked) >= before:
            notes.append(f"stale playlist item did not advance: {pick}")
            break
        text = checked
        skipped.append((pick, reason))
    return Selection(
        playlist=None if text == original else text,
        picks=tuple(picks),
        skipped=tuple(skipped),
        notes=tuple(notes),
    )
