"""The committer allowlist and the file kinds that pick a review gate set."""

from __future__ import annotations

from enum import StrEnum


class FileKind(StrEnum):
    """What an allowlisted file is; decides the gate set and the commit scope."""

    BOARD = "board"  # memory/CLAUDE.md
    DOSSIER = "dossier"  # memory/entities/**
    TOPIC = "topic"  # memory/topics/**
    PROMPT = "prompt"  # subconscious/**/CLAUDE.md (not the root one)
    PLAYLIST = "playlist"  # subconscious/playlist.md
    CONFIG = "config"  # config/**/*.md


def classify(path: str) -> FileKind | None:
    """The kind of a repo-relative POSIX path, or None when it is outside the allowlist.

    The allowlist of docs/formats.md §11.1: ``memory/CLAUDE.md``, ``memory/entities/**``,
    ``memory/topics/**``, ``subconscious/**/CLAUDE.md`` except ``subconscious/CLAUDE.md``,
    ``subconscious/playlist.md``, ``config/**/*.md``. Case-sensitive, as git is.
    """
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    if path == "memory/CLAUDE.md":
        return FileKind.BOARD
    if len(parts) >= 3 and parts[0] == "memory" and parts[1] == "entities":
        return FileKind.DOSSIER
    if len(parts) >= 3 and parts[0] == "memory" and parts[1] == "topics":
        return FileKind.TOPIC
    if path == "subconscious/playlist.md":
        return FileKind.PLAYLIST
    if len(parts) >= 3 and parts[0] == "subconscious" and parts[-1] == "CLAUDE.md":
        return FileKind.PROMPT
    if len(parts) >= 2 and parts[0] == "config" and parts[-1].endswith(".md"):
        return FileKind.CONFIG
    return None


def kind_for_review(path: str) -> FileKind:
    """Gate-set kind for ``subcon review`` on arbitrary files (no git, any location).

    A file named ``CLAUDE.md`` directly under a ``memory/`` dir gets board rules, files
    under ``memory/entities/`` or ``memory/topics/`` get dossier rules; otherwise the
    kernel-relative allowlist decides; any other ``CLAUDE.md`` is a partition prompt and
    anything else is reviewed as a dossier.
    """
    parts = path.replace("\\", "/").split("/")
    for i in range(len(parts) - 1):
        if parts[i] != "memory":
            continue
        if parts[i + 1] == "CLAUDE.md" and i + 2 == len(parts):
            return FileKind.BOARD
        if parts[i + 1] == "entities" and i + 2 < len(parts):
            return FileKind.DOSSIER
        if parts[i + 1] == "topics" and i + 2 < len(parts):
            return FileKind.TOPIC
    for start in range(len(parts)):
        kind = classify("/".join(parts[start:]))
        if kind is not None:
            return kind
    return FileKind.PROMPT if parts[-1] == "CLAUDE.md" else FileKind.DOSSIER
