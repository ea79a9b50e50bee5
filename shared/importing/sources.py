"""Import sources: ``<format>:<path>`` entries, and the transcript files each one names.

A source is a file or a directory. A directory is walked (not following symlinks, so a
loop or a link out of the tree is never read) for the file names its format writes, in
sorted order so runs are repeatable; an explicitly named file is read whatever its name.
Entries come from ``subcon import --from FORMAT PATH…`` or from the ``SUBCON_IMPORT``
setting, a list separated by commas, semicolons or newlines
(``claude-code:~/.claude/projects, codex:~/.codex/sessions``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from shared.errors import ConfigError, InputError
from shared.importing.formats import FORMATS, reader
from shared.importing.records import FormatReader, Problem

_SEPARATORS = re.compile(r"[,;\n]")


@dataclass(frozen=True)
class Source:
    """One format and one path (a file or a directory of transcripts)."""

    fmt: str
    root: Path

    @property
    def spec(self) -> str:
        return f"{self.fmt}:{self.root}"

    @property
    def reader(self) -> FormatReader:
        return reader(self.fmt)


def parse_source(entry: str) -> Source:
    """``claude-code:~/.claude/projects`` as a :class:`Source` (``~`` expanded).

    Raises:
        ConfigError: no ``format:`` prefix, an unknown format, or an empty path.
    """
    fmt, sep, path = entry.strip().partition(":")
    fmt = fmt.strip()
    if not sep or fmt not in FORMATS or not path.strip():
        raise ConfigError(
            f"import source {entry.strip()!r} is not FORMAT:PATH with FORMAT one of "
            f"{', '.join(sorted(FORMATS))}"
        )
    return Source(fmt, Path(os.path.expanduser(path.strip())))


def parse_sources(setting: str | None) -> list[Source]:
    """Every entry of the ``SUBCON_IMPORT`` setting (none when unset or blank).

    Raises:
        ConfigError: an entry is not ``format:path`` (see :func:`parse_source`).
    """
    if not setting:
        return []
    return [parse_source(e) for e in _SEPARATORS.split(setting) if e.strip()]


def walk(source: Source, note: Callable[[Problem], None]) -> Iterator[Path]:
    """The transcript files of ``source``; unreadable directories are noted, not fatal.

    Raises:
        InputError: the source path does not exist.
    """
    root = source.root
    if root.is_file():
        yield root
        return
    if not root.is_dir():
        raise InputError(root, None, f"{source.fmt} source does not exist")
    matches = source.reader.matches

    def on_error(exc: OSError) -> None:
        note(Problem(str(exc.filename or root), 0, f"cannot list: {exc.strerror}"))

    for folder, dirs, files in os.walk(root, onerror=on_error):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder) / name
            if matches(path) and not path.is_symlink():
                yield path
