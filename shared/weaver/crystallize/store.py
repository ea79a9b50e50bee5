"""Fragments on disk: enumerate, read, and resolve each to its board line marker."""

from __future__ import annotations

import errno
import re
from dataclasses import dataclass
from pathlib import Path

from shared.errors import InputError
from shared.formats.board import Board
from shared.formats.fragments import Fragment, read_fragment
from shared.kernel.files import atomic_write_text, open_regular
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.weaver.judging.verdicts import Trajectory

_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class StoredFragment:
    """A fragment file: kernel-relative path (``memory/fragments/<date>/<name>``)."""

    rel: str
    path: Path
    fragment: Fragment


def rel_path(paths: KernelPaths, path: Path) -> str:
    """``path`` relative to the kernel dir, with ``/`` separators."""
    return path.relative_to(paths.kernel).as_posix()


def load_fragments(paths: KernelPaths) -> tuple[list[StoredFragment], list[str]]:
    """Every readable fragment under ``memory/fragments/<date>/`` in path order, plus
    ``"path:line: reason"`` strings for files that could not be parsed (skipped)."""
    found: list[StoredFragment] = []
    errors: list[str] = []
    root = paths.fragments_dir
    if not root.is_dir():
        return found, errors
    for day in sorted(p for p in root.iterdir() if p.is_dir() and _DATE_RE.fullmatch(p.name)):
        for file in sorted(day.iterdir()):
            if file.name.startswith(".") or not file.name.endswith(".md") or not file.is_file():
                continue
            try:
                frag = read_fragment(file)
            except InputError as exc:
                errors.append(str(exc))
                continue
            except OSError as exc:
                errors.append(f"{file}: unreadable: {exc.strerror}")
                continue
            found.append(StoredFragment(rel_path(paths, file), file, frag))
    return found, errors


def resolve_marker(frag: Fragment, board: Board) -> str | None:
    """The node marker a fragment's evidence belongs to: its recorded marker, else
    the marker of the board line with its hash, else of the line at its number."""
    if frag.trajectory == Trajectory.NEW_SIGNAL or frag.claude_md_ref == "none":
        return None
    if frag.marker:
        return frag.marker
    if frag.source_line_hash:
        line = board.by_hash(frag.source_line_hash)
        if line is not None:
            return line.marker
    number = frag.line_number
    if number is not None:
        line = board.by_number(number)
        if line is not None and (not frag.source_line_hash or frag.source_line_hash == line.hash):
            return line.marker
    return None


def write_if_changed(path: Path, text: str, lease: Lease) -> bool:
    """Atomically write ``text`` unless ``path`` already holds exactly it."""
    try:
        # not a blocking read: a FIFO planted here is simply replaced by the write
        with open_regular(path) as handle:
            if handle.read() == text.encode("utf-8"):
                return False
    except FileNotFoundError:
        pass
    except OSError as exc:
        if exc.errno != errno.EINVAL:
            raise
    lease.ensure()
    atomic_write_text(path, text)
    return True
