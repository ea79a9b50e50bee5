"""The commit message: ``<family>(<scope>): <what evolved>`` plus trailers (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.committer.diffing import LineStats
from shared.constants import COMMITTER
from shared.review.allowlist import FileKind

# kind -> (family, scope, noun singular, noun plural)
_SCOPES: dict[FileKind, tuple[str, str, str, str]] = {
    FileKind.BOARD: ("memory", "intuition", "broadcast line", "broadcast lines"),
    FileKind.DOSSIER: ("memory", "dossier", "entity dossier", "entity dossiers"),
    FileKind.TOPIC: ("memory", "topics", "topic node", "topic nodes"),
    FileKind.PROMPT: ("subconscious", "self-program", "partition prompt", "partition prompts"),
    FileKind.PLAYLIST: ("subconscious", "playlist", "partition playlist", "partition playlists"),
    FileKind.CONFIG: ("config", "channels", "channel descriptor", "channel descriptors"),
}
_FAMILY_ORDER = ("memory", "subconscious", "config")
_MAX_BODY_FILES = 40


@dataclass(frozen=True)
class CommittedFile:
    """One file in the commit: ``change`` is added / modified / deleted / mode."""

    path: str
    kind: FileKind
    change: str
    stats: LineStats | None = None
    # What the writer says each edit rests on (the updater's board edits: class and
    # "N new + M prior = T total evidence"); listed under the file in the body.
    notes: tuple[str, ...] = ()


def _count(n: int, singular: str, plural: str) -> str:
    return f"{n} {singular if n == 1 else plural}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _label(path: str, kind: FileKind) -> str:
    parts = path.split("/")
    if kind is FileKind.PROMPT and len(parts) >= 3:
        return parts[-2]
    name = parts[-1]
    return name[:-3] if name.endswith(".md") else name


def _board_phrase(files: Sequence[CommittedFile]) -> str:
    stats = LineStats(
        sum(f.stats.rewritten for f in files if f.stats),
        sum(f.stats.added for f in files if f.stats),
        sum(f.stats.removed for f in files if f.stats),
    )
    verbs = [
        (v, n)
        for v, n in (("rewrite", stats.rewritten), ("add", stats.added), ("remove", stats.removed))
        if n
    ]
    if not verbs:
        if any(f.change == "deleted" for f in files):
            return "remove the broadcast board"
        return "restructure broadcast board sections"
    first_verb, first_n = verbs[0]
    parts = [f"{first_verb} {_count(first_n, 'broadcast line', 'broadcast lines')}"]
    parts += [f"{v} {n}" for v, n in verbs[1:]]
    return _join(parts)


def _files_phrase(kind: FileKind, files: Sequence[CommittedFile]) -> str:
    _, _, singular, plural = _SCOPES[kind]
    verbs = {"added": "add", "modified": "revise", "deleted": "remove", "mode": "change mode of"}
    if len(files) == 1:
        f = files[0]
        if kind is FileKind.PLAYLIST:
            return f"{verbs[f.change]} the {singular}"
        return f"{verbs[f.change]} {singular} {_label(f.path, kind)}"
    parts = []
    first = True
    for change in ("added", "modified", "deleted", "mode"):
        n = sum(1 for f in files if f.change == change)
        if not n:
            continue
        parts.append(
            f"{verbs[change]} {_count(n, singular, plural)}" if first else f"{verbs[change]} {n}"
        )
        first = False
    return _join(parts)


def describe(files: Sequence[CommittedFile]) -> tuple[list[str], list[str], str]:
    """(families, scopes, one-line description of what evolved) for the committed files."""
    by_kind: dict[FileKind, list[CommittedFile]] = {}
    for f in files:
        by_kind.setdefault(f.kind, []).append(f)
    phrases = []
    scopes = []
    families: list[str] = []
    for kind in _SCOPES:
        group = by_kind.get(kind)
        if not group:
            continue
        family, scope, _, _ = _SCOPES[kind]
        scopes.append(scope)
        if family not in families:
            families.append(family)
        phrases.append(
            _board_phrase(group) if kind is FileKind.BOARD else _files_phrase(kind, group)
        )
    families.sort(key=_FAMILY_ORDER.index)
    return families, scopes, "; ".join(phrases)


def commit_message(files: Sequence[CommittedFile], tick: int | None) -> tuple[str, str]:
    """(subject, full message). Mixed families lead with ``memory(...)`` and add a
    ``Scopes:`` trailer; ``Meta-Tick:`` (when known) and ``Partition:`` trailers follow."""
    families, scopes, description = describe(files)
    family = families[0] if len(families) == 1 else "memory"
    subject = f"{family}({', '.join(scopes)}): {description}"
    if files and all(f.change == "deleted" and is_forget(f) for f in files):
        # The original's forget subjects (docs/formats.md §8.1).
        subject = (
            f"forget: {_label(files[0].path, files[0].kind)}, stale orphan never linked"
            if len(files) == 1
            else f"forget: {len(files)} stale orphan memory nodes"
        )
    body = []
    for f in files[:_MAX_BODY_FILES]:
        body.append(f"- {f.path}: {f.change}")
        body += [f"  - {note}" for note in f.notes]
    if len(files) > _MAX_BODY_FILES:
        body.append(f"- ... and {len(files) - _MAX_BODY_FILES} more")
    trailers = []
    if len(families) > 1:
        trailers.append(f"Scopes: {', '.join(families)}")
    if tick is not None:
        trailers.append(f"Meta-Tick: {tick}")
    trailers.append(f"Partition: {COMMITTER}")
    message = subject + "\n\n" + "\n".join(body) + "\n\n" + "\n".join(trailers) + "\n"
    return subject, message


def is_forget(f: CommittedFile) -> bool:
    """A deletion the memory check's forget pass made (its note says so)."""
    return any(note.startswith("forget:") for note in f.notes)
