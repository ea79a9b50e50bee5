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

_QUOTED = (
    # (a character the form cannot occur without, the form)
    ('"', re.compile(r'"([^"\n]{8,400})"')),
    ("\u201c", re.compile(r"\u201c([^\u201d\n]{8,400})\u201d")),
    ("\u300c", re.compile(r"\u300c([^\u300d\n]{4,400})\u300d")),
    ("\u300e", re.compile(r"\u300e([^\u300f\n]{4,400})\u300f")),
)
_BLOCKQUOTE = re.compile(r"^>[ \t]?(.{8,400})$", re.MULTILINE)
# Share of a line's cues a quote must hold, and the fewest cues that can name a line.
COVER = 0.6
MIN_CUES = 3


def quotes(text: str) -> list[str]:
    """The quoted passages of ``text``."""
    out = [m[1] for char, form in _QUOTED if char in text for m in form.finditer(text)]
    if text.startswith(">") or "\n>" in text:
        out += [m[1] for m in _BLOCKQUOTE.finditer(text)]
    return out


QuoteTable = list[tuple[int, frozenset[str], float]]


def quote_table(board: Board) -> QuoteTable:
    """Per line that can be quoted: its index, its cues, and how many a quote needs
    (built once per board, with the rest of its index)."""
    table = []
    for i, line in enumerate(board.lines):
        cues = line.cues | line.direction_cues
        if len(cues) >= MIN_CUES:
            table.append((i, cues, COVER * len(cues)))
    return table


def quoted_lines(text: str, table: QuoteTable) -> frozenset[int]:
    """Indices of the board lines (of ``table``, :func:`quote_table`) a quote in
    ``text`` reproduces."""
    passages = quotes(text)
    if not passages:
        return frozenset()
    found: set[int] = set()
    for passage in passages:
        words = token_set(passage)
        if len(words) < MIN_CUES:
            continue
        for i, cues, needed in table:
            if len(cues & words) >= needed:
                found.add(i)
    return frozenset(found)
