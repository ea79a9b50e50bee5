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
    firsts: list[Candidate] = []
    need: list[str] = []
    for path in allowed:
        kind = classify(path)
        assert kind is not None
        old = head_tree.get(path)
        parent = _symlinked_parent(kernel, path)
        if parent is not None:
            firsts.append(
                Candidate(
                    path, kind, "held", hold=f"symlink: parent directory {parent} is a symlink"
                )
            )
            continue
        target = kernel / path
        try:
            st = os.lstat(target)
        except FileNotFoundError:
            change = "deleted" if old is not None else "unchanged"
            firsts.append(Candidate(path, kind, change))
            continue
        if stat.S_ISLNK(st.st_mode):
            firsts.append(Candidate(path, kind, "held", hold=_symlink_reason(kernel, target)))
            continue
        if not stat.S_ISREG(st.st_mode):
            firsts.append(Candidate(path, kind, "held", hold="not a regular file"))
            continue
        if old is not None and old.mode not in ("100644", "100755"):
            firsts.append(
                Candidate(path, kind, "held", hold=f"HEAD holds a non-file entry (mode {old.mode})")
            )
            continue
        mode = "100755" if st.st_mode & stat.S_IXUSR else "100644"
        data = target.read_bytes()
        firsts.append(Candidate(path, kind, "pending", mode=mode, data=data))
        if old is not None:
            need.append(old.sha)
    blobs = old_blobs() if old_blobs is not None else read_blobs(kernel, need)
    out = []
    for c in firsts:
        if c.change != "pending":
            out.append(c)
            continue
        assert c.data is not None
        text, bad = _decode(c.data)
        if text is None:
            out.append(Candidate(c.path, c.kind, "held", hold=bad))
            continue
        old = head_tree.get(c.path)
        if old is None:
            trivial = trivial_reason("", text)
            out.append(
                Candidate(c.path, c.kind, "added", c.mode, c.data, "", text, trivial=trivial)
            )
            continue
        old_text = blobs[old.sha].decode("utf-8", "replace")
        if old_text == text:
            change = "mode" if old.mode != c.mode else "unchanged"
            trivial = None if change == "mode" else UNCHANGED
            out.append(
                Candidate(c.path, c.kind, change, c.mode, c.data, old_text, text, None, trivial)
            )
            continue
        trivial = trivial_reason(old_text, text)
        out.append(
            Candidate(c.path, c.kind, "modified", c.mode, c.data, old_text, text, trivial=trivial)
        )
    return out
