"""Candidate selection: git status ∩ allowlist, then what evolved in each file.

Every path ``git status`` names (both sides of a rename) is classified; allowlisted
ones are read from the work tree with ``lstat`` (symlinks are never followed) and
compared with HEAD's blob. The result per file is one of: held (with a reason, no
review), trivial, unchanged, or a change to review (added / modified / deleted /
mode).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shared.committer.diffing import UNCHANGED, trivial_reason
from shared.committer.gitstate import TreeEntry, read_blobs
from shared.committer.status import StatusEntry
from shared.review.allowlist import FileKind, classify

# A work-tree file read but not yet compared with HEAD (never leaves this module).
PENDING = "pending"


@dataclass(frozen=True)
class Candidate:
    """One allowlisted changed path and what the work tree holds for it."""

    path: str
    kind: FileKind
    change: str  # added | modified | deleted | mode | unchanged | held
    mode: str | None = None
    data: bytes | None = None
    old_text: str = ""
    text: str = ""
    hold: str | None = None
    trivial: str | None = None


def split_paths(entries: list[StatusEntry]) -> tuple[list[str], list[str], list[str]]:
    """(allowlisted, outside-allowlist, unmerged) paths in status order, deduplicated."""
    seen: dict[str, None] = {}
    unmerged = []
    for entry in entries:
        if entry.ignored:
            continue
        if entry.unmerged:
            unmerged.append(entry.path)
        for p in entry.paths():
            seen.setdefault(p, None)
    allowed = [p for p in seen if classify(p) is not None]
    outside = [p for p in seen if classify(p) is None]
    return allowed, outside, unmerged


def _symlinked_parent(kernel: Path, path: str) -> str | None:
    current = kernel
    for part in path.split("/")[:-1]:
        current = current / part
        if current.is_symlink():
            return current.relative_to(kernel).as_posix()
    return None


def stageable(kernel: Path, path: str) -> bool:
    """True when ``git add`` may safely be pointed at ``path`` (no symlinked parent,
    not a directory entry such as an embedded repository)."""
    return not path.endswith("/") and _symlinked_parent(kernel, path) is None


def _symlink_reason(kernel: Path, target: Path) -> str:
    try:
        link = os.readlink(target)
    except OSError:
        link = "?"
    resolved = os.path.realpath(target)
    inside = resolved == os.path.realpath(kernel) or resolved.startswith(
        os.path.realpath(kernel) + os.sep
    )
    where = "inside" if inside else "outside"
    return f"symlink: not followed or committed (points {where} the kernel: {link})"


def _decode(data: bytes) -> tuple[str | None, str | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, f"input: not UTF-8 text (line {line})"


def load_candidates(
    kernel: Path,
    allowed: list[str],
    head_tree: dict[str, TreeEntry],
    old_blobs: Callable[[], dict[str, bytes]] | None = None,
) -> list[Candidate]:
    """Read every allowlisted path's work-tree state and HEAD blob.

    ``old_blobs()`` returns HEAD's blobs of the allowlisted paths (the caller may have
    started that ``cat-file --batch`` in the background); by default they are read
    here with one batch.
    """
    firsts = [_from_work_tree(kernel, path, head_tree.get(path)) for path in allowed]
    need = [head_tree[c.path].sha for c in firsts if c.change == PENDING and c.path in head_tree]
    blobs = old_blobs() if old_blobs is not None else read_blobs(kernel, need)
    return [
        _against_head(c, head_tree.get(c.path), blobs) if c.change == PENDING else c for c in firsts
    ]


def _from_work_tree(kernel: Path, path: str, old: TreeEntry | None) -> Candidate:
    """What the work tree holds at ``path``: held (symlink, not a regular file, a
    non-file entry at HEAD), deleted, unchanged (gone on both sides), or its bytes
    with the change still ``pending`` until compared with HEAD."""
    kind = classify(path)
    assert kind is not None
    parent = _symlinked_parent(kernel, path)
    if parent is not None:
        hold = f"symlink: parent directory {parent} is a symlink"
        return Candidate(path, kind, "held", hold=hold)
    target = kernel / path
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return Candidate(path, kind, "deleted" if old is not None else "unchanged")
    if stat.S_ISLNK(st.st_mode):
        return Candidate(path, kind, "held", hold=_symlink_reason(kernel, target))
    if not stat.S_ISREG(st.st_mode):
        return Candidate(path, kind, "held", hold="not a regular file")
    if old is not None and old.mode not in ("100644", "100755"):
        return Candidate(path, kind, "held", hold=f"HEAD holds a non-file entry (mode {old.mode})")
    mode = "100755" if st.st_mode & stat.S_IXUSR else "100644"
    return Candidate(path, kind, PENDING, mode=mode, data=target.read_bytes())


def _against_head(c: Candidate, old: TreeEntry | None, blobs: dict[str, bytes]) -> Candidate:
    """A pending candidate compared with its HEAD blob: added, modified, mode-only,
    unchanged, or held when the work tree's bytes are not UTF-8."""
    assert c.data is not None
    text, bad = _decode(c.data)
    if text is None:
        return Candidate(c.path, c.kind, "held", hold=bad)
    if old is None:
        trivial = trivial_reason("", text)
        return Candidate(c.path, c.kind, "added", c.mode, c.data, "", text, trivial=trivial)
    old_text = blobs[old.sha].decode("utf-8", "replace")
    if old_text == text:
        change = "mode" if old.mode != c.mode else "unchanged"
        trivial = None if change == "mode" else UNCHANGED
        return Candidate(c.path, c.kind, change, c.mode, c.data, old_text, text, None, trivial)
    trivial = trivial_reason(old_text, text)
    return Candidate(c.path, c.kind, "modified", c.mode, c.data, old_text, text, trivial=trivial)
