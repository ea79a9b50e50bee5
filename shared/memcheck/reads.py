"""Reads under ``memory/`` that remember failed paths (the "clean" rule of docs/formats.md §8.1)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from shared.kernel.files import open_regular

_MISSING = {errno.ENOENT, errno.ENOTDIR}


class MemoryReads:
    """File access for one lint sub-step.

    A missing file is not an error; any other failure (EACCES, EISDIR, ...) is recorded
    in ``unreadable`` and makes the sub-step unclean, which suppresses the sweep.
    """

    def __init__(self, memory_dir: Path) -> None:
        self.memory_dir = memory_dir
        self.unreadable: list[str] = []

    def _note(self, path: Path, exc: OSError) -> None:
        if exc.errno not in _MISSING:
            self.unreadable.append(f"{path}: {exc.strerror or exc}")

    def text(self, rel: str) -> str | None:
        """UTF-8 text (undecodable bytes replaced, as Node reads them) or None."""
        path = self.memory_dir / rel
        try:
            # never a blocking open: a FIFO planted under memory/ would hang the tick
            with open_regular(path) as handle:
                return handle.read().decode("utf-8", errors="replace")
        except OSError as exc:
            self._note(path, exc)
            return None

    def is_file(self, rel: str) -> bool:
        """A regular file (following symlinks, like ``statSync().isFile()``)."""
        path = self.memory_dir / rel
        try:
            return stat.S_ISREG(os.stat(path).st_mode)
        except OSError as exc:
            self._note(path, exc)
            return False

    def is_dir(self, rel: str = "") -> bool:
        path = self.memory_dir / rel if rel else self.memory_dir
        try:
            return stat.S_ISDIR(os.stat(path).st_mode)
        except OSError as exc:
            self._note(path, exc)
            return False

    def mtime_ms(self, rel: str) -> float:
        """Modification time in ms, 0 when stat fails."""
        path = self.memory_dir / rel
        try:
            return os.stat(path).st_mtime_ns / 1_000_000
        except OSError as exc:
            self._note(path, exc)
            return 0.0

    def md_names(self, rel_dir: str) -> list[str]:
        """``*.md`` entry names of a directory, code-unit sorted ([] when unreadable)."""
        path = self.memory_dir / rel_dir
        try:
            names = os.listdir(path)
        except OSError as exc:
            self._note(path, exc)
            return []
        return sorted((n for n in names if n.endswith(".md")), key=lambda n: n.encode("utf-16-be"))
