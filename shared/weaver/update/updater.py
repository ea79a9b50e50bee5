"""The intuition updater: evidence-driven edits of ``memory/CLAUDE.md`` (writes).

Per board line it reads ``memory/effectiveness/<marker>.md`` and asks a
:class:`LineJudge` for a decision. What the evidence *says* decides (issue #11): a
recall miss the user reaffirmed keeps the line; a direction change rewrites the
direction in the user's words as written, keeping trigger and pointers; an obsolete
practice removes the line, its text and the reason moving to its topic dossier.
Evidence without a class (the original's fragments) follows the count rules, and a
line with STRENGTHENING evidence is never removed on misses alone. A pointer without
a dossier never removes a line. Every edit names its evidence (``N new + M prior = T
total evidence``), the fragments it rests on and its class, in the report and in a
runtime-side record the committer puts in the commit body. New lines come only from
recurring ``new-signals.md`` evidence, in the user's own clauses. Headings and
untouched lines keep their bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

from shared.constants import PATTERN_TRACKER
from shared.errors import InputError
from shared.formats.board import Board, BoardLine, parse_board
from shared.formats.effectiveness import Effectiveness, read_effectiveness
from shared.kernel.files import atomic_write_text, read_utf8
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.crystallize.store import write_if_changed
from shared.weaver.judging.interfaces import LineDecision, LineJudge
from shared.weaver.judging.verdicts import LineAction
from shared.weaver.report import evidence_phrase
from shared.weaver.results import DecisionRow, UpdateResult
from shared.weaver.update.edits import record_edits
from shared.weaver.update.line_judge import RuleLineJudge
from shared.weaver.update.new_lines import add_new_lines
from shared.weaver.update.outcome import UpdateReport
from shared.weaver.update.pointers import dossier_slugs, pointer_repair, with_repair


def _move_to_topic(paths: KernelPaths, marker: str, text: str, reason: str, lease: Lease) -> Path:
    """Append the retired line, as written, and why it went to ``topics/<marker>.md``."""
    path = paths.topics_dir / f"{marker}.md"
    current = read_utf8(path)
    if current is None:
        current = f"# {marker}\n"
    heading = "## Retired from memory/CLAUDE.md"
    entry = f"- {text.strip().lstrip('-*+ ').strip()}"
    if entry in current.split("\n"):
        return path
    block = f"{entry}\n  - Retired because: {reason}"
    if heading not in current:
        current = current.rstrip("\n") + f"\n\n{heading}\n\n{block}\n"
    else:
        current = current.rstrip("\n") + f"\n{block}\n"
    write_if_changed(path, current, lease)
    return path


def _evidence(eff: Effectiveness | None, new: int | None) -> str:
    """``N new + M prior = T total evidence`` for the line's fragments on disk."""
    if eff is None:
        return "no evidence"
    total = eff.total
    fresh = min(new if new is not None else 0, total)
    return evidence_phrase(fresh, total - fresh) if total else "0 fragments"


def _rests_on(eff: Effectiveness | None) -> list[str]:
    """The fragment paths the decision names: the deciding one from the guidance
    bullet, then the representative samples."""
    if eff is None:
        return []
    named = re.findall(r"\((memory/fragments/[^)\s]+\.md)\)", " ".join(eff.guidance))
    return list(dict.fromkeys([*named, *(s.path for s in eff.samples)]))


def _decision_row(
    line: BoardLine, decision: LineDecision, reason: str, evidence: str, rests: list[str]
) -> DecisionRow:
    """The report row of one line's decision (with a summary for an edit)."""
    summary = None
    if decision.action is not LineAction.KEEP:
        cls = f" [{decision.cls}]" if decision.cls else ""
        summary = (
            f"{line.ref} {decision.action}{cls}: {evidence}"
            + (f" ({', '.join(rests)})" if rests else "")
            + f"; {reason}"
        )
    return DecisionRow(
        ref=line.ref,
        action=decision.action,
        reason=reason,
        marker=line.marker,
        cls=decision.cls,
        evidence=evidence,
        fragments=tuple(rests),
        summary=summary,
    )


def _apply_decision(
    paths: KernelPaths,
    line: BoardLine,
    decision: LineDecision,
    why: str,
    rows: list[str | None],
    report: UpdateReport,
    lease: Lease,
) -> None:
    """Put the decision into the board rows; a removed line's text (and ``why``)
    moves to its topic dossier, a direction-wrong one is posted for review."""
    if decision.action in {LineAction.REWRITE, LineAction.REPAIR} and decision.new_text is not None:
        rows[line.number - 1] = decision.new_text
    elif decision.action is LineAction.REMOVE:
        rows[line.number - 1] = None
        if line.marker:
            report.topics_written.append(
                _move_to_topic(paths, line.marker, line.text, why, lease)
                .relative_to(paths.kernel)
                .as_posix()
            )
    if decision.review and line.marker:
        report.reviews.append(_post_review(paths, line, decision, lease))


def _decide_lines(
    paths: KernelPaths,
    settings: Settings,
    board: Board,
    judge: LineJudge,
    fresh: dict[str, int],
    rows: list[str | None],
    report: UpdateReport,
    lease: Lease,
) -> set[str]:
    """Judge every board line on its evidence and put each decision into ``rows``;
    returns the dossier slugs the pointers were checked against."""
    slugs = dossier_slugs(paths)
    # Without any dossier directory every pointer would look broken: judge none.
    check_pointers = paths.topics_dir.is_dir() or paths.entities_dir.is_dir()
    for line in board.lines:
        repair, missing = pointer_repair(line, slugs, check_pointers)
        eff = None
        if line.marker:
            eff_path = paths.effectiveness_dir / f"{line.marker}.md"
            try:
                eff = read_effectiveness(eff_path)
            except InputError as exc:
                report.decisions.append(
                    DecisionRow(ref=line.ref, action=LineAction.KEEP, reason=str(exc))
                )
                continue
            if eff is not None:
                report.read.append(f"memory/effectiveness/{line.marker}.md")
        decision = with_repair(judge.decide(line, eff, settings), repair, line, slugs)
        reason = decision.reason
        if missing:
            reason += "; " + ", ".join(f"[[{p}]]" for p in missing) + " has no dossier: kept"
        evidence = _evidence(eff, fresh.get(line.marker or ""))
        rests = _rests_on(eff) if decision.action in {LineAction.REWRITE, LineAction.REMOVE} else []
        report.decisions.append(_decision_row(line, decision, reason, evidence, rests))
        why = f"{reason}; {evidence}" + (f" ({', '.join(rests)})" if rests else "")
        _apply_decision(paths, line, decision, why, rows, report, lease)
    return slugs


def update_board(
    paths: KernelPaths,
    settings: Settings,
    lease: Lease,
    *,
    judge: LineJudge | None = None,
    allow_new_lines: bool = True,
    new_evidence: dict[str, int] | None = None,
) -> UpdateResult:
    """Apply evidence decisions to ``memory/CLAUDE.md``; write it once if it changed.

    ``new_evidence`` maps a marker to the fragments this pass wrote for it (the rest
    on disk are prior). A pointer without a dossier never removes a line: the
    crystallizer bootstraps the dossier, the memory check flags it.

    Raises:
        InputError: the board is not UTF-8.
    """
    report = UpdateReport()
    original = read_utf8(paths.board)
    if original is None:
        return report.result()
    board = parse_board(original)
    rows: list[str | None] = list(original.split("\n"))
    judge = judge or RuleLineJudge()
    slugs = _decide_lines(paths, settings, board, judge, new_evidence or {}, rows, report, lease)
    kept = [r for r in rows if r is not None]
    if allow_new_lines:
        kept = add_new_lines(paths, settings, board, kept, slugs, report)
    updated = "\n".join(kept)
    if updated != original:
        lease.ensure()
        atomic_write_text(paths.board, updated)
        report.changed = True
        report.status = "UPDATED:"
        record_edits(paths, updated, report.result(), lease)
    return report.result()


def _post_review(paths: KernelPaths, line: BoardLine, d: LineDecision, lease: Lease) -> str:
    name = f"review-direction-wrong-{line.marker}.pending"
    body = (
        f"direction-wrong review for [[{line.marker}]] at {line.ref}\n"
        f"evidence: memory/effectiveness/{line.marker}.md ({d.reason})\n"
    )
    write_if_changed(paths.inbox_dir(PATTERN_TRACKER) / name, body, lease)
    return name
