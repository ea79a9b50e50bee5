"""One import run: read what is new in each transcript file and append it to the spine.

For every file of every source (a file, or a directory walked for the format's file
names), the run compares the file with its watermark: an unchanged file (same device,
inode, size and mtime) is not opened. Otherwise the format's reader continues from the
saved :class:`~shared.importing.records.ReadState`; its utterances become spine events
(``envelope``: redacted, capped, stable ids) and are appended in batches, each under the
spine's append lock, between a journal entry and the new watermark:

1. journal (``Mark.pending``): the size of every day file and index the batch touches;
2. append the batch (``append_batch``: day files, then indexes);
3. save the watermark past the batch, without the journal.

A run that finds a journal was killed inside a batch: it reads the day files past the
journalled sizes, writes none of the events found there again, and indexes any the
indexes lack. So a kill at any point is completed by the next run without duplicates.

A file whose bytes before the watermark changed (replaced, truncated) is read again from
the start, writing only events its session does not already have (found through the
session index). A last record still being written is left for the next run unless the
file has been quiet for ``settle_seconds``.
"""

from __future__ import annotations

import copy
import fcntl
import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from shared.errors import ConfigError, InputError
from shared.importing.envelope import Cleaner, session_key, to_event
from shared.importing.records import FormatReader, Problem, ReadState, Utterance
from shared.importing.sources import Source, parse_sources, walk
from shared.importing.status import record_status
from shared.importing.watermark import Mark, Pending, head_hash, load_mark, save_mark
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.spine.event import event_date, ts_key
from shared.spine.writer import append_batch, append_lock, index_lines
from shared.testhooks import checkpoint
from shared.timestamps import iso

BATCH_EVENTS = 2000
BATCH_BYTES = 8 * 1024 * 1024
PROBLEMS_KEPT = 100
DEFAULT_SETTLE_SECONDS = 60.0


@dataclass
class FileReport:
    """What one file gave in this run."""

    path: str
    fmt: str
    events: int = 0
    user_events: int = 0
    unchanged: bool = False
    restarted: bool = False
    recovered: int = 0


@dataclass
class ImportReport:
    """What a run did, for the CLI, ``--json``, the tick and ``status``."""

    sources: list[dict[str, Any]] = field(default_factory=list)
    files: list[FileReport] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0
    redacted: Counter[str] = field(default_factory=Counter)
    cut_chars: int = 0
    blobs: int = 0
    started_at: str = ""
    finished_at: str = ""

    @property
    def events(self) -> int:
        return sum(f.events for f in self.files)

    @property
    def user_events(self) -> int:
        return sum(f.user_events for f in self.files)

    def note(self, problem: Problem | str) -> None:
        self.problem_count += 1
        if len(self.problems) < PROBLEMS_KEPT:
            self.problems.append(str(problem))

    def to_json(self) -> dict[str, Any]:
        read = [f for f in self.files if not f.unchanged]
        return {
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "sources": self.sources,
            "files_seen": len(self.files),
            "files_read": len(read),
            "files_unchanged": len(self.files) - len(read),
            "events_written": self.events,
            "user_events_written": self.user_events,
            "redacted": dict(sorted(self.redacted.items())),
            "characters_cut": self.cut_chars,
            "blobs_dropped": self.blobs,
            "problem_count": self.problem_count,
            "problems": list(self.problems),
            "files": [
                {
                    "path": f.path,
                    "format": f.fmt,
                    "events": f.events,
                    "restarted": f.restarted,
                    "recovered": f.recovered,
                }
                for f in read
            ],
        }


def run_import(
    paths: KernelPaths,
    sources: Iterable[Source],
    *,
    settle_seconds: float = DEFAULT_SETTLE_SECONDS,
    now: float | None = None,
) -> ImportReport:
    """Import what is new in every file of ``sources``; problems are reported, not raised.

    Raises:
        InputError: the runtime dir cannot be written (nothing can be imported at all).
    """
    report = ImportReport(started_at=iso())
    clock = time.time() if now is None else now
    for source in sources:
        before = (len(report.files), report.events, report.problem_count)
        try:
            files = list(walk(source, report.note))
        except InputError as exc:
            report.note(str(exc))
            files = []
        for path in files:
            report.files.append(
                _import_file(paths, source.reader, path, report, settle_seconds, clock)
            )
        report.sources.append(
            {
                "source": source.spec,
                "files": len(report.files) - before[0],
                "events": report.events - before[1],
                "problems": report.problem_count - before[2],
            }
        )
    report.finished_at = iso()
    return report


def _import_file(
    paths: KernelPaths,
    reader: FormatReader,
    path: Path,
    report: ImportReport,
    settle_seconds: float,
    clock: float,
) -> FileReport:
    out = FileReport(str(path), reader.name)
    try:
        mark = load_mark(paths, reader.name, path)
    except InputError as exc:
        report.note(str(exc))
        mark = Mark(fmt=reader.name, path=str(path))
    try:
        st = os.stat(path)
    except OSError as exc:
        report.note(Problem(str(path), 0, f"cannot read: {exc.strerror}"))
        return out
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if mark.pending is None and identity == (mark.dev, mark.ino, mark.size, mark.mtime_ns):
        out.unchanged = True  # not even opened
        return out
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, after the read
    except OSError as exc:
        report.note(Problem(str(path), 0, f"cannot read: {exc.strerror}"))
        return out
    with handle:
        head = head_hash(handle.read(mark.state.offset if 0 < mark.state.offset < 4096 else 4096))
        known: set[str] = set()
        if _replaced(reader, mark, st.st_size, head):
            report.note(
                Problem(
                    str(path),
                    0,
                    "changed before the point already imported: read "
                    "again from the start, writing only what its session lacks",
                )
            )
            known = _session_ids(paths, reader.name, mark.state.session_id)
            mark.state = ReadState()
            out.restarted = True
        if mark.pending is not None:
            recovered = _recover(paths, mark.pending)
            known |= recovered
            out.recovered = len(recovered)
        handle.seek(0)
        final = clock - st.st_mtime >= settle_seconds
        cleaner = Cleaner()
        fallback = iso(datetime.fromtimestamp(st.st_mtime, UTC))
        _stream(
            paths, reader, handle, str(path), mark, known, final, out, report, cleaner, fallback
        )
        report.redacted.update(cleaner.redacted)
        report.cut_chars += cleaner.cut_chars
        report.blobs += cleaner.blobs
        handle.seek(0)
        mark.head = head_hash(handle.read(min(mark.state.offset, 4096) or 4096))
    mark.dev, mark.ino, mark.mtime_ns = st.st_dev, st.st_ino, st.st_mtime_ns
    # The size the reader stopped at when it left a growing record for later, so the
    # next run opens the file again even if nothing more is appended.
    mark.size = st.st_size if final or mark.state.offset >= st.st_size else -1
    mark.pending = None
    mark.imported_at = iso()
    save_mark(paths, mark)
    return out


def _replaced(reader: FormatReader, mark: Mark, size: int, head: str) -> bool:
    if not reader.incremental or mark.state.offset == 0:
        return False
    return size < mark.state.offset or (bool(mark.head) and head != mark.head)


def _stream(
    paths: KernelPaths,
    reader: FormatReader,
    handle: Any,
    where: str,
    mark: Mark,
    known: set[str],
    final: bool,
    out: FileReport,
    report: ImportReport,
    cleaner: Cleaner,
    fallback_ts: str,
) -> None:
    batch: list[dict[str, Any]] = []
    size = 0
    record: str | None = None
    # Where the batch being gathered starts: the watermark a killed append rolls back to.
    start = copy.deepcopy(mark.state)
    for item in reader.read(handle, where, mark.state, final=final):
        if isinstance(item, Problem):
            report.note(item)
            continue
        base = item.record_id.split("#", 1)[0]
        if base != record:
            # mark.state now stands just before this record (see records.py).
            if batch and (len(batch) >= BATCH_EVENTS or size >= BATCH_BYTES):
                _write(paths, batch, mark, start, out)
                batch, size = [], 0
            if not batch:
                start = copy.deepcopy(mark.state)
            record = base
        event = _event(reader.name, item, mark, cleaner, fallback_ts)
        if event is None:
            report.note(Problem(where, item.line, f"unusable timestamp {item.ts!r}"))
            event = to_event(reader.name, item, mark.last_ts or fallback_ts, cleaner)
        if event["id"] in known:
            continue
        batch.append(event)
        size += sum(len(str(v)) for v in event["payload"].values())
    if batch:
        _write(paths, batch, mark, start, out)


def _event(
    fmt: str, utt: Utterance, mark: Mark, cleaner: Cleaner, fallback_ts: str
) -> dict[str, Any] | None:
    """The utterance's event at its own time, else the previous one's (else the file's
    mtime); None when its time is there but unreadable (the caller reports it)."""
    if utt.ts is None:
        return to_event(fmt, utt, mark.last_ts or fallback_ts, cleaner)
    ts = ts_key(utt.ts)
    if ts is None:
        return None
    mark.last_ts = ts
    return to_event(fmt, utt, ts, cleaner)


def _write(
    paths: KernelPaths, batch: list[dict[str, Any]], mark: Mark, start: ReadState, out: FileReport
) -> None:
    """Journal (the watermark at the batch's start, with the sizes it appends to), append,
    then save the watermark past the batch (see the module docstring)."""
    days = {f"{event_date(e['ts'])}.jsonl" for e in batch}
    with append_lock(paths):
        pending = Pending(
            days={d: _size(paths.events_dir / d) for d in sorted(days)},
            by_id=_size(paths.by_id_index),
            by_session=_size(paths.by_session_index),
        )
        save_mark(paths, replace(mark, state=start, pending=pending))
        checkpoint("import", mark.path)
        append_batch(paths, batch)
        mark.pending = None
        save_mark(paths, mark)
    out.events += len(batch)
    out.user_events += sum(1 for e in batch if e["type"] == "channel.message")
    mark.events += len(batch)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _recover(paths: KernelPaths, pending: Pending) -> set[str]:
    """Ids of the events a killed batch already wrote; indexes the ones the index lacks."""
    indexed = _ids_after(paths.by_id_index, pending.by_id, b"event_id")
    found: set[str] = set()
    by_id: list[str] = []
    by_session: list[str] = []
    with append_lock(paths):
        for day, start in pending.days.items():
            for event, offset, length in _events_after(paths.events_dir / day, start):
                event_id_ = event.get("id")
                if not isinstance(event_id_, str):
                    continue
                found.add(event_id_)
                if event_id_ not in indexed:
                    line_id, line_session = index_lines(event, day, offset, length)
                    by_id.append(line_id + "\n")
                    if line_session is not None:
                        by_session.append(line_session + "\n")
        if by_id:
            with open(paths.by_id_index, "ab") as handle:
                handle.write("".join(by_id).encode("utf-8"))
        if by_session:
            with open(paths.by_session_index, "ab") as handle:
                handle.write("".join(by_session).encode("utf-8"))
    return found


def _events_after(path: Path, start: int) -> Iterator[tuple[dict[str, Any], int, int]]:
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except FileNotFoundError:
        return
    with handle:
        handle.seek(start)
        offset = start
        for line in handle:
            length = len(line)
            if line.endswith(b"\n"):
                try:
                    value = orjson.loads(line)
                except orjson.JSONDecodeError:
                    value = None
                if isinstance(value, dict):
                    yield value, offset, length
            offset += length


def _ids_after(path: Path, start: int, key: bytes) -> set[str]:
    ids: set[str] = set()
    for value, _, _ in _events_after(path, start):
        found = value.get(key.decode())
        if isinstance(found, str):
            ids.add(found)
    return ids


def _session_ids(paths: KernelPaths, fmt: str, session_id: str | None) -> set[str]:
    """Ids the spine already holds for ``fmt``'s session (a linear read of the index)."""
    if session_id is None:
        return set()
    wanted = session_key(fmt, session_id)
    ids: set[str] = set()
    for value, _, _ in _events_after(paths.by_session_index, 0):
        if value.get("session_key") == wanted and isinstance(value.get("event_id"), str):
            ids.add(value["event_id"])
    return ids


@contextmanager
def import_lock(paths: KernelPaths) -> Iterator[None]:
    """One import at a time per runtime (a tick and ``subcon import`` never read the
    same watermark at once); released when its holder dies."""
    paths.import_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(paths.import_dir / ".import.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def import_and_record(
    paths: KernelPaths, sources: list[Source], *, settle_seconds: float
) -> ImportReport:
    """:func:`run_import` under the import lock, then the per-source status ``status``
    shows (last import, what it wrote, its problems)."""
    with import_lock(paths):
        report = run_import(paths, sources, settle_seconds=settle_seconds)
        record_status(paths, report)
    return report


def import_configured(paths: KernelPaths, settings: Settings) -> dict[str, Any] | None:
    """The import a tick runs first: every ``SUBCON_IMPORT`` source (None when unset).

    Never raises for a source's trouble: a bad setting or an unreadable source is
    reported in the summary (and in ``status``), and the tick goes on.
    """
    try:
        sources = parse_sources(settings.import_sources)
    except ConfigError as exc:
        return {"error": str(exc)}
    if not sources:
        return None
    report = import_and_record(paths, sources, settle_seconds=settings.import_settle_seconds)
    doc = report.to_json()
    return {
        "events_written": doc["events_written"],
        "files_read": doc["files_read"],
        "problem_count": doc["problem_count"],
        "problems": doc["problems"][:5],
    }
