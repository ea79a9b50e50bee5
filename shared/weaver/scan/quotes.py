"""Board lines a user quotes: "the rule says 'run the tests before committing'".

Quoting a line's own words is the most direct way to name it (issue #29: quoted rule
text attributes directly), more direct than sharing a word with it. A quote is text
between straight or curly double quotes, corner brackets, or a ``> `` line; it names a
line when it holds most of the line's cues (three at least), in either language.
"""

from __future__ import annotations

import re

from shared.formats.board import Board
from shared.language.text import token_set

_QUOTE = re.compile(
    r'"([^"\n]{8,400})"|\u201c([^\u201d\n]{8,400})\u201d'
    r"|\u300c([^\u300d\n]{4,400})\u300d|\u300e([^\u300f\n]{4,400})\u300f"
    r"|^>[ \t]?(.{8,400})$",
    re.MULTILINE,
)
_OPENERS = ('"', "\u201c", "\u300c", "\u300e", ">")
# Share of a line's cues a quote must hold, and the fewest cues that can name a line.
COVER = 0.6
MIN_CUES = 3


def quotes(text: str) -> list[str]:
    """The quoted passages of ``text``."""
    if not any(o in text for o in _OPENERS):
        return []  # the common turn
    return [next(g for g in m.groups() if g) for m in _QUOTE.finditer(text)]


def quoted_lines(text: str, board: Board) -> frozenset[int]:
    """Indices of the board lines a quote in ``text`` reproduces."""
    found: set[int] = set()
    for passage in quotes(text):
        words = token_set(passage)
        if len(words) < MIN_CUES:
            continue
        for i, line in enumerate(board.lines):
            cues = line.cues | line.direction_cues
            if len(cues) >= MIN_CUES and len(cues & words) >= COVER * len(cues):
                found.add(i)
    return frozenset(found)
