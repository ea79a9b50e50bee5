"""Parse ``git status --porcelain=v1 -z`` output (pure).

Entries are ``XY<space>PATH\\0``; renames and copies (``R``/``C`` in either column)
carry a second NUL-terminated field with the original path. With ``-z`` no path is
quoted, so any byte (spaces, newlines, leading dashes) survives.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.errors import InputError

# Unmerged combinations (git-status(1), "Short Format").
UNMERGED = frozenset({"DD", "AU", "UD", "UA", "DU", "AA", "UU"})


@dataclass(frozen=True)
class StatusEntry:
    """One porcelain entry: ``x`` = index column, ``y`` = work-tree column."""

    x: str
    y: str
    path: str
    orig_path: str | None = None

    @property
    def untracked(self) -> bool:
        return self.x == "?" and self.y == "?"

    @property
    def ignored(self) -> bool:
        return self.x == "!" and self.y == "!"

    @property
    def unmerged(self) -> bool:
        return self.x + self.y in UNMERGED

    @property
    def staged(self) -> bool:
        return self.x not in (" ", "?", "!")

    def paths(self) -> tuple[str, ...]:
        """Every path this entry touches (a rename's source too)."""
        return (self.path,) if self.orig_path is None else (self.path, self.orig_path)


def parse_status_z(text: str) -> list[StatusEntry]:
    """Parse porcelain v1 ``-z`` output into entries, in git's order.

    Raises:
        InputError: the output does not follow the format (truncated rename, short record).
    """
    fields = text.split("\0")
    if fields and fields[-1] == "":
        fields.pop()
    entries: list[StatusEntry] = []
    i = 0
    while i < len(fields):
        record = fields[i]
        if len(record) < 4 or record[2] != " ":
            raise InputError("git status", i + 1, f"malformed porcelain record {record!r}")
        x, y, path = record[0], record[1], record[3:]
        orig = None
        if x in "RC" or y in "RC":
            if i + 1 >= len(fields):
                raise InputError("git status", i + 1, f"rename without source: {record!r}")
            orig = fields[i + 1]
            i += 1
        entries.append(StatusEntry(x, y, path, orig))
        i += 1
    return entries
