"""Read one slice's turns from the spine (what a scan worker runs before judging).

The slice's byte range is read batch by batch: each batch's lines are parsed in one
go (:func:`~shared.spine.reader.parse_batch`) and fed to a
:class:`~shared.weaver.scan.turns.TurnBuilder`, which walks them in its own loop. Sessions
still open at the range end are then followed past it (the look-ahead), read-only,
until none is left open.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from itertools import repeat
from typing import Any, cast

from shared.gcpause import collector_paused
from shared.kernel.paths import KernelPaths
from shared.spine.lines import Batch, iter_batches
from shared.spine.reader import ReadStats, open_partition, parse_batch, parse_line
from shared.spine.slices import SpineSlice
from shared.weaver.scan.turns import Turn, TurnBuilder

Progress = Callable[[int, int], None]
PROGRESS_EVERY = 1000
_SESSION_KEY = b'"session_key"'
_KEY_VALUE = re.compile(rb'"session_key"(:"[^"\n]*")?')


def read_slice_turns(
    paths: KernelPaths,
    s: SpineSlice,
    stats: ReadStats,
    max_line_bytes: int,
    *,
    progress: Progress | None = None,
    ahead_end: int | None = None,
) -> list[Turn]:
    """Turns whose origin lies in slice ``s``; evidence rows may come from past its end.

    Every line of the slice's byte range is counted in ``stats``; the look-ahead is
    read-only, bounded, and not counted. ``ahead_end`` stops the look-ahead at that
    byte offset (the file size a plan saw), so lines appended later cannot change a
    turn and a second read builds the very same turns. ``progress(done, total)`` gets
    the bytes read so far at every 1000th line counted, when that line is an event.
    """
    if s.byte_end <= s.byte_start:
        return []
    with collector_paused():
        return _read(paths, s, stats, max_line_bytes, progress, ahead_end)


def _read(
    paths: KernelPaths,
    s: SpineSlice,
    stats: ReadStats,
    max_line_bytes: int,
    progress: Progress | None,
    ahead_end: int | None,
) -> list[Turn]:
    builder = TurnBuilder(s.date)
    match = s.predicate()
    path = paths.day_file(s.date)
    where = str(path)
    last_line = s.first_line - 1  # the last event's line
    lines = newlines = 0
    with open_partition(path) as handle:
        handle.seek(s.byte_start)
        for batch in iter_batches(
            handle,
            offset=s.byte_start,
            end=s.byte_end,
            first_line=s.first_line,
            max_line_bytes=max_line_bytes,
        ):
            counted = stats.lines
            events = parse_batch(batch, where, stats, max_line_bytes)
            if progress is not None:
                _report(progress, s, batch, events, counted)
            stats.external += builder.feed_slice(batch.lineno, events, match)
            last_line = _last_event_line(batch.lineno, events, last_line)
            lines += len(events)
            newlines = lines - batch.partial_end
        if builder.has_open:
            # Blank or malformed lines at the range end still advance the count.
            ahead = ReadStats()
            for batch in iter_batches(
                handle,
                offset=s.byte_end,
                end=ahead_end,
                first_line=max(s.first_line + newlines, last_line + 1),
                max_line_bytes=max_line_bytes,
            ):
                # Closing expired turns early changes nothing: every later line
                # closes them before it is looked at anyway.
                builder.expire(batch.lineno)
                if not builder.has_open:
                    break
                events = _ahead_events(batch, where, ahead, builder.open_sessions())
                if not builder.feed_lookahead(batch.lineno, events):
                    break
    return builder.turns


def _ahead_events(
    batch: Batch, where: str, stats: ReadStats, sessions: Collection[str]
) -> list[dict[str, Any] | None]:
    """The look-ahead's events: only lines that may belong to an open session are
    parsed, the rest (which could change nothing) are None like bad lines."""
    lines = batch.lines
    touch = None if batch.skipped else _touching(cast("list[bytes]", lines), sessions)
    if touch is None:
        wanted = {key.encode("utf-8", "surrogatepass") for key in sessions}
        touch = [line is not None and _may_touch(line, wanted) for line in lines]
    return [
        parse_line(line, where, lineno, stats) if line is not None and hit else None
        for lineno, line, hit in zip(
            range(batch.lineno, batch.lineno + len(lines)), lines, touch, strict=True
        )
    ]


def _touching(lines: list[bytes], sessions: Collection[str]) -> list[bool] | None:
    """:func:`_may_touch` of every line at once, or None when some line is not plain
    (a backslash, the key more than once, a value that is not UTF-8): one search over
    the joined lines finds each line's key and value, in line order."""
    data = b"\n".join(lines)
    if b"\\" in data:
        return None
    counts = list(map(bytes.count, lines, repeat(_SESSION_KEY)))
    if counts.count(0) + counts.count(1) != len(counts):
        return None
    # Each line with the key gives one match: ':"value"' ('' when no compact string
    # value follows, which _may_touch parses). A value is wanted when it is the
    # UTF-8 of an open session (surrogatepass: exactly what _may_touch compares).
    values = iter(_KEY_VALUE.findall(data))
    try:
        return [
            bool(count)
            and (
                not (value := next(values))
                or value[2:-1].decode("utf-8", "surrogatepass") in sessions
            )
            for count in counts
        ]
    except UnicodeDecodeError:
        return None


def _may_touch(line: bytes, wanted: set[bytes]) -> bool:
    """False only when the line's top-level ``session_key``, if it is a string, is
    none of ``wanted`` (UTF-8), judged from the raw bytes without a parse."""
    # Without a backslash no string holds an escape or a '"', so the key appears as
    # these exact bytes; once only, it is the key (a string followed by ':' is one),
    # and a compact value runs to the next '"'. Anything less plain is parsed.
    if b"\\" in line:
        return True
    count = line.count(_SESSION_KEY)
    if count != 1:
        return count > 1
    start = line.find(_SESSION_KEY) + len(_SESSION_KEY)
    if line[start : start + 2] != b':"':
        return True
    end = line.find(b'"', start + 2)
    return end < 0 or line[start + 2 : end] in wanted


def _last_event_line(lineno: int, events: list[dict[str, Any] | None], last: int) -> int:
    """The line of the batch's last event, or ``last`` when the batch holds none."""
    for back, event in enumerate(reversed(events)):
        if event is not None:
            return lineno + len(events) - 1 - back
    return last


def _report(
    progress: Progress, s: SpineSlice, batch: Batch, events: list[Any], counted: int
) -> None:
    """Report progress at each event of the batch that makes the count of lines
    (``counted`` before the batch) a multiple of :data:`PROGRESS_EVERY`."""
    first = -(counted + 1) % PROGRESS_EVERY
    for index in range(first, len(events), PROGRESS_EVERY):
        if events[index] is not None:
            progress(_line_offset(batch, index) - s.byte_start, s.byte_end - s.byte_start)


def _line_offset(batch: Batch, index: int) -> int:
    """Byte offset of the batch's line ``index`` (over-long lines count what they skipped)."""
    skipped = iter(batch.skipped)
    pos = batch.offset
    for line in batch.lines[:index]:
        pos += next(skipped) if line is None else len(line) + 1
    return pos
