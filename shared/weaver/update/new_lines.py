"""New board lines from recurring ``new-signals.md`` candidates, in the user's own
clauses, placed beside the most similar bullet."""

from __future__ import annotations

import re

from shared.errors import InputError
from shared.formats.board import Board, parse_board
from shared.formats.effectiveness import parse_new_signals
from shared.kernel.files import read_utf8
from shared.kernel.paths import KernelPaths
from shared.language.lexicon.script import CJK_RE
from shared.language.text import jaccard, token_set
from shared.settings import Settings
from shared.weaver.crystallize.signals import NEW_SIGNALS
from shared.weaver.judging.verdicts import LineAction
from shared.weaver.results import DecisionRow
from shared.weaver.update.line_judge import compose_line
from shared.weaver.update.outcome import UpdateReport


def _insert_after(rows: list[str], cue: frozenset[str], cjk: bool) -> int | None:
    """Index of the bullet after which a new line goes: the end of the bullet block
    holding the most similar line (same script preferred), else the last bullet."""
    bullets = [i for i, r in enumerate(rows) if re.match(r"^\s*[-*+]\s", r)]
    if not bullets:
        return None

    def fit(i: int) -> tuple[float, bool, int]:
        same_script = bool(CJK_RE.search(rows[i])) == cjk
        return (jaccard(cue, token_set(rows[i])), same_script, i)

    best = max(bullets, key=fit)
    if fit(best)[0] == 0.0:
        same = [i for i in bullets if bool(CJK_RE.search(rows[i])) == cjk]
        best = same[-1] if same else bullets[-1]
    end = best
    while end + 1 < len(rows) and re.match(r"^\s*[-*+]\s", rows[end + 1]):
        end += 1
    return end


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
        last = _insert_after(rows, cue, bool(like))
        if last is None:
            while rows and rows[-1] == "":
                rows.pop()
            rows += ["", text, ""] if rows else [text, ""]
        else:
            rows.insert(last + 1, text)
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
