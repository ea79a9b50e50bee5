"""The board's history from git (plus the uncommitted working tree), line by line.

Every commit that touched ``memory/CLAUDE.md`` is read with one ``git log`` and every
version of the file with one ``git cat-file --batch`` (both through the one git funnel,
``shared.kernel.git``). Consecutive versions are compared by line identity: a line's node
marker (``[[lesson-*]]``/``[[groove-*]]``/``[[pattern-*]]``) is its stable key, so a
marked line whose text changed is a *rewrite*; an unmarked line is keyed by its text's
hash, and an unmarked line replaced in place (same position in a diff) is a rewrite too.
The weaver's run log supplies the reason for each change where it recorded one.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from shared.committer.gitstate import head_commit, repo_info
from shared.errors import GitError
from shared.formats.board import Board, BoardLine, parse_board
from shared.kernel.git import run_git
from shared.report.model import ChangeKind
from shared.timestamps import iso, parse_iso

BOARD_PATH = "memory/CLAUDE.md"
_COUNTS_RE = re.compile(
    r"strengthening\s*=\s*(\d+);\s*neutral\s*=\s*(\d+);\s*weakening\s*=\s*(\d+)"
)
# "<ref> <action> (<reason>)", or the updater's summary "<ref> <action> [<class>]: ...".
_CHANGE_RE = re.compile(
    r"^(?:memory/CLAUDE\.md:L(\d+)|new) (\w+)(?: \((.*)\)|((?: \[[\w-]+\])?: .*))$", re.S
)
_ACTIONS = {
    "add": ChangeKind.ADD,
    "rewrite": ChangeKind.REWRITE,
    "repair": ChangeKind.REWRITE,
    "remove": ChangeKind.REMOVE,
}


@dataclass(frozen=True)
class Version:
    """One version of the board: ``commit`` None for the working tree."""

    commit: str | None
    date: str
    subject: str
    body: str
    board: Board


@dataclass(frozen=True)
class RawChange:
    """A line change between two versions, before a reason is attached."""

    key: str
    kind: ChangeKind
    version: Version
    previous_date: str | None
    old: BoardLine | None
    new: BoardLine | None
    line_key: str  # the line's key in the version it is read from (new, else old)


@dataclass(frozen=True)
class WeaverChange:
    """One ``line_changes`` entry of a weaver run report."""

    ts: str
    number: int | None
    kind: ChangeKind
    reason: str
    marker: str | None


@dataclass(frozen=True)
class Commit:
    commit: str
    date: str
    subject: str
    files: int


def _git_date(text: str) -> str:
    try:
        return iso(parse_iso(text.strip()))
    except ValueError:
        return text.strip()


def line_keys(lines: Iterable[BoardLine]) -> dict[int, str]:
    """Line number -> identity across versions: the line's marker when no other line of
    the same version carries it, else its text hash (``h:<hash>``; a repeated text gets
    ``#2``, ``#3``... in order), so two lines never share a key."""
    lines = list(lines)
    markers: dict[str, int] = {}
    for line in lines:
        if line.marker:
            markers[line.marker] = markers.get(line.marker, 0) + 1
    out: dict[int, str] = {}
    seen: dict[str, int] = {}
    for line in lines:
        if line.marker and markers[line.marker] == 1:
            out[line.number] = line.marker
            continue
        key = f"h:{line.hash}"
        seen[key] = seen.get(key, 0) + 1
        out[line.number] = key if seen[key] == 1 else f"{key}#{seen[key]}"
    return out


def _batch(kernel: Path, revs: list[str]) -> dict[str, str | None]:
    """``rev -> text`` (None when the object is missing) with one ``cat-file --batch``."""
    if not revs:
        return {}
    result = run_git(kernel, "cat-file", "--batch", stdin=("\n".join(revs) + "\n").encode())
    data = result.stdout.encode("utf-8", "surrogateescape")
    out: dict[str, str | None] = {}
    pos = 0
    for rev in revs:
        end = data.index(b"\n", pos)
        header = data[pos:end].decode("utf-8", "replace").split(" ")
        pos = end + 1
        if len(header) != 3 or header[1] != "blob":
            out[rev] = None
            continue
        size = int(header[2])
        out[rev] = data[pos : pos + size].decode("utf-8", "replace")
        pos += size + 1
    return out


def is_repo(kernel: Path) -> bool:
    """True when the kernel is its own repository (docs/formats.md §3.4) with a commit; a
    kernel nested in some other repository must not show that repository's history."""
    return repo_info(kernel) is not None and head_commit(kernel) is not None


def board_versions(kernel: Path, working_text: str | None, working_date: str) -> list[Version]:
    """Committed versions of the board, oldest first, then the working tree's version
    (``working_text``; ``""`` for a deleted board) when it differs from HEAD's; None
    means the working tree is unknown (unreadable) and adds no version. No repository
    (or no commit yet): the working tree only."""
    versions: list[Version] = []
    if is_repo(kernel):
        log = run_git(kernel, "log", "--format=%x1e%H%x00%cI%x00%s%x00%b", "--", BOARD_PATH).stdout
        records = [r for r in log.split("\x1e") if r.strip()]
        metas = []
        for record in reversed(records):
            parts = record.split("\x00")
            if len(parts) < 4:
                continue
            metas.append((parts[0].strip(), _git_date(parts[1]), parts[2], parts[3].strip()))
        texts = _batch(kernel, [f"{m[0]}:{BOARD_PATH}" for m in metas])
        for commit, date, subject, body in metas:
            text = texts.get(f"{commit}:{BOARD_PATH}")
            versions.append(Version(commit, date, subject, body, parse_board(text or "")))
    if working_text is not None:
        head_text = versions[-1].board.text if versions else None
        if head_text is None or working_text != head_text:
            versions.append(
                Version(
                    None,
                    working_date,
                    "working tree (not committed)",
                    "",
                    parse_board(working_text),
                )
            )
    return versions


def _pairs(
    old: list[BoardLine], new: list[BoardLine], old_keys: dict[int, str], new_keys: dict[int, str]
) -> dict[str, str]:
    """Hash-keyed lines replaced in place: new key -> old key (a rewrite, not
    remove + add)."""
    a = [old_keys[x.number] for x in old]
    b = [new_keys[x.number] for x in new]
    out: dict[str, str] = {}
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        gone = [k for k in a[i1:i2] if k.startswith("h:") and k not in b]
        came = [k for k in b[j1:j2] if k.startswith("h:") and k not in a]
        for o, n in zip(gone, came, strict=False):
            out[n] = o
    return out


def _rekeyed(
    old_by: dict[str, BoardLine],
    new_by: dict[str, BoardLine],
    paired: dict[str, str],
    alias: dict[str, str],
) -> None:
    """Pair (in ``paired``, ``alias``) each new line whose text an unmatched old line
    had under another key: a marker became shared or unique again, the same line."""
    unmatched_old = {x.hash: k for k, x in old_by.items() if k not in new_by}
    for key, line in new_by.items():
        if key not in old_by and key not in paired and line.hash in unmatched_old:
            old_key = unmatched_old.pop(line.hash)
            alias[key] = alias.get(old_key, old_key)
            paired[key] = old_key


def _version_changes(
    previous: Version | None, version: Version, alias: dict[str, str]
) -> list[RawChange]:
    """The changes from ``previous`` to ``version``, updating ``alias``."""
    changes: list[RawChange] = []
    old_lines = list(previous.board.lines) if previous else []
    new_lines = list(version.board.lines)
    old_keys, new_keys = line_keys(old_lines), line_keys(new_lines)
    old_by = {old_keys[x.number]: x for x in old_lines}
    new_by = {new_keys[x.number]: x for x in new_lines}
    paired = _pairs(old_lines, new_lines, old_keys, new_keys)
    _rekeyed(old_by, new_by, paired, alias)
    prev_date = previous.date if previous else None
    for key, line in new_by.items():
        if key in old_by:
            if old_by[key].text != line.text:
                hist = alias.get(key, key)
                changes.append(
                    RawChange(hist, ChangeKind.REWRITE, version, prev_date, old_by[key], line, key)
                )
        elif key in paired:
            hist = alias.get(paired[key], paired[key])
            alias[key] = hist
            if old_by[paired[key]].text == line.text:
                continue
            old = old_by[paired[key]]
            changes.append(RawChange(hist, ChangeKind.REWRITE, version, prev_date, old, line, key))
        else:
            alias.setdefault(key, key)
            changes.append(
                RawChange(alias[key], ChangeKind.ADD, version, prev_date, None, line, key)
            )
    gone_paired = set(paired.values())
    for key, line in old_by.items():
        if key not in new_by and key not in gone_paired:
            changes.append(
                RawChange(
                    alias.get(key, key), ChangeKind.REMOVE, version, prev_date, line, None, key
                )
            )
    return changes


def line_changes(versions: list[Version]) -> tuple[list[RawChange], dict[str, str]]:
    """Every add / rewrite / remove between consecutive versions, oldest first, and the
    alias map ``current key -> history key`` (a hash-keyed line keeps its first key
    across in-place rewrites). Keys are :func:`line_keys` of each version."""
    changes: list[RawChange] = []
    alias: dict[str, str] = {}
    previous: Version | None = None
    for version in versions:
        changes += _version_changes(previous, version, alias)
        previous = version
    return changes, alias


def parse_weaver_log(text: str) -> tuple[list[WeaverChange], int]:
    """Line changes recorded in one weaver report log file, and how many lines of it
    were not readable JSON objects (counted, skipped)."""
    out: list[WeaverChange] = []
    bad = 0
    for raw in text.split("\n"):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            bad += 1
            continue
        if not isinstance(record, dict) or not isinstance(record.get("ts"), str):
            bad += 1
            continue
        refs: dict[int, str] = {}
        for row in record.get("per_line") or []:
            if not isinstance(row, dict):
                continue
            ref, eff = str(row.get("ref", "")), str(row.get("effectiveness", ""))
            found = re.search(r":L(\d+)$", ref)
            if found and eff.startswith("memory/effectiveness/") and eff.endswith(".md"):
                refs[int(found.group(1))] = eff[len("memory/effectiveness/") : -3]
        for entry in record.get("line_changes") or []:
            match = _CHANGE_RE.match(str(entry))
            if not match or match.group(2) not in _ACTIONS:
                continue
            number = int(match.group(1)) if match.group(1) else None
            out.append(
                WeaverChange(
                    record["ts"],
                    number,
                    _ACTIONS[match.group(2)],
                    match.group(3) if match.group(3) is not None else match.group(4).lstrip(),
                    refs.get(number) if number is not None else None,
                )
            )
    return out, bad


def counts_in(reason: str | None) -> tuple[int, int, int] | None:
    """``(s, n, w)`` quoted in a reason (``strengthening = 1; neutral = 0; ...``)."""
    if not reason:
        return None
    match = _COUNTS_RE.search(reason)
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


def _plus_second(text: str) -> str:
    try:
        return iso(parse_iso(text) + timedelta(seconds=1))
    except ValueError:
        return text


def find_reason(change: RawChange, log: Iterable[WeaverChange]) -> WeaverChange | None:
    """The weaver's record of ``change``: same kind, logged after the previous version
    and no later than this one; matched by marker, else by the old line number, else
    (adds) by order."""
    start = change.previous_date or ""
    # git dates have whole seconds: a pass logged in the commit's own second counts.
    end = _plus_second(change.version.date) if change.version.commit is not None else "9999"
    line = change.old or change.new
    marker = line.marker if line else None
    candidates = [w for w in log if w.kind is change.kind and start < w.ts <= end]
    for w in reversed(candidates):
        if marker and w.marker == marker:
            return w
    if change.old is not None:
        for w in reversed(candidates):
            if w.marker is None and w.number == change.old.number:
                return w
    if change.kind is ChangeKind.ADD:
        adds = [w for w in candidates if w.number is None]
        return adds[-1] if adds else None
    return None


def recent_commits(kernel: Path, limit: int = 20) -> list[Commit]:
    """The latest ``limit`` commits of the kernel, newest first (none without a repo)."""
    if not is_repo(kernel):
        return []
    try:
        log = run_git(
            kernel, "log", f"-n{limit}", "--format=%x1e%H%x00%cI%x00%s", "--name-only"
        ).stdout
    except GitError:
        return []
    out = []
    for record in log.split("\x1e"):
        if not record.strip():
            continue
        head, _, names = record.partition("\n")
        parts = head.split("\x00")
        if len(parts) < 3:
            continue
        files = sum(1 for n in names.split("\n") if n.strip())
        out.append(Commit(parts[0], _git_date(parts[1]), parts[2], files))
    return out
