"""Read one event by id through ``var/events/index/by_id.jsonl`` (docs/formats.md §4.4)."""

from __future__ import annotations

import os
import re
from typing import Any

import orjson

from shared.kernel.paths import KernelPaths
from shared.spine.lines import iter_raw_lines
from shared.spine.reader import ReadStats, iter_day

PARTITION_NAME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\.jsonl")
_MAX_INDEX_LINE = 64 * 1024
_MAX_EVENT_BYTES = 64 * 1024 * 1024


def _lookup(paths: KernelPaths, event_id: str) -> tuple[str, int, int] | None:
    """The last by_id entry for ``event_id``: (partition, byte_offset, byte_len)."""
    found: tuple[str, int, int] | None = None
    needle = event_id.encode("utf-8")
    try:
        with open(paths.by_id_index, "rb") as handle:
            for raw in iter_raw_lines(
                handle, offset=0, end=None, first_line=1, max_line_bytes=_MAX_INDEX_LINE
            ):
                if raw.data is not None and needle in raw.data:
                    found = _entry(raw.data, event_id) or found
    except OSError:
        return None
    return found


def _entry(line: bytes, event_id: str) -> tuple[str, int, int] | None:
    try:
        entry = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(entry, dict) or entry.get("event_id") != event_id:
        return None
    partition = entry.get("partition")
    offset, length = entry.get("byte_offset"), entry.get("byte_len")
    # The index is data, not a path to follow: accept only partition file names.
    if (
        isinstance(partition, str)
        and PARTITION_NAME.fullmatch(partition)
        and type(offset) is int
        and type(length) is int
        and offset >= 0
        and 0 < length <= _MAX_EVENT_BYTES
    ):
        return (partition, offset, length)
    return None


def _event_from(data: bytes, event_id: str) -> dict[str, Any] | None:
    for candidate in (data.strip(), data.split(b"\n", 1)[0].strip()):
        try:
            event = orjson.loads(candidate)
        except orjson.JSONDecodeError:
            continue
        if isinstance(event, dict) and event.get("id") == event_id:
            return event
    return None


def read_event_by_id(
    paths: KernelPaths, event_id: str, *, max_line_bytes: int = 4 * 1024 * 1024
) -> dict[str, Any] | None:
    """The event with ``id == event_id``, or None.

    Looks the id up in by_id.jsonl (later lines win), reads ``byte_len`` bytes at
    ``byte_offset`` of the named partition and checks the id (whole slice, then its
    first line); on mismatch scans that partition file linearly. Ids that are not
    in the index are not searched for.
    """
    entry = _lookup(paths, event_id)
    if entry is None:
        return None
    partition, offset, length = entry
    path = paths.events_dir / partition
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        data = os.pread(fd, length, offset)
    finally:
        os.close(fd)
    event = _event_from(data, event_id)
    if event is not None:
        return event
    stats = ReadStats()
    for record in iter_day(path, stats, max_line_bytes):
        if record.event.get("id") == event_id:
            return record.event
    return None
