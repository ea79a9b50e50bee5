"""Which spine days the scanner has covered (docs/formats.md §9.1, §9.5).

A day is covered once ``memory/fragments/<date>/`` exists as a real directory
(an empty one counts; a symlink does not). A finished pass may leave
``.scan.json`` inside it (pretty JSON ``{last_event_id, byte_offset, last_ts}``)
saying how far the partition file was read, so a later tail can be scanned: every
external event before ``byte_offset`` with ``ts`` up to ``last_ts`` was judged, and
the tail is what lies after ``byte_offset`` with a later ``ts``.

:func:`pass_progress` records only what a pass scanned: an event appended after the
gap was posted at an hour outside the posted bands sits inside the file the pass
planned over but was never judged, so the progress stops before it.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import orjson

from shared.constants import SCAN_PROGRESS_FILE
from shared.errors import InputError
from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths
from shared.spine.event import is_external, ts_hour, ts_key
from shared.spine.reader import ReadStats, iter_records, open_partition
from shared.timestamps import iso, parse_iso

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class ScanProgress:
    """How far a day's partition file has been read: everything before
    ``byte_offset``; ``last_ts`` is the greatest ``ts`` seen there (canonical ISO)."""

    last_event_id: str | None
    byte_offset: int
    last_ts: str | None
    # The file size the pass read up to: an event past it was never read, whatever its
    # ts (an import appends older-stamped events late). None in older progress files.
    read_to: int | None = None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "last_event_id": self.last_event_id,
            "byte_offset": self.byte_offset,
            "last_ts": self.last_ts,
        }
        if self.read_to is not None:
            doc["read_to"] = self.read_to
        return doc

    @classmethod
    def from_json(cls, data: Any, path: str | None = None) -> ScanProgress:
        """Raises: InputError for a value that is not a progress object."""
        if not isinstance(data, dict):
            raise InputError(path, None, "scan progress must be a JSON object")
        event_id, offset, last_ts = (
            data.get("last_event_id"),
            data.get("byte_offset"),
            data.get("last_ts"),
        )
        if type(offset) is not int or offset < 0:
            raise InputError(path, None, f"byte_offset must be a non-negative integer: {offset!r}")
        if event_id is not None and not isinstance(event_id, str):
            raise InputError(path, None, f"last_event_id must be a string: {event_id!r}")
        if last_ts is not None and (not isinstance(last_ts, str) or ts_key(last_ts) is None):
            raise InputError(path, None, f"last_ts must be a timestamp: {last_ts!r}")
        read_to = data.get("read_to")
        if read_to is not None and (type(read_to) is not int or read_to < offset):
            raise InputError(path, None, f"read_to must be an integer >= byte_offset: {read_to!r}")
        return cls(event_id, offset, last_ts, read_to)


def _check_date(date: str) -> str:
    if not DATE.fullmatch(date):
        raise InputError(None, None, f"not a YYYY-MM-DD date: {date!r}")
    return date


def mark_day_covered(paths: KernelPaths, date: str, progress: ScanProgress | None) -> None:
    """Create ``memory/fragments/<date>/`` and, with ``progress``, write its ``.scan.json``.

    Raises:
        InputError: ``date`` is not ``YYYY-MM-DD``.
    """
    day_dir = paths.fragment_day_dir(_check_date(date))
    day_dir.mkdir(parents=True, exist_ok=True)
    if progress is not None:
        atomic_write_text(day_dir / SCAN_PROGRESS_FILE, pretty(progress.to_json()))


def read_progress(paths: KernelPaths, date: str) -> ScanProgress | None:
    """The ``.scan.json`` of a covered day, or None when there is none.

    Raises:
        InputError: the file exists but is not valid progress JSON.
    """
    path = paths.fragment_day_dir(_check_date(date)) / SCAN_PROGRESS_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(path, None, f"cannot read scan progress: {exc.strerror}") from None
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InputError(path, None, f"invalid JSON: {exc}") from None
    return ScanProgress.from_json(value, str(path))


def covered_dates(paths: KernelPaths) -> set[str]:
    """Names of real directories ``memory/fragments/<YYYY-MM-DD>/`` (symlinks excluded)."""
    covered: set[str] = set()
    try:
        entries = list(os.scandir(paths.fragments_dir))
    except OSError:
        return covered
    for entry in entries:
        if not DATE.fullmatch(entry.name):
            continue
        try:
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError:
            continue
        if stat.S_ISDIR(mode):
            covered.add(entry.name)
    return covered


def scan_progress(
    paths: KernelPaths,
    date: str,
    byte_end: int | None = None,
    *,
    max_line_bytes: int = 4 * 1024 * 1024,
) -> ScanProgress:
    """Progress after reading ``date``'s partition up to ``byte_end`` (None = whole file):
    the id of the last event in file order and the greatest ``ts`` before that offset.

    Raises:
        InputError: the partition file is unreadable (a missing one gives offset 0).
    """
    path = paths.day_file(_check_date(date))
    if not path.exists():
        return ScanProgress(None, 0, None)
    last_id: str | None = None
    last_key: str | None = None
    offset = 0
    with open_partition(path) as handle:
        for record in iter_records(
            handle, str(path), ReadStats(), max_line_bytes=max_line_bytes, end=byte_end
        ):
            event = record.event
            event_id, ts = event.get("id"), event.get("ts")
            if isinstance(event_id, str):
                last_id = event_id
            key = ts_key(ts) if isinstance(ts, str) else None
            if key is not None and (last_key is None or key > last_key):
                last_key = key
        offset = handle.tell()
    if byte_end is not None:
        offset = min(offset, byte_end)
    return ScanProgress(last_id, offset, last_key, offset)


def pass_progress(
    paths: KernelPaths,
    date: str,
    *,
    hours: frozenset[int],
    window: tuple[str | None, str] | None,
    file_size: int,
    last_event_id: str | None,
    last_ts: str | None,
    max_line_bytes: int = 4 * 1024 * 1024,
) -> ScanProgress:
    """The progress of a pass that read ``date``'s file up to ``file_size`` and judged
    its external events in ``hours`` (a band pass) or in ``window`` = ``(after, until]``
    (a tail pass; events up to ``after`` were covered before). ``last_event_id`` /
    ``last_ts`` are the last event and the greatest ts the pass judged.

    When an external event in that part of the file was not judged (it was appended,
    at another hour, after the gap was posted), ``byte_offset`` is the offset of the
    first such line and ``last_ts`` one millisecond before the earliest such ts (or
    None for the start of the day), so the next tail offers it; else the file end
    and ``last_ts``. Scanned events later than that bound may be offered again; a
    fragment's name is its key, so judging one twice rewrites the same file.

    Raises:
        InputError: the partition file is unreadable.
    """
    path = paths.day_file(_check_date(date))
    if (window is None and len(hours) == 24) or not path.exists():
        return ScanProgress(last_event_id, file_size, last_ts, file_size)
    until = ts_key(window[1]) if window is not None else None
    first_offset: int | None = None
    earliest: str | None = None
    previous_id: str | None = None
    before_id: str | None = None
    with open_partition(path) as handle:
        for record in iter_records(
            handle, str(path), ReadStats(), max_line_bytes=max_line_bytes, end=file_size
        ):
            event = record.event
            key = ts_key(event["ts"]) if is_external(event) else None
            if key is not None:
                if window is None:
                    hour = ts_hour(event["ts"])
                    judged = hour is None or hour in hours
                else:
                    # Up to ``after`` was covered before; (after, until] by this pass.
                    judged = until is not None and key <= until
                if not judged:
                    if first_offset is None:
                        first_offset, before_id = record.offset, previous_id
                    if earliest is None or key < earliest:
                        earliest = key
            if first_offset is None and isinstance(event.get("id"), str):
                previous_id = event["id"]
    if first_offset is None or earliest is None:
        return ScanProgress(last_event_id, file_size, last_ts, file_size)
    return ScanProgress(before_id, first_offset, tail_bound(earliest, date, last_ts), file_size)


def tail_bound(earliest: str, date: str, last_ts: str | None) -> str | None:
    """The ``last_ts`` that makes the next tail offer the earliest unjudged event:
    one millisecond before it (None for the start of the day), at most ``last_ts``."""
    bound: str | None = iso(parse_iso(earliest) - timedelta(milliseconds=1))
    if bound is not None and bound[:10] < date:
        bound = None
    if last_ts is not None and bound is not None and last_ts < bound:
        bound = last_ts
    return bound
