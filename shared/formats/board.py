"""The broadcast board ``memory/CLAUDE.md`` parsed into judgeable lines.

A board line is a list item (``- ...``). Each carries its 1-based line number, its
exact text, a short content hash (the stable identity the scanner writes as
``source_line_hash``), its node markers (``[[lesson-*]]``, ``[[groove-*]]`` and the
legacy ``[[pattern-*]]``), every ``[[pointer]]``, and the trigger/direction cues the
scanner matches events against. Parsing is pure; :func:`read_board` is the thin reader.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from shared.kernel.files import read_utf8
from shared.language.text import pointer_targets, split_trigger, token_set

NODE_PREFIXES: tuple[str, ...] = ("lesson-", "groove-", "pattern-")
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")


def line_hash(text: str) -> str:
    """Short sha256 of a board line's exact text (12 hex digits)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class BoardLine:
    """One list item of the board."""

    number: int
    text: str
    hash: str
    markers: tuple[str, ...]
    pointers: tuple[str, ...]
    cues: frozenset[str]
    trigger: str = ""
    direction: str = ""
    direction_cues: frozenset[str] = field(default_factory=frozenset)

    @property
    def marker(self) -> str | None:
        """The first node marker target (e.g. ``lesson-foo``), the line's stable key."""
        return self.markers[0] if self.markers else None

    @property
    def ref(self) -> str:
        """``memory/CLAUDE.md:L<n>``."""
        return f"memory/CLAUDE.md:L{self.number}"


@dataclass(frozen=True)
class Board:
    """The board's raw text split into lines plus its judgeable list items."""

    text: str
    lines: tuple[BoardLine, ...]

    def by_marker(self, marker: str) -> BoardLine | None:
        """The first line carrying ``[[marker]]``, or None."""
        for line in self.lines:
            if marker in line.markers:
                return line
        return None

    def by_hash(self, digest: str) -> BoardLine | None:
        for line in self.lines:
            if line.hash == digest:
                return line
        return None

    def by_number(self, number: int) -> BoardLine | None:
        for line in self.lines:
            if line.number == number:
                return line
        return None

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:16]


def make_line(number: int, text: str) -> BoardLine:
    """Build a :class:`BoardLine` for ``text`` at 1-based ``number``."""
    pointers = tuple(pointer_targets(text))
    markers = tuple(p for p in pointers if p.startswith(NODE_PREFIXES))
    trigger, direction = split_trigger(text)
    cues = token_set(trigger) if trigger else token_set(direction)
    return BoardLine(
        number=number,
        text=text,
        hash=line_hash(text),
        markers=markers,
        pointers=pointers,
        cues=cues,
        trigger=trigger,
        direction=direction,
        direction_cues=token_set(direction),
    )


def parse_board(text: str) -> Board:
    """Parse board text. Front matter (if any) and headings are kept in ``text`` only.

    Lines inside fenced code blocks are not board lines.
    """
    lines: list[BoardLine] = []
    in_fence = False
    in_front = False
    for number, raw in enumerate(text.split("\n"), start=1):
        if number == 1 and raw.strip() == "---":
            in_front = True
            continue
        if in_front:
            if raw.strip() == "---":
                in_front = False
            continue
        if raw.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if not in_fence and _BULLET_RE.match(raw):
            lines.append(make_line(number, raw))
    return Board(text=text, lines=tuple(lines))


def read_board(path: Path) -> Board:
    """Read and parse ``memory/CLAUDE.md``; a missing board is an empty board.

    Raises:
        InputError: the file is not UTF-8.
    """
    return parse_board(read_utf8(path) or "")
