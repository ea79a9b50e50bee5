"""The gap check: which spine day (or tail of a day) the scanner should dream next.

docs/formats.md §9.2: walk partition dates newest first, skip dates covered by
``memory/fragments/<date>/``, and offer the first date with external events,
its hours merged into bands. Then the tail (docs/formats.md §9.5): once no uncovered day has
external events, a covered day whose ``.scan.json`` records how far it was read,
and whose file has since grown with external events of a later ``ts``, is offered
(newest first) as a ``<date>[t1,t2]`` window. Uncovered days always come first, so
a growing "today" never starves an older day that was never scanned.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.constants import SCAN_GAP_PENDING, WEAVER
from shared.errors import InputError
from shared.jsontext import shown
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.spine.coverage import ScanProgress, covered_dates, read_progress, tail_bound
from shared.spine.event import is_external, ts_hour, ts_key
from shared.spine.gapcache import DayCount, GapCache, TailCount, cache_path
from shared.spine.interval import Band, Window, merge_hours
from shared.spine.reader import ReadStats, iter_records, open_partition
from shared.spine.scangap import ScanGapBody, render_scan_gap_body

log = logging.getLogger(__name__)

_NEVER = 1 << 62  # an offset no file reaches
PARTITION_FILE = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})\.jsonl")

ReadHook = Callable[[Path], None]


@dataclass(frozen=True)
class Gap:
    """The day to scan next: bands of UTC hours (or, for an incremental tail, one
    window token), and the count of external events the body reports."""

    date: str
    bands: list[tuple[int, int]]
    tokens: list[str]
    external_events: int
    incremental: bool
    after_ts: str | None = None
    until_ts: str | None = None

    def items(self) -> list[Band | Window]:
        if self.incremental:
            return [Window(self.date, self.after_ts or "", self.until_ts or "")]
        return [Band(self.date, a, b) for a, b in self.bands]

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.date,
            "bands": [list(b) for b in self.bands],
            "tokens": list(self.tokens),
            "external_events": self.external_events,
            "incremental": self.incremental,
            "after_ts": self.after_ts,
            "until_ts": self.until_ts,
        }


def event_dates(paths: KernelPaths) -> list[str]:
    """Dates of ``var/events/<YYYY-MM-DD>.jsonl`` files, ascending (unreadable dir: none)."""
    try:
        names = os.listdir(paths.events_dir)
    except OSError:
        return []
    dates = [m.group(1) for m in map(PARTITION_FILE.fullmatch, names) if m]
    return sorted(dates)


_LOOSE_DATE = re.compile(r"([0-9]{4})[-_.]?([0-9]{1,2})[-_.]?([0-9]{1,2})")


@dataclass(frozen=True)
class MisnamedDay:
    """A ``var/events/*.jsonl`` file not named ``YYYY-MM-DD.jsonl``, and the name it
    should have when its stem reads as a date (``2026-1-2`` -> ``2026-01-02.jsonl``)."""

    name: str
    rename_to: str | None

    @property
    def warning(self) -> str:
        text = (
            f"var/events/{shown(self.name)} is not read as a spine day: day files are "
            "named YYYY-MM-DD.jsonl (UTC date, zero-padded)"
        )
        return text + (f"; rename it to {self.rename_to}" if self.rename_to else "")

    def to_json(self) -> dict[str, Any]:
        return {"file": f"var/events/{self.name}", "rename_to": self.rename_to}


def misnamed_day_files(paths: KernelPaths) -> list[MisnamedDay]:
    """Every ``var/events/*.jsonl`` file not named ``YYYY-MM-DD.jsonl``, by name.

    Such a file is never read as a spine day (the original lists only that shape), so
    its events would be missed without a word: ``check`` and ``status`` warn about
    each. Nothing is renamed or read here."""
    try:
        names = sorted(os.listdir(paths.events_dir))
    except OSError:
        return []
    found: list[MisnamedDay] = []
    for name in names:
        if not name.endswith(".jsonl") or PARTITION_FILE.fullmatch(name):
            continue
        proper = None
        loose = _LOOSE_DATE.fullmatch(name.removesuffix(".jsonl"))
        if loose:
            year, month, day = (int(g) for g in loose.groups())
            with contextlib.suppress(ValueError):
                proper = f"{dt.date(year, month, day).isoformat()}.jsonl"
        found.append(MisnamedDay(name, proper))
    return found


def count_day(path: Path, max_line_bytes: int) -> DayCount:
    """Count a whole day's external events with a valid hour and collect those UTC
    hours (docs/formats.md §9.2).

    Raises:
        InputError: the file is unreadable.
    """
    hours: set[int] = set()
    counted = 0
    stats = ReadStats()
    with open_partition(path) as handle:
        for record in iter_records(
            handle, str(path), stats, max_line_bytes=max_line_bytes, keep=is_external
        ):
            hour = ts_hour(record.event["ts"])
            if hour is not None:
                counted += 1
                hours.add(hour)
    return DayCount(counted, tuple(sorted(hours)), stats.malformed_count, tuple(stats.malformed))


def count_tail(path: Path, progress: ScanProgress, max_line_bytes: int) -> TailCount:
    """External events after ``progress.byte_offset`` not judged yet, the greatest and
    the earliest of their ts (canonical ISO).

    Before ``progress.read_to`` (the size the pass read) an event was judged when its ts
    is not later than ``progress.last_ts``; past it, no event was read, whatever its ts
    (a transcript import appends a session that overlapped the ones read before, with
    older ts). The tail's window then starts just before the earliest of them (see
    :func:`_newest_tail`).

    Raises:
        InputError: the file is unreadable.
    """
    after = ts_key(progress.last_ts) if progress.last_ts else None
    read_to = progress.read_to if progress.read_to is not None else _NEVER
    external = 0
    until: str | None = None
    earliest: str | None = None
    with open_partition(path) as handle:
        handle.seek(progress.byte_offset)
        stats = ReadStats()
        for record in iter_records(
            handle,
            str(path),
            stats,
            max_line_bytes=max_line_bytes,
            offset=progress.byte_offset,
            keep=is_external,
        ):
            key = ts_key(record.event["ts"])
            if key is None:
                continue
            if record.offset < read_to and after is not None and key <= after:
                continue  # read and judged by the pass that wrote the progress
            external += 1
            if until is None or key > until:
                until = key
            if earliest is None or key < earliest:
                earliest = key
    return TailCount(
        external, until, stats.malformed_count, tuple(stats.malformed), earliest_ts=earliest
    )


def _action(gap: Gap) -> str:
    if gap.incremental:
        return (
            "dream over the new tail of this day — judge each external event with ts after "
            f"{gap.after_ts or 'the start of the day'} up to {gap.until_ts} against the board, "
            "one event at a time, and write a fragment only where a line activated, should have "
            f"activated, or a new signal recurs. fragments/{gap.date}/ already covers the "
            "earlier events of this day."
        )
    return (
        "dream over this bounded interval — judge each external event in these hour bands "
        "against the board, one event at a time, and write a fragment only where a line "
        "activated, should have activated, or a new signal recurs; events of other hours and "
        f"internal sources are out of scope. This day has no fragments/{gap.date}/ dir yet."
    )


def scan_gap_body(gap: Gap) -> str:
    """The ``scan-gap.md.pending`` body for ``gap`` (four lines, trailing LF)."""
    return render_scan_gap_body(
        ScanGapBody(tuple(gap.tokens), gap.date, gap.external_events, _action(gap))
    )


def _note(stats: ReadStats, count: int, kept: tuple[str, ...]) -> None:
    stats.merge(ReadStats(malformed=list(kept), malformed_count=count))


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _newest_uncovered(
    paths: KernelPaths,
    dates: list[str],
    covered: set[str],
    cache: GapCache,
    max_line_bytes: int,
    on_read: ReadHook | None,
    stats: ReadStats,
) -> Gap | None:
    for date in reversed(dates):
        if date in covered:
            continue
        path = paths.day_file(date)
        key = _stat(path)
        if key is None:
            continue
        count = cache.get_day(date, *key)
        if count is None:
            if on_read is not None:
                on_read(path)
            try:
                count = count_day(path, max_line_bytes)
            except InputError as exc:
                log.warning("gap check skips %s", exc)
                continue
            cache.put_day(date, *key, count)
        _note(stats, count.malformed_count, count.malformed)
        if count.external == 0:
            continue
        bands = merge_hours(count.hours)
        tokens = [Band(date, a, b).token() for a, b in bands]
        return Gap(date, bands, tokens, count.external, incremental=False)
    return None


def _newest_tail(
    paths: KernelPaths,
    dates: list[str],
    covered: set[str],
    cache: GapCache,
    max_line_bytes: int,
    on_read: ReadHook | None,
    stats: ReadStats,
) -> Gap | None:
    for date in reversed(dates):
        if date not in covered:
            continue
        try:
            progress = read_progress(paths, date)
        except InputError as exc:
            log.warning("gap check ignores scan progress: %s", exc)
            continue
        path = paths.day_file(date)
        key = _stat(path)
        if progress is None or key is None or key[0] <= progress.byte_offset:
            continue
        tail = cache.get_tail(date, *key, progress.byte_offset, progress.last_ts)
        if tail is None:
            if on_read is not None:
                on_read(path)
            try:
                tail = count_tail(path, progress, max_line_bytes)
            except InputError as exc:
                log.warning("gap check skips %s", exc)
                continue
            cache.put_tail(date, *key, progress.byte_offset, progress.last_ts, tail)
        _note(stats, tail.malformed_count, tail.malformed)
        if tail.external == 0 or tail.until_ts is None:
            continue
        after = progress.last_ts
        if tail.earliest_ts is not None and (after is None or tail.earliest_ts <= after):
            # A late-appended event with an older ts: open the window just before it.
            after = tail_bound(tail.earliest_ts, date, after)
        window = Window(date, after or "", tail.until_ts)
        return Gap(
            date,
            [],
            [window.token()],
            tail.external,
            incremental=True,
            after_ts=after,
            until_ts=tail.until_ts,
        )
    return None


def find_gap(
    paths: KernelPaths,
    settings: Settings,
    *,
    on_read: ReadHook | None = None,
    stats: ReadStats | None = None,
) -> Gap | None:
    """The next gap to scan, or None when every external day is dreamt.

    Newest uncovered date with external events first (docs/formats.md §9.2); only when there is
    none, the newest covered day with an unscanned external tail (docs/formats.md §9.5).
    Unreadable day files are skipped (logged). ``on_read`` is called with each
    partition file actually read (cache misses). ``stats`` collects the malformed
    lines of every day file the check consulted (cached counts included).
    """
    cache = GapCache(cache_path(paths), settings.gap_cache)
    dates = event_dates(paths)
    covered = covered_dates(paths)
    limit = settings.max_line_bytes
    seen = stats if stats is not None else ReadStats()
    gap = _newest_uncovered(paths, dates, covered, cache, limit, on_read, seen)
    if gap is None:
        gap = _newest_tail(paths, dates, covered, cache, limit, on_read, seen)
    try:
        cache.save(set(dates))
    except OSError as exc:
        log.warning("gap cache not saved: %s", exc)
    return gap


@dataclass(frozen=True)
class PostResult:
    """What posting a gap did: the inbox path written, or why it was withheld."""

    posted: list[str]
    withheld: list[dict[str, str]]


def post_gap(paths: KernelPaths, gap: Gap, *, dry_run: bool = False) -> PostResult:
    """Write ``scan-gap.md.pending`` into the memory-weaver inbox unless it already
    exists (withheld ``already-pending``). With ``dry_run`` nothing is written and
    ``posted`` lists what would be written."""
    target = paths.inbox_dir(WEAVER) / SCAN_GAP_PENDING
    if target.exists():
        reason = {"kind": "scan-gap.v1", "partition": WEAVER, "reason": "already-pending"}
        return PostResult([], [reason])
    if not dry_run:
        atomic_write_text(target, scan_gap_body(gap))
    return PostResult([str(target)], [])
