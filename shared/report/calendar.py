"""The spine coverage calendar: per day of the window, events, coverage and bad lines.

Each day file is streamed once with the project's spine reader (malformed lines are
counted there, never fatal), or its counts come from the report's own cache when the
file is unchanged (``daycounts``); coverage is the gap check's own definition
(``shared.spine.coverage``): a ``memory/fragments/<date>/`` directory covers the day, and a
covered day whose file grew with external events after its recorded scan progress
has a *tail* waiting (``shared.spine.gap.count_tail``).
"""

from __future__ import annotations

from collections.abc import Iterable

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.report.daycounts import DayCountCache, DayStats
from shared.report.model import CoverageDay, DayState
from shared.spine.coverage import covered_dates, read_progress
from shared.spine.gap import count_tail
from shared.spine.reader import ReadStats, iter_day

EXAMPLES_KEPT = 3


def read_day(paths: KernelPaths, date: str, max_line_bytes: int) -> DayStats | None:
    """Counts of one whole day file; None when there is no file.

    Raises:
        InputError: the file exists but cannot be read.
    """
    path = paths.day_file(date)
    try:
        st = path.stat()
    except OSError:
        return None
    stats = ReadStats()
    for _ in iter_day(path, stats, max_line_bytes, external_only=True):
        pass
    examples = list(stats.malformed[:EXAMPLES_KEPT])
    if stats.malformed_count > EXAMPLES_KEPT:
        examples.append(
            f"{path}: {stats.malformed_count - EXAMPLES_KEPT} more malformed lines skipped"
        )
    return DayStats(
        st.st_size,
        st.st_mtime_ns,
        stats.events,
        stats.external,
        stats.malformed_count,
        tuple(examples),
    )


def coverage_days(
    paths: KernelPaths,
    dates: Iterable[str],
    fragments_per_day: dict[str, int],
    max_line_bytes: int,
    cache: DayCountCache | None = None,
) -> tuple[list[CoverageDay], list[str]]:
    """One :class:`CoverageDay` per date, and problems (unreadable files, the first
    malformed lines of each day)."""
    cache = cache or DayCountCache(None)
    covered = covered_dates(paths)
    out: list[CoverageDay] = []
    problems: list[str] = []
    for date in dates:
        path = paths.day_file(date)
        stats: DayStats | None = None
        try:
            st = path.stat()
        except OSError:
            st = None
        if st is not None:
            stats = cache.get(date, st.st_size, st.st_mtime_ns)
            if stats is None:
                try:
                    stats = read_day(paths, date, max_line_bytes)
                except InputError as exc:
                    problems.append(str(exc))
                if stats is not None:
                    cache.put(date, stats)
        if stats is not None:
            problems += stats.examples
        exists = stats is not None
        if date in covered:
            state = DayState.COVERED
            if exists and _has_tail(paths, date, max_line_bytes, problems):
                state = DayState.TAIL
        elif not exists:
            state = DayState.NONE
        else:
            state = DayState.GAP if stats and stats.external else DayState.QUIET
        out.append(
            CoverageDay(
                date=date,
                state=state,
                events=stats.events if stats else 0,
                external=stats.external if stats else 0,
                malformed=stats.malformed if stats else 0,
                fragments=fragments_per_day.get(date, 0),
            )
        )
    return out, problems


def _has_tail(paths: KernelPaths, date: str, max_line_bytes: int, problems: list[str]) -> bool:
    try:
        progress = read_progress(paths, date)
    except InputError as exc:
        problems.append(str(exc))
        return False
    if progress is None:
        return False
    path = paths.day_file(date)
    try:
        if path.stat().st_size <= progress.byte_offset:
            return False
        return count_tail(path, progress, max_line_bytes).external > 0
    except (OSError, InputError) as exc:
        problems.append(f"{path}: {exc}")
        return False
