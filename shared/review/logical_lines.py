"""Split a markdown memory file into logical lines (pure).

A logical line is one memory claim: a bullet plus the continuation lines indented
under it, or one plain text line (in dossiers and prompts a wrapped paragraph is
joined until a line ends a sentence). Front matter, fenced code, HTML comments,
headings, blank lines, separators and table rules are structure, not claims.
Line numbers are one-based and name the claim's first physical line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_BULLET_RE = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(?:\s+|$)")
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")
_SEPARATOR_RE = re.compile(r"^\s{0,3}([-*_=])(?:\s*\1){2,}\s*$")
_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)")
_SENTENCE_END = tuple(".!?。！？:：;；)]）】")


@dataclass(frozen=True)
class LogicalLine:
    """One reviewable claim. ``text`` has the bullet marker removed and continuation
    lines joined by a space; ``section`` is the nearest heading above it and ``headings``
    the trail of headings it sits under, outermost first (a heading closes every heading
    of its level or deeper)."""

    line: int
    end: int
    text: str
    section: str
    bullet: bool
    headings: tuple[str, ...] = ()


@dataclass
class _Open:
    line: int
    end: int
    parts: list[str]
    bullet: bool
    indent: int


def _leading(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def logical_lines(text: str, *, join_paragraphs: bool = False) -> list[LogicalLine]:
    """All logical lines of ``text`` in order (see module docstring)."""
    rows = text.split("\n")
    splitter = _Splitter(join_paragraphs)
    for idx in range(_after_front_matter(rows), len(rows)):
        raw = rows[idx].rstrip("\r")
        stripped = raw.strip()
        if not splitter.structure(raw, stripped):
            splitter.claim_text(idx + 1, raw, stripped)
    splitter.flush()
    return splitter.out


def _after_front_matter(rows: list[str]) -> int:
    """The index of the first row after a leading ``---`` front matter block (or 0)."""
    if rows and rows[0].strip() == "---":
        for idx in range(1, len(rows)):
            if rows[idx].strip() in ("---", "..."):
                return idx + 1
    return 0


class _Splitter:
    """The state of one pass over a file's rows: the open claim and the structure
    (fence, comment, heading) the pass is in."""

    def __init__(self, join_paragraphs: bool) -> None:
        self.join_paragraphs = join_paragraphs
        self.out: list[LogicalLine] = []
        self.trail: list[tuple[int, str]] = []  # (level, text) of the open headings
        self.current: _Open | None = None
        self.in_fence = False
        self.in_comment = False

    def flush(self) -> None:
        """Close the open claim (if it has text) into ``out``."""
        current = self.current
        if current is not None:
            joined = " ".join(p for p in current.parts if p).strip()
            if joined:
                self.out.append(
                    LogicalLine(
                        current.line,
                        current.end,
                        joined,
                        self.trail[-1][1] if self.trail else "",
                        current.bullet,
                        tuple(text for _, text in self.trail),
                    )
                )
        self.current = None

    def structure(self, raw: str, stripped: str) -> bool:
        """Take a row that is structure, not claim text (True): fences, comments,
        blank rows, headings, separators and table rules."""
        lead = stripped[:1]
        if self.in_fence:
            if lead in "`~" and _FENCE_RE.match(raw):
                self.in_fence = False
            return True
        if self.in_comment:
            if "-->" in raw:
                self.in_comment = False
            return True
        if lead in "`~" and _FENCE_RE.match(raw):
            self.flush()
            self.in_fence = True
        elif stripped.startswith("<!--"):
            self.flush()
            self.in_comment = "-->" not in stripped
        elif not stripped:
            self.flush()
        elif lead == "#" and _HEADING_RE.match(raw):
            self.flush()
            text = stripped.lstrip("#")
            level = len(stripped) - len(text)
            while self.trail and self.trail[-1][0] >= level:
                self.trail.pop()
            self.trail.append((level, text.strip()))
        elif lead in "-*_=|:" and (_SEPARATOR_RE.match(raw) or _TABLE_RULE_RE.match(raw)):
            self.flush()
        else:
            return False
        return True

    def claim_text(self, number: int, raw: str, stripped: str) -> None:
        """Take a row of claim text: a new bullet, a continuation, or a new claim."""
        body = stripped.lstrip("> ") if stripped.startswith(">") else raw
        bullet = _BULLET_RE.match(body)
        current = self.current
        if bullet:
            self.flush()
            self.current = _Open(
                number, number, [body[bullet.end() :].strip()], True, len(bullet.group(1))
            )
            return
        if current is not None and current.bullet and _leading(body) > current.indent:
            current.parts.append(stripped)
            current.end = number
            return
        if (
            self.join_paragraphs
            and current is not None
            and not current.bullet
            and not current.parts[-1].endswith(_SENTENCE_END)
        ):
            current.parts.append(body.strip())
            current.end = number
            return
        self.flush()
        self.current = _Open(number, number, [body.strip()], False, 0)


def touched(lines: Iterable[LogicalLine], changed: set[int]) -> list[LogicalLine]:
    """The logical lines containing at least one changed physical line number."""
    return [ll for ll in lines if any(n in changed for n in range(ll.line, ll.end + 1))]
