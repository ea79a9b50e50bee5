"""Which spine days the scanner has covered (docs/formats.md §9.1, §9.5).

A day is covered once ``memory/fragments/<date>/`` exists as a real directory
(an empty one counts; a symlink does not). A finished pass may leave
``.scan.json`` inside it (pretty JSON ``{last_event_id, byte_offset, last_ts}``)
saying how far the partition file was read, so a later tail can be scanned.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from typing import Any

import orjson

from shared.constants import SCAN_PROGRESS_FILE
from shared.errors import InputError
from shared.jsontext import pretty
from shared.kernel import KernelPaths, atomic_write_text
from shared.spine.event import ts_key
from shared.spine.reader import ReadStats, iter_records, open_partition

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class ScanProgress:
    """How far a day's partition file has been read: everything before
    ``byte_offset``; ``last_ts`` is the greatest ``ts`` seen there (canonical ISO)."""

    last_event_id: str | None
    byte_offset: int
    last_ts: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "last_event_id": self.last_event_id,
            "byte_offset": self.byte_offset,
            "last_ts": self.last_ts,
        }

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
        return cls(event_id, offset, last_ts)


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
    return ScanProgress(last_id, offset, last_key)
