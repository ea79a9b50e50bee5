"""Stream spine partition files without holding a day in memory (docs/formats.md §4.4).

Lines are split on ``\\n`` only. Malformed JSON, non-object values, non-UTF-8
bytes and lines longer than ``max_line_bytes`` are skipped and counted in
:class:`ReadStats` (never fatal); an over-long line is skipped in chunks, never
read whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, cast

import orjson

from shared.constants import INTERNAL_KINDS
from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.event import is_external, kind_label, parse_event_line
from shared.spine.lines import Batch, iter_batches
from shared.spine.slices import SpineSlice

MALFORMED_KEEP = 100

EventFilter = Callable[[dict[str, Any]], bool]


@dataclass
class ReadStats:
    """Counters of one read. ``malformed`` keeps the first :data:`MALFORMED_KEEP`
    reasons as ``"file:line: reason"``; ``malformed_count`` counts them all."""

    lines: int = 0
    events: int = 0
    external: int = 0
    malformed: list[str] = field(default_factory=list)
    malformed_count: int = 0

    def note_malformed(self, error: InputError) -> None:
        self.malformed_count += 1
        if len(self.malformed) < MALFORMED_KEEP:
            self.malformed.append(str(error))

    def merge(self, other: ReadStats) -> None:
        """Add ``other``'s counters into this one (per-slice stats → pass stats)."""
        self.lines += other.lines
        self.events += other.events
        self.external += other.external
        self.malformed_count += other.malformed_count
        room = MALFORMED_KEEP - len(self.malformed)
        self.malformed.extend(other.malformed[: max(room, 0)])

    def to_json(self) -> dict[str, Any]:
        return {
            "lines": self.lines,
            "events": self.events,
            "external": self.external,
            "malformed_count": self.malformed_count,
            "malformed": list(self.malformed),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReadStats:
        return cls(
            lines=int(data.get("lines", 0)),
            events=int(data.get("events", 0)),
            external=int(data.get("external", 0)),
            malformed=[str(x) for x in data.get("malformed", [])],
            malformed_count=int(data.get("malformed_count", 0)),
        )


class SpineRecord(NamedTuple):
    """One parsed event: 1-based line number, byte offset of the line, the event."""

    lineno: int
    offset: int
    event: dict[str, Any]


def iter_records(
    handle: BinaryIO,
    where: str,
    stats: ReadStats,
    *,
    max_line_bytes: int,
    offset: int = 0,
    end: int | None = None,
    first_line: int = 1,
    keep: EventFilter | None = None,
) -> Iterator[SpineRecord]:
    """Parse lines of an open partition file (positioned at ``offset``) into records,
    counting into ``stats``.

    ``where`` names the file in malformed-line reasons. Every parsed event is
    counted (``events``, ``external``); only those passing ``keep`` are yielded.
    """
    for batch in iter_batches(
        handle, offset=offset, end=end, first_line=first_line, max_line_bytes=max_line_bytes
    ):
        yield from _batch_records(batch, where, stats, max_line_bytes, keep)


def _batch_records(
    batch: Batch, where: str, stats: ReadStats, max_line_bytes: int, keep: EventFilter | None
) -> Iterator[SpineRecord]:
    """The records of one batch (see :func:`iter_records`); the scan's hot loop."""
    loads = orjson.loads
    decode_error = orjson.JSONDecodeError
    internal = INTERNAL_KINDS
    external_only = keep is is_external
    lines = batch.lines
    first = batch.lineno
    offsets = _offsets(batch) if batch.skipped else None
    pos = batch.offset
    not_events = external = 0
    lines_base, events_base, external_base = stats.lines, stats.events, stats.external
    for i, line in enumerate(lines):
        line_offset = pos
        pos += len(line) + 1 if line is not None else 0
        if not line:
            not_events += 1
            if line is None:
                stats.note_malformed(
                    InputError(
                        where, first + i, f"line longer than {max_line_bytes} bytes, skipped"
                    )
                )
            continue
        try:
            event = loads(line)
        except decode_error:
            parsed = _fallback(line, where, first + i, stats)
            if parsed is None:
                not_events += 1
                continue
            event = parsed
        if type(event) is not dict:
            not_events += 1
            stats.note_malformed(
                InputError(where, first + i, f"not a JSON object ({type(event).__name__})")
            )
            continue
        # The source gate of docs/formats.md §4.5, inlined: this is the hot loop.
        source = event.get("source")
        kind = source.get("kind") if type(source) is dict else None
        if type(kind) is not str and kind is not None:
            kind = kind_label(kind)  # rare: the original's truthiness test
        if type(kind) is str and kind and kind not in internal and type(event.get("ts")) is str:
            external += 1
            if not (external_only or keep is None or keep(event)):
                continue
        elif external_only or not (keep is None or keep(event)):
            continue
        # Counters are kept in locals (hot loop) and published before each yield,
        # so a consumer reporting progress sees them up to the current line.
        stats.lines = lines_base + i + 1
        stats.events = events_base + i + 1 - not_events
        stats.external = external_base + external
        yield SpineRecord(first + i, line_offset if offsets is None else offsets[i], event)
    stats.lines = lines_base + len(lines)
    stats.events = events_base + len(lines) - not_events
    stats.external = external_base + external


def parse_batch(
    batch: Batch, where: str, stats: ReadStats, max_line_bytes: int
) -> list[dict[str, Any] | None]:
    """Every line of ``batch`` as its event, or None when it is not one, for a caller
    that walks the events itself (no per-record generator).

    Lines are judged and bad ones noted in ``stats`` exactly as :func:`iter_records`
    does; ``lines`` and ``events`` are counted for the whole batch at once, and
    ``external`` is left to the caller (it tests the source gate anyway).
    """
    lines = batch.lines
    if not batch.skipped:
        try:
            events = list(map(orjson.loads, cast("list[bytes]", lines)))
        except orjson.JSONDecodeError:
            pass  # some line needs a second look: redo the batch line by line
        else:
            if set(map(type, events)) == {dict}:
                stats.lines += len(lines)
                stats.events += len(lines)
                return events
    return _parse_lines(batch, where, stats, max_line_bytes)


def _parse_lines(
    batch: Batch, where: str, stats: ReadStats, max_line_bytes: int
) -> list[dict[str, Any] | None]:
    """:func:`parse_batch` one line at a time, noting each bad line in order."""
    out: list[dict[str, Any] | None] = []
    for lineno, line in enumerate(batch.lines, batch.lineno):
        if line is None:
            stats.note_malformed(
                InputError(where, lineno, f"line longer than {max_line_bytes} bytes, skipped")
            )
            out.append(None)
        else:
            out.append(parse_line(line, where, lineno, stats))
    stats.lines += len(out)
    stats.events += len(out) - out.count(None)
    return out


def parse_line(line: bytes, where: str, lineno: int, stats: ReadStats) -> dict[str, Any] | None:
    """One line's event, or None for a blank or bad line (a bad one is noted in ``stats``,
    as :func:`iter_records` notes it); counts nothing else."""
    if not line:
        return None
    try:
        event = orjson.loads(line)
    except orjson.JSONDecodeError:
        return _fallback(line, where, lineno, stats)
    if type(event) is not dict:
        stats.note_malformed(
            InputError(where, lineno, f"not a JSON object ({type(event).__name__})")
        )
        return None
    return event


def _offsets(batch: Batch) -> list[int]:
    """Start offset of every line of a batch that holds over-long (None) lines."""
    out = []
    pos = batch.offset
    skipped = iter(batch.skipped)
    for line in batch.lines:
        out.append(pos)
        pos += next(skipped) if line is None else len(line) + 1
    return out


def _fallback(line: bytes, where: str, lineno: int, stats: ReadStats) -> dict[str, Any] | None:
    """A line orjson refused: blank lines are ignored, the stdlib parser (which agrees
    with JSON.parse on lone surrogates) gets a second look, bad lines are noted."""
    if not line.strip():
        return None
    try:
        return parse_event_line(line, where, lineno)
    except InputError as exc:
        stats.note_malformed(exc)
        return None


def open_partition(path: Path) -> BinaryIO:
    """Open a partition file for binary reading.

    Raises:
        InputError: the file is missing or unreadable.
    """
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputError(path, None, f"cannot read spine partition: {exc.strerror}") from None


def iter_day(
    path: Path,
    stats: ReadStats,
    max_line_bytes: int,
    *,
    external_only: bool = False,
) -> Iterator[SpineRecord]:
    """Stream every event of one partition file (all events, or only external ones).

    Raises:
        InputError: the file is missing or unreadable (bad lines are only counted).
    """
    with open_partition(path) as handle:
        yield from iter_records(
            handle,
            str(path),
            stats,
            max_line_bytes=max_line_bytes,
            keep=is_external if external_only else None,
        )


def iter_slice(
    paths: KernelPaths,
    s: SpineSlice,
    stats: ReadStats,
    max_line_bytes: int,
    *,
    external_only: bool = False,
) -> Iterator[SpineRecord]:
    """Stream the events of one slice: its byte range, filtered by its bands/window.

    Every parsed line of the range is counted in ``stats``; only matching events
    (and, with ``external_only``, only external ones) are yielded.

    Raises:
        InputError: the partition file is missing or unreadable (non-empty range).
    """
    if s.byte_end <= s.byte_start:
        return
    path = paths.day_file(s.date)
    match = s.predicate()
    keep: EventFilter = (lambda e: match(e) and is_external(e)) if external_only else match
    with open_partition(path) as handle:
        handle.seek(s.byte_start)
        yield from iter_records(
            handle,
            str(path),
            stats,
            max_line_bytes=max_line_bytes,
            offset=s.byte_start,
            end=s.byte_end,
            first_line=s.first_line,
            keep=keep,
        )
