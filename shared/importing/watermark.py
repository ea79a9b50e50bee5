"""How far each transcript file was imported: one small JSON file per source file.

A mark names the file (format, absolute path), what it looked like when last read
(device, inode, size, mtime, a hash of its first bytes: an unchanged file is skipped
without being opened, a replaced one is noticed), the reader's :class:`ReadState`, and the
last timestamp written (the next record without a time of its own gets it).

``pending`` is the journal of a batch being appended: the size of every day file and
index it touches, written before the append. A run that finds one was killed while
appending: the events already in those day files past those sizes are not written
again, and any of them the indexes lack are indexed (see ``run``).

Marks live under ``<runtime>/var/subcon/import/marks/``, named by a hash of the format and
path, written atomically.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from shared.errors import InputError
from shared.importing.records import ReadState
from shared.importing.redaction import redact
from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths

HEAD_BYTES = 4096


@dataclass
class Pending:
    """Sizes before a batch append: day file name -> bytes, and both index files."""

    days: dict[str, int]
    by_id: int
    by_session: int


@dataclass
class Mark:
    fmt: str
    path: str
    dev: int = 0
    ino: int = 0
    size: int = 0
    mtime_ns: int = 0
    head: str = ""
    state: ReadState = field(default_factory=ReadState)
    last_ts: str | None = None
    events: int = 0
    imported_at: str | None = None
    pending: Pending | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, where: str) -> Mark:
        """Raises: InputError when the file is not a mark."""
        try:
            state = ReadState(**data["state"])
            pending = Pending(**data["pending"]) if data.get("pending") else None
            fields = {k: v for k, v in data.items() if k not in ("state", "pending")}
            return cls(**fields, state=state, pending=pending)
        except (TypeError, KeyError, AttributeError) as exc:
            raise InputError(where, None, f"not an import watermark ({exc})") from None


def marks_dir(paths: KernelPaths) -> Path:
    return paths.import_dir / "marks"


def mark_path(paths: KernelPaths, fmt: str, path: Path) -> Path:
    digest = hashlib.sha256(f"{fmt}\0{path}".encode("utf-8", "surrogateescape")).hexdigest()
    return marks_dir(paths) / f"{digest[:32]}.json"


def load_mark(paths: KernelPaths, fmt: str, path: Path) -> Mark:
    """The mark of ``path``, or a fresh one when it was never imported.

    Raises:
        InputError: the mark exists but is unreadable or not a mark.
    """
    where = mark_path(paths, fmt, path)
    try:
        data = orjson.loads(where.read_bytes())
    except FileNotFoundError:
        return Mark(fmt=fmt, path=str(path))
    except (OSError, orjson.JSONDecodeError) as exc:
        raise InputError(where, None, f"unreadable import watermark: {exc}") from None
    return Mark.from_json(data, str(where))


def save_mark(paths: KernelPaths, mark: Mark) -> None:
    """Write ``mark``; what a reader keeps between runs (``state.extra``: a tool's name,
    the line before an answer) is transcript text too, so it is redacted first."""
    doc = mark.to_json()
    doc["state"]["extra"] = {k: redact(v).text for k, v in mark.state.extra.items()}
    atomic_write_text(mark_path(paths, mark.fmt, Path(mark.path)), pretty(doc))


def head_hash(handle_bytes: bytes) -> str:
    return hashlib.sha256(handle_bytes[:HEAD_BYTES]).hexdigest()
