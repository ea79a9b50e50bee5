"""New board lines from recurring ``new-signals.md`` candidates, in the user's own
clauses, placed beside the most similar bullet, else in the section about the same
thing, else under the board's title: never under an unrelated heading."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from shared.errors import InputError
from shared.formats.board import Board, parse_board
from shared.formats.effectiveness import parse_new_signals
from shared.kernel.files import read_utf8
from shared.kernel.paths import KernelPaths
from shared.language import lexicon
from shared.language.lexicon.script import CJK_RE
from shared.language.text import jaccard, token_set
from shared.settings import Settings
from shared.weaver.concepts import concepts
from shared.weaver.crystallize.signals import NEW_SIGNALS
from shared.weaver.judging.verdicts import LineAction
from shared.weaver.results import DecisionRow
from shared.weaver.update.line_judge import compose_line
from shared.weaver.update.outcome import UpdateReport

_BULLET = re.compile(r"^\s*[-*+]\s")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# Sections whose heading changes what a line under it means (a "Never" list, a status
# log, the memory files' own upkeep): a new line is never placed there.
_SPECIAL = (
    lexicon.matcher("prohibition_section"),
    lexicon.matcher("status_section"),
    lexicon.matcher("memory_section"),
)


@dataclass
class _Section:
    """A heading (None above the first one) and the bullets under it, by row index."""

    heading: int | None
    level: int
    title: str
    bullets: list[int] = field(default_factory=list)

    @property
    def special(self) -> bool:
        title = self.title.lower()
        return any(m.search(title) is not None for m in _SPECIAL)


def _sections(rows: list[str]) -> list[_Section]:
    """The board's sections in order; each bullet belongs to the nearest heading above it
    (fenced code is skipped)."""
    found = [_Section(None, 0, "")]
    fenced = False
    for i, row in enumerate(rows):
        if row.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = _HEADING.match(row)
        if heading:
            found.append(_Section(i, len(heading.group(1)), heading.group(2)))
        elif _BULLET.match(row):
            found[-1].bullets.append(i)
    return found


def _block_end(rows: list[str], i: int) -> int:
    """The last row of the bullet block holding row ``i``."""
    while i + 1 < len(rows) and _BULLET.match(rows[i + 1]):
        i += 1
    return i


def _relatedness(section: _Section, rows: list[str], cue: frozenset[str], text: str) -> int:
    """How much a section is about the new line: words and key concepts (either
    language, :mod:`shared.weaver.concepts`) its heading shares with the line, and key
    concepts its bullets share with it."""
    named = concepts(text)
    score = 2 * (len(cue & token_set(section.title)) + len(named & concepts(section.title)))
    covered: set[str] = set()
    for i in section.bullets:
        covered |= concepts(rows[i])
    return score + len(named & covered)


def _insert(rows: list[str], line: str, cue: frozenset[str], cjk: bool) -> list[str]:
    """``rows`` with ``line`` placed where it fits (issue #32: never under an unrelated
    heading): after the bullet block holding the most similar bullet; else at the end
    of the section most related to it; else, when no section is, right under the
    board's title (above its sections, where a line belongs to the whole board); a
    board without headings gets it after its last bullet. Sections whose heading
    changes a line's meaning (a "Never" list, a status log) are never chosen."""
    sections = [s for s in _sections(rows) if not s.special]
    bullets = [i for s in sections for i in s.bullets]

    def fit(i: int) -> tuple[float, bool, int]:
        same_script = bool(CJK_RE.search(rows[i])) == cjk
        return (jaccard(cue, token_set(rows[i])), same_script, i)

    best = max(bullets, key=fit, default=None)
    if best is not None and fit(best)[0] > 0.0:
        return _after(rows, _block_end(rows, best), line)
    ranked = [(s, _relatedness(s, rows, cue, line)) for s in sections if s.heading is not None]
    related = max(ranked, key=lambda pair: pair[1], default=None)
    if related is not None and related[1] > 0:
        section = related[0]
        assert section.heading is not None
        return _after(rows, section.bullets[-1] if section.bullets else section.heading, line)
    titled = [s for s in _sections(rows) if s.heading is not None]
    if len(titled) > 1 and titled[0].level < min(s.level for s in titled[1:]):
        title = titled[0]
        assert title.heading is not None
        return _after(rows, title.bullets[-1] if title.bullets else title.heading, line)
    if bullets:
        same = [i for i in bullets if bool(CJK_RE.search(rows[i])) == cjk]
        return _after(rows, _block_end(rows, (same or bullets)[-1]), line)
    while rows and rows[-1] == "":
        rows.pop()
    return [*rows, "", line, ""] if rows else [line, ""]


def _after(rows: list[str], i: int, line: str) -> list[str]:
    """``line`` inserted after row ``i``: right below a bullet, or below a heading with
    one blank row before it and one after (Markdown keeps a list off a heading)."""
    if _BULLET.match(rows[i]):
        return [*rows[: i + 1], line, *rows[i + 1 :]]
    after = i + 1
    if after < len(rows) and rows[after] == "":
        after += 1
    tail = rows[after:]
    return [*rows[: i + 1], "", line, *([""] if tail and tail[0] != "" else []), *tail]


def add_new_lines(
    paths: KernelPaths,
    settings: Settings,
    board: Board,
    rows: list[str],
    slugs: set[str],
    report: UpdateReport,
) -> list[str]:
    ns_path = paths.effectiveness_dir / NEW_SIGNALS
    try:
        text = read_utf8(ns_path)  # never a blocking open (a planted FIFO)
        if text is None:
            return rows
        candidates = parse_new_signals(text, ns_path)
    except InputError as exc:
        report.decisions.append(DecisionRow(ref="none", action=LineAction.KEEP, reason=str(exc)))
        return rows
    report.read.append("memory/effectiveness/new-signals.md")
    current = [parse_board("\n".join(rows)).lines]
    for cand in candidates:
        if cand.count < settings.new_line_threshold or not cand.trigger or not cand.direction:
            continue
        cue = token_set(f"{cand.trigger} {cand.direction}")
        if any(jaccard(cue, token_set(ln.text)) >= 0.5 for ln in current[0]):
            continue
        marker = next(
            (m for m in (f"lesson-{cand.slug}", f"groove-{cand.slug}") if m in slugs), None
        )
        like = "当" if CJK_RE.search(cand.direction) else ""
        # The user's own clauses as written: no person or case changes (issue #11).
        text = compose_line(cand.trigger, cand.direction, marker, like)
        rows = _insert(rows, text, cue, bool(like))
        current = [parse_board("\n".join(rows)).lines]
        report.decisions.append(
            DecisionRow(
                ref="new",
                marker=marker,
                action=LineAction.ADD,
                reason=f"recurring new-signals candidate: {cand.count} fragments",
                cls="new-signal",
                evidence=f"{cand.count} fragments",
                fragments=tuple(x.path for x in cand.samples),
                summary=(
                    f"new line add [new-signal]: {cand.count} fragments "
                    f"({', '.join(x.path for x in cand.samples)}); recurring instruction"
                ),
            )
        )
    return rows
