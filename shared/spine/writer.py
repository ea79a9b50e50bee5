"""Append events to the spine as the original runtime does (docs/formats.md §4.2, §4.3).

For runtimes other than the original (which appends itself): the envelope, the
UTC-date partition, both index files, one fcntl lock serialising appenders
across processes, and fsync before returning.
"""

from __future__ import annotations

import fcntl
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.event import event_date, render_event, ts_key
from shared.testhooks import checkpoint
from shared.timestamps import iso

LOCK_NAME = "spine-append.lock"


def make_envelope(fields: dict[str, Any], now: datetime | None = None) -> dict[str, Any]:
    """``{...fields, id, ts}``: caller keys in caller order, then a fresh ``id``,
    then ``ts``.

    ``ts`` is written as ``toISOString()`` writes it (UTC, milliseconds, ``Z``), as
    the original's ``createSpineEvent`` always does: a caller's
    ``2026-01-05T01:00:00+08:00`` is stored as ``2026-01-04T17:00:00.000Z`` and goes
    to that UTC day and hour; without a ``ts``, ``now``. A caller's ``id`` is never
    kept (ids are unique only because the appender makes them).

    Raises:
        InputError: ``fields`` is not an object, or its ``ts`` is not a timestamp.
    """
    if not isinstance(fields, dict):
        raise InputError(None, None, "an event must be a JSON object")
    ts = fields.get("ts")
    if ts is None:
        ts = iso(now)
    elif not isinstance(ts, str):
        raise InputError(None, None, f"event ts must be a string, got {ts!r}")
    canonical = ts_key(ts)
    if canonical is None:
        raise InputError(None, None, f"event ts {ts!r} is not an ISO-8601 timestamp")
    event = {k: v for k, v in fields.items() if k not in ("id", "ts")}
    event["id"] = f"evt_{uuid.uuid4()}"
    event["ts"] = canonical
    return event


@contextmanager
def append_lock(paths: KernelPaths) -> Iterator[None]:
    """The lock every spine appender in any process holds (released when its holder dies)."""
    lock_dir = paths.events_index_dir
    lock_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_dir / f".{LOCK_NAME}", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def _append(path: Path, data: bytes) -> int:
    """Append ``data`` in one write, fsync, and return the offset it landed at."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        offset = os.fstat(fd).st_size
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    return offset


def append_event(
    paths: KernelPaths, fields: dict[str, Any], now: datetime | None = None
) -> dict[str, Any]:
    """Append one event to ``var/events/<UTC date of ts>.jsonl`` and index it.

    Returns the written event. by_id.jsonl always gets a line; by_session.jsonl
    only when ``session_key`` is truthy. Appenders in any process are serialised
    by a file lock so offsets in the indexes are exact.

    Raises:
        InputError: see :func:`make_envelope`; TypeError for non-JSON values.
    """
    event = make_envelope(fields, now)
    line = (render_event(event) + "\n").encode("utf-8")
    partition = f"{event_date(event['ts'])}.jsonl"
    paths.events_dir.mkdir(parents=True, exist_ok=True)
    with append_lock(paths):
        offset = _append(paths.events_dir / partition, line)
        by_id, by_session = index_lines(event, partition, offset, len(line))
        _append(paths.by_id_index, (by_id + "\n").encode("utf-8"))
        if by_session is not None:
            _append(paths.by_session_index, (by_session + "\n").encode("utf-8"))
    return event


def index_lines(
    event: dict[str, Any], partition: str, offset: int, length: int
) -> tuple[str, str | None]:
    """The ``by_id.jsonl`` line and (for a truthy ``session_key``) the
    ``by_session.jsonl`` line of an event written at ``offset`` (no trailing LF)."""
    position = {"partition": partition, "byte_offset": offset, "byte_len": length}
    by_id = _compact({"event_id": event["id"], **position})
    if not event.get("session_key"):
        return by_id, None
    session = {"session_key": event["session_key"], "event_id": event["id"], **position}
    return by_id, _compact({**session, "ts": event["ts"]})


def _compact(record: dict[str, Any]) -> str:
    """An index line: strings and integers only, so orjson writes ``JSON.stringify``'s
    bytes; a lone surrogate (which orjson refuses) takes :func:`render_event`."""
    try:
        return orjson.dumps(record).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return render_event(record)


def append_batch(paths: KernelPaths, events: list[dict[str, Any]]) -> None:
    """Append whole events (``id`` and a canonical ``ts`` already set) in order: one
    write and one fsync per day file, then one per index file.

    For bulk writers (the transcript import) that make their own stable ids and write
    no float: the lines are rendered by orjson, whose compact output is byte for byte
    ``JSON.stringify``'s for strings, integers, booleans and null (raw UTF-8, the same
    escapes); a text with a lone surrogate, which orjson refuses, falls back to
    :func:`render_event`. The caller holds :func:`append_lock`, so it can journal
    before and after. A process
    killed between the day files and the indexes leaves events the indexes lack; the
    import's recovery indexes them.
    """
    lines = [_line(e) for e in events]
    by_day: dict[str, list[int]] = {}
    for i, event in enumerate(events):
        by_day.setdefault(f"{event_date(event['ts'])}.jsonl", []).append(i)
    paths.events_dir.mkdir(parents=True, exist_ok=True)
    ids: list[str] = []
    sessions: list[str] = []
    for partition, members in by_day.items():
        offset = _append(paths.events_dir / partition, b"".join(lines[i] for i in members))
        for i in members:
            by_id, by_session = index_lines(events[i], partition, offset, len(lines[i]))
            offset += len(lines[i])
            ids.append(by_id + "\n")
            if by_session is not None:
                sessions.append(by_session + "\n")
    checkpoint("spine-index", str(paths.events_dir))
    _append(paths.by_id_index, "".join(ids).encode("utf-8"))
    if sessions:
        _append(paths.by_session_index, "".join(sessions).encode("utf-8"))


def _line(event: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(event, option=orjson.OPT_APPEND_NEWLINE)
    except (TypeError, orjson.JSONEncodeError):
        return (render_event(event) + "\n").encode("utf-8")
