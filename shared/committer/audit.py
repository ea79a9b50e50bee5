"""The committer's audit trail (docs/formats.md §11.5).

One compact JSON object per decision, appended to
``var/subconscious/memory-committer/audit/<YYYY-MM-DD>.jsonl`` (UTC date of the
record) and, when a Redis client is available, published on a stream.

Appends are one ``write`` of whole lines on an ``O_APPEND`` descriptor under an
exclusive flock, then fsync: an append-only log cannot be rewritten atomically
without copying it, and a crash can at worst leave a final line without its LF,
which :func:`parse_audit_line` callers skip.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from shared.errors import InputError
from shared.jsontext import compact
from shared.kernel.paths import KernelPaths
from shared.timestamps import iso, parse_iso


@dataclass(frozen=True)
class AuditRecord:
    """One committer decision. ``line``/``gate``/``rule``/``quote`` are set for rejected
    lines (``rule``: the id of the rule that rejected it, ``<gate>.<rule>``; ``reading``:
    the reading of the line it decided on, when its gate read the line more than one way;
    both absent from records written before they existed, read back as None)."""

    decision: str
    ts: str = field(default_factory=iso)
    tick: int | None = None
    fence: int | None = None
    kernel: str = ""
    file: str | None = None
    line: int | None = None
    gate: str | None = None
    rule: str | None = None
    reading: str | None = None
    reason: str | None = None
    quote: str | None = None
    commit: str | None = None
    duration_ms: int | None = None
    dry_run: bool = False

    def to_json(self) -> dict[str, Any]:
        """All fields, explicit nulls kept (records are read back by key)."""
        return {name: getattr(self, name) for name in _FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AuditRecord:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        if "decision" not in known:
            raise ValueError("missing key 'decision'")
        return cls(**known)


_FIELDS = tuple(f.name for f in fields(AuditRecord))


def render_audit_line(record: AuditRecord) -> str:
    """Compact JSON + LF."""
    return compact(record.to_json()) + "\n"


def parse_audit_line(
    text: str, path: str | Path | None = None, lineno: int | None = None
) -> AuditRecord:
    """Parse one audit JSONL line.

    Raises:
        InputError: not a JSON object with a ``decision`` key ("path:line: reason").
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError(path, lineno, f"malformed audit line: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(path, lineno, "audit line is not a JSON object")
    try:
        return AuditRecord.from_json(data)
    except (TypeError, ValueError) as exc:
        raise InputError(path, lineno, f"bad audit record: {exc}") from exc


def audit_file(paths: KernelPaths, date: str) -> Path:
    return paths.audit_dir / f"{date}.jsonl"


class AuditLog:
    """Appends audit records to the per-day JSONL files."""

    def __init__(self, paths: KernelPaths) -> None:
        self.paths = paths

    def append(self, records: Iterable[AuditRecord]) -> list[Path]:
        """Append ``records`` grouped by their UTC date; returns the files written."""
        by_day: dict[str, list[str]] = {}
        for record in records:
            by_day.setdefault(record.ts[:10], []).append(render_audit_line(record))
        written = []
        for day, lines in sorted(by_day.items()):
            path = audit_file(self.paths, day)
            path.parent.mkdir(parents=True, exist_ok=True)
            data = "".join(lines).encode("utf-8")
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                _repair_tail(fd)
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            written.append(path)
        return written


def _repair_tail(fd: int) -> None:
    """If a crash left a final line without LF, end it so the next line stays whole."""
    size = os.fstat(fd).st_size
    if size == 0:
        return
    if os.pread(fd, 1, size - 1) != b"\n":
        os.write(fd, b"\n")


def iter_audit_file(path: Path) -> Iterator[AuditRecord]:
    """Records of one audit file in order; blank lines skipped.

    Raises:
        InputError: a malformed line ("path:line: reason").
    """
    with open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(path, lineno, "audit line is not UTF-8") from exc
            yield parse_audit_line(text, path, lineno)


def read_audit(
    paths: KernelPaths, since: str | None = None, file: str | None = None
) -> list[AuditRecord]:
    """Audit records with ``ts >= since`` (ISO timestamp or date), optionally for one file.

    Raises:
        InputError: a malformed audit line, or ``since`` is not an ISO date/timestamp.
    """
    cutoff = None
    if since:
        try:
            cutoff = parse_iso(since if "T" in since else f"{since}T00:00:00Z")
        except ValueError as exc:
            raise InputError(None, None, f"--since {since!r} is not an ISO date or time") from exc
    if not paths.audit_dir.is_dir():
        return []
    records: list[AuditRecord] = []
    for path in sorted(paths.audit_dir.glob("*.jsonl")):
        if cutoff is not None and path.stem < cutoff.strftime("%Y-%m-%d"):
            continue
        for record in iter_audit_file(path):
            if file is not None and record.file != file:
                continue
            if cutoff is not None and parse_iso(record.ts) < cutoff:
                continue
            records.append(record)
    return records


def publish(client: Any, stream: str, records: Iterable[AuditRecord], maxlen: int) -> int:
    """XADD each record (field ``record`` = compact JSON, plus ``decision``) with
    ``MAXLEN ~ maxlen``; returns how many were published."""
    count = 0
    pipe = client.pipeline(transaction=False)
    for record in records:
        fields = {"decision": record.decision, "record": compact(record.to_json())}
        pipe.xadd(stream, fields, maxlen=maxlen, approximate=True)
        count += 1
    if count:
        pipe.execute()
    return count
