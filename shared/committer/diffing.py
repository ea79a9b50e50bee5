"""What evolved between the committed and the working-tree text of a file (pure).

``changed_lines`` gives the one-based new-file line numbers that were added or
rewritten; ``trivial_reason`` says when a change carries no memory content at all
(whitespace only, timestamps only, pure line reorder) so it is neither reviewed nor
committed; ``line_stats`` counts rewritten / added / removed claims for the commit
subject.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from shared.language import lexicon

_WS_RE = re.compile(r"\s+")
# Timestamps and dates in the shapes memory files carry: ISO-8601 (with or without
# time, zone, millis), the filename form (``2026-01-05T09-12-33-123Z``), compact
# ``YYYYMMDD``, clock times, epoch millis, and dates written out in a language's own
# words (the lexicon's ``date_stamp``).
_TS_RE = re.compile(
    # Every alternative starts with a digit; the lookahead lets the scan skip text fast.
    r"(?=\d)(?:"
    r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:-\d{3})?Z"
    r"|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|\d{4}/\d{1,2}/\d{1,2}"
    r"|(?<!\d)20\d{6}(?:T?\d{4,6}Z?)?(?!\d)"
    r"|(?<!\d)1\d{12}(?!\d)"
    rf"|{lexicon.source('date_stamp')}"
    r"|(?<![\d:])\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?![\d:])"
    r")"
)

WHITESPACE = "whitespace only"
TIMESTAMP = "timestamp only"
REORDER = "line reorder only"
UNCHANGED = "no content change"


def split_lines(text: str) -> list[str]:
    """LF-split lines without the empty string after a final LF."""
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    return rows


def changed_lines(old: str, new: str) -> set[int]:
    """One-based line numbers of ``new`` that are inserted or replaced relative to ``old``."""
    a, b = split_lines(old), split_lines(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    out: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            out.update(range(j1 + 1, j2 + 1))
    return out


def _norm_lines(text: str) -> list[str]:
    return [n for n in (" ".join(line.split()) for line in text.split("\n")) if n]


def _maybe_timestamps(ow: list[str], nw: list[str]) -> bool:
    """Cheap pre-check: only a change confined to tokens with digits can be timestamp-only."""
    if len(ow) != len(nw):
        return True
    return all(any(ch.isdigit() for ch in x + y) for x, y in zip(ow, nw, strict=True) if x != y)


def trivial_reason(old: str, new: str) -> str | None:
    """Why the change from ``old`` to ``new`` is trivial, or None when it evolved memory.

    Whitespace only = the same words in the same order (re-wrapping, indentation,
    blank lines); timestamp only = equal once ISO/compact/Chinese dates and clock
    times are masked; line reorder = the same multiset of (whitespace-normalised)
    lines. A new file (``old`` empty) is trivial only when it has no visible text.
    """
    if old == new:
        return UNCHANGED
    ow, nw = old.split(), new.split()
    if ow == nw:
        return WHITESPACE
    if not ow:
        return None
    if _maybe_timestamps(ow, nw) and (
        _TS_RE.sub("<ts>", old).split() == _TS_RE.sub("<ts>", new).split()
    ):
        return TIMESTAMP
    if sorted(ow) == sorted(nw):
        a, b = _norm_lines(old), _norm_lines(new)
        if len(a) == len(b) and sorted(a) == sorted(b):
            return REORDER
    return None


@dataclass(frozen=True)
class LineStats:
    rewritten: int = 0
    added: int = 0
    removed: int = 0


def line_stats(old_claims: list[str], new_claims: list[str]) -> LineStats:
    """Rewritten / added / removed claim counts between two claim lists."""
    matcher = difflib.SequenceMatcher(None, old_claims, new_claims, autojunk=False)
    rewritten = added = removed = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace":
            common = min(i2 - i1, j2 - j1)
            rewritten += common
            added += (j2 - j1) - common
            removed += (i2 - i1) - common
        elif tag == "insert":
            added += j2 - j1
        elif tag == "delete":
            removed += i2 - i1
    return LineStats(rewritten, added, removed)
