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
    lines joined by a space; ``section`` is the nearest heading above it."""

    line: int
    end: int
    text: str
    section: str
    bullet: bool


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
    out: list[LogicalLine] = []
    start = 0
    if rows and rows[0].strip() == "---":
        for idx in range(1, len(rows)):
            if rows[idx].strip() in ("---", "..."):
                start = idx + 1
                break
    section = ""
    current: _Open | None = None
    in_fence = False
    in_comment = False

    def flush() -> None:
        nonlocal current
        if current is not None:
            joined = " ".join(p for p in current.parts if p).strip()
            if joined:
                out.append(LogicalLine(current.line, current.end, joined, section, current.bullet))
        current = None

    for idx in range(start, len(rows)):
        raw = rows[idx].rstrip("\r")
        number = idx + 1
        stripped = raw.strip()
        lead = stripped[:1]
        if in_fence:
            if lead in "`~" and _FENCE_RE.match(raw):
                in_fence = False
            continue
        if in_comment:
            if "-->" in raw:
                in_comment = False
            continue
        if lead in "`~" and _FENCE_RE.match(raw):
            flush()
            in_fence = True
            continue
        if stripped.startswith("<!--"):
            flush()
            in_comment = "-->" not in stripped
            continue
        if not stripped:
            flush()
            continue
        if lead == "#" and _HEADING_RE.match(raw):
            flush()
            section = stripped.lstrip("#").strip()
            continue
        if lead in "-*_=|:" and (_SEPARATOR_RE.match(raw) or _TABLE_RULE_RE.match(raw)):
            flush()
            continue
        body = raw
        if stripped.startswith(">"):
            body = stripped.lstrip("> ")
        bullet = _BULLET_RE.match(body)
        if bullet:
            flush()
            current = _Open(
                number, number, [body[bullet.end() :].strip()], True, len(bullet.group(1))
            )
            continue
        if current is not None and current.bullet and _leading(body) > current.indent:
            current.parts.append(stripped)
            current.end = number
            continue
        if (
            join_paragraphs
            and current is not None
            and not current.bullet
            and not current.parts[-1].endswith(_SENTENCE_END)
        ):
            current.parts.append(body.strip())
            current.end = number
            continue
        flush()
        current = _Open(number, number, [body.strip()], False, 0)
    flush()
    return out


def touched(lines: Iterable[LogicalLine], changed: set[int]) -> list[LogicalLine]:
    """The logical lines containing at least one changed physical line number."""
    return [ll for ll in lines if any(n in changed for n in range(ll.line, ll.end + 1))]
