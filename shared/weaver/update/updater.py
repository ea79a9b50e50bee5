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

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from shared.constants import PATTERN_TRACKER
from shared.errors import InputError
from shared.formats.board import Board, BoardLine, parse_board
from shared.formats.effectiveness import Effectiveness, parse_new_signals, read_effectiveness
from shared.kernel.files import atomic_write_text, read_utf8
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.language.text import jaccard, token_set
from shared.settings import Settings
from shared.weaver.crystallize.crystallizer import NEW_SIGNALS
from shared.weaver.crystallize.store import write_if_changed
from shared.weaver.judging.interfaces import LineDecision, LineJudge
from shared.weaver.judging.vocabulary import LineAction, Trajectory
from shared.weaver.report import evidence_phrase
from shared.weaver.results import DecisionRow, UpdateResult

# Greedy to the bullet's last quote: the user's words may hold quotes ("Vous").
_REWRITE_RE = re.compile(r'direction that would have helped: "(.*)"(?:; root_cause [^"]*)?$')
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")


def compose_line(trigger: str, direction: str, marker: str | None, like: str) -> str:
    """A board line in the board's shape; Chinese when ``like`` is Chinese."""
    indent = like[: len(like) - len(like.lstrip())]
    suffix = f" [[{marker}]]" if marker else ""
    if _CJK_RE.search(like) and (not trigger or _CJK_RE.search(trigger)):
        body = f"当{trigger}时，{direction}" if trigger else direction
    else:
        # The direction keeps the user's case: no capitalising (text integrity).
        body = f"When {trigger}, {direction}" if trigger else direction
    return f"{indent}- {body}{suffix}"


def _wanted(eff: Effectiveness) -> str | None:
    """The direction a REWRITE guidance bullet quotes, whole."""
    for bullet in eff.guidance:
        match = _REWRITE_RE.search(bullet)
        if match:
            return match.group(1)
    return None


class RuleLineJudge:
    """Deterministic default line decisions: the class of the evidence decides
    (issue #11), the counts only for evidence that names no class (the original's
    fragments, which carry no ``weakening_kind``)."""

    def decide(
        self, line: BoardLine, eff: Effectiveness | None, settings: Settings
    ) -> LineDecision:
        if eff is None:
            return LineDecision(LineAction.KEEP, "no effectiveness file: no line-level evidence")
        counts = (
            f"strengthening = {eff.strengthening}; neutral = {eff.neutral}; "
            f"weakening = {eff.weakening}"
        )
        guidance = " ".join(eff.guidance)
        review = "direction-wrong" in guidance
        cls = eff.deciding_class
        if cls == "recall-miss":
            return LineDecision(
                LineAction.KEEP, f"recall miss, line reaffirmed ({counts}): keep", cls=cls
            )
        if cls == "obsolete":
            return LineDecision(
                LineAction.REMOVE,
                f"obsolete ({counts}): the user retired the practice",
                None,
                review,
                cls,
            )
        if cls == "direction-changed":
            wanted = _wanted(eff)
            if wanted is None:
                return LineDecision(
                    LineAction.KEEP,
                    f"direction changed ({counts}) but no whole new direction",
                    cls=cls,
                )
            return _rewrite(line, wanted, f"direction changed ({counts})", review, cls)
        if eff.trajectory != Trajectory.WEAKENING:
            return LineDecision(LineAction.KEEP, f"{eff.trajectory} ({counts}): preserve")
        if eff.strengthening:
            return LineDecision(
                LineAction.KEEP,
                f"WEAKENING with STRENGTHENING evidence ({counts}): not removed on misses",
            )
        if eff.weakening < settings.weakening_threshold:
            return LineDecision(
                LineAction.KEEP,
                f"WEAKENING below threshold {settings.weakening_threshold} ({counts})",
            )
        verb = eff.guidance_verb()
        wanted = _wanted(eff)
        if verb == "REWRITE" and wanted is not None:
            return _rewrite(line, wanted, f"WEAKENING ({counts})", review, None)
        if verb == "SHARPEN":
            return LineDecision(
                LineAction.KEEP, f"WEAKENING by recall-miss ({counts}): direction holds"
            )
        return LineDecision(
            LineAction.REMOVE,
            f"WEAKENING ({counts}) with no better direction: remove",
            None,
            review,
        )


def _rewrite(line: BoardLine, wanted: str, why: str, review: bool, cls: str | None) -> LineDecision:
    """The line with its direction replaced by ``wanted`` (the user's words as the
    fragment quotes them), keeping its trigger wording and pointers."""
    wanted = wanted.strip()
    if not wanted or wanted.endswith("…"):
        return LineDecision(
            LineAction.KEEP, f"{why}: the wanted direction is not quoted whole", cls=cls
        )
    if wanted in line.text or jaccard(token_set(wanted), line.direction_cues) >= 0.6:
        return LineDecision(LineAction.KEEP, f"{why}: already states the wanted direction", cls=cls)
    if line.direction and line.direction in line.text:
        text = line.text.replace(line.direction, wanted, 1)
    else:
        text = compose_line(line.trigger, wanted, line.marker, line.text)
    return LineDecision(
        LineAction.REWRITE, f"{why}: rewrite toward the wanted direction", text, review, cls
    )


@dataclass
class UpdateReport:
    """What the updater did, gathered as it runs (frozen by :meth:`result`)."""

    status: str = "NO_NEW_GRADIENT:"
    decisions: list[DecisionRow] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    reviews: list[str] = field(default_factory=list)
    topics_written: list[str] = field(default_factory=list)
    changed: bool = False

    def result(self) -> UpdateResult:
        return UpdateResult(
            status=self.status,
            changed=self.changed,
            decisions=tuple(self.decisions),
            effectiveness_read=tuple(self.read),
            reviews=tuple(self.reviews),
            topics_written=tuple(self.topics_written),
        )


def _dossier_slugs(paths: KernelPaths) -> set[str]:
    out: set[str] = set()
    for root in (paths.topics_dir, paths.entities_dir):
        if root.is_dir():
            out |= {p.stem for p in root.glob("*.md")}
    return out


def _repair_target(pointer: str, slugs: set[str]) -> str | None:
    bare = re.sub(r"^(?:lesson|groove|pattern|topic|entity)-", "", pointer.lower())
    hits = sorted(
        s
        for s in slugs
        if s.lower() == pointer.lower()
        or re.sub(r"^(?:lesson|groove|pattern|topic|entity)-", "", s.lower()) == bare
    )
    return hits[0] if len(hits) == 1 else None


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


EDITS_RECORD = "board-edits.json"


def edits_record(paths: KernelPaths) -> Path:
    """Runtime-side record of the last board edits, for the commit body."""
    return paths.subcon_state_dir / EDITS_RECORD


def _record_edits(paths: KernelPaths, board_text: str, report: UpdateResult, lease: Lease) -> None:
    notes = [d.summary for d in report.edits if d.summary]
    digest = hashlib.sha256(board_text.encode("utf-8")).hexdigest()
    body = json.dumps({"board_sha256": digest, "edits": notes}, ensure_ascii=False)
    write_if_changed(edits_record(paths), body + "\n", lease)


def board_edit_notes(paths: KernelPaths, board_text: str) -> list[str]:
    """The updater's edit notes for exactly this board text (none when the board was
    changed since, or the record is unreadable)."""
    try:
        data = json.loads(edits_record(paths).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    digest = hashlib.sha256(board_text.encode("utf-8")).hexdigest()
    if not isinstance(data, dict) or data.get("board_sha256") != digest:
        return []
    return [str(n) for n in data.get("edits", []) if isinstance(n, str)]


def _pointer_repair(
    line: BoardLine, slugs: set[str], check: bool
) -> tuple[LineDecision | None, list[str]]:
    """A repair of the line's broken pointers that have one obvious dossier, and the
    pointers without any."""
    text = line.text
    repair: LineDecision | None = None
    missing: list[str] = []
    for pointer in line.pointers if check else ():
        if pointer in slugs:
            continue
        target = _repair_target(pointer, slugs)
        if target is not None:
            text = text.replace(f"[[{pointer}]]", f"[[{target}]]")
            repair = LineDecision(
                LineAction.REPAIR, "broken pointer repaired to the one existing dossier", text
            )
        else:
            missing.append(pointer)
    return repair, missing


def _with_repair(
    decision: LineDecision, repair: LineDecision | None, line: BoardLine, slugs: set[str]
) -> LineDecision:
    """The judge's decision with the pointer repair folded in: a kept line is
    repaired, a rewritten one is rewritten with its pointers repaired."""
    if repair is None:
        return decision
    if decision.action is LineAction.KEEP:
        return repair
    if decision.action is LineAction.REWRITE and decision.new_text:
        fixed = decision.new_text
        for pointer in line.pointers:
            target = _repair_target(pointer, slugs)
            if pointer not in slugs and target is not None:
                fixed = fixed.replace(f"[[{pointer}]]", f"[[{target}]]")
        return LineDecision(
            LineAction.REWRITE, decision.reason, fixed, decision.review, decision.cls
        )
    return decision


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
    judge = judge or RuleLineJudge()
    fresh = new_evidence or {}
    report = UpdateReport()
    original = read_utf8(paths.board)
    if original is None:
        return report.result()
    board = parse_board(original)
    rows: list[str | None] = list(original.split("\n"))
    slugs = _dossier_slugs(paths)
    # Without any dossier directory every pointer would look broken: judge none.
    check_pointers = paths.topics_dir.is_dir() or paths.entities_dir.is_dir()
    for line in board.lines:
        repair, missing = _pointer_repair(line, slugs, check_pointers)
        eff = None
        if line.marker:
            eff_path = paths.effectiveness_dir / f"{line.marker}.md"
            try:
                eff = read_effectiveness(eff_path)
            except InputError as exc:
                report.decisions.append(DecisionRow(line.ref, LineAction.KEEP, str(exc)))
                continue
            if eff is not None:
                report.read.append(f"memory/effectiveness/{line.marker}.md")
        decision = _with_repair(judge.decide(line, eff, settings), repair, line, slugs)
        reason = decision.reason
        if missing:
            reason += "; " + ", ".join(f"[[{p}]]" for p in missing) + " has no dossier: kept"
        evidence = _evidence(eff, fresh.get(line.marker or ""))
        rests = _rests_on(eff) if decision.action in {LineAction.REWRITE, LineAction.REMOVE} else []
        report.decisions.append(_decision_row(line, decision, reason, evidence, rests))
        why = f"{reason}; {evidence}" + (f" ({', '.join(rests)})" if rests else "")
        _apply_decision(paths, line, decision, why, rows, report, lease)
    kept = [r for r in rows if r is not None]
    if allow_new_lines:
        kept = _add_new_lines(paths, settings, board, kept, slugs, report)
    updated = "\n".join(kept)
    if updated != original:
        lease.ensure()
        atomic_write_text(paths.board, updated)
        report.changed = True
        report.status = "UPDATED:"
        _record_edits(paths, updated, report.result(), lease)
    return report.result()


def _post_review(paths: KernelPaths, line: BoardLine, d: LineDecision, lease: Lease) -> str:
    name = f"review-direction-wrong-{line.marker}.pending"
    body = (
        f"direction-wrong review for [[{line.marker}]] at {line.ref}\n"
        f"evidence: memory/effectiveness/{line.marker}.md ({d.reason})\n"
    )
    write_if_changed(paths.inbox_dir(PATTERN_TRACKER) / name, body, lease)
    return name


def _insert_after(rows: list[str], cue: frozenset[str], cjk: bool) -> int | None:
    """Index of the bullet after which a new line goes: the end of the bullet block
    holding the most similar line (same script preferred), else the last bullet."""
    bullets = [i for i, r in enumerate(rows) if re.match(r"^\s*[-*+]\s", r)]
    if not bullets:
        return None

    def fit(i: int) -> tuple[float, bool, int]:
        same_script = bool(_CJK_RE.search(rows[i])) == cjk
        return (jaccard(cue, token_set(rows[i])), same_script, i)

    best = max(bullets, key=fit)
    if fit(best)[0] == 0.0:
        same = [i for i in bullets if bool(_CJK_RE.search(rows[i])) == cjk]
        best = same[-1] if same else bullets[-1]
    end = best
    while end + 1 < len(rows) and re.match(r"^\s*[-*+]\s", rows[end + 1]):
        end += 1
    return end


def _add_new_lines(
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
        report.decisions.append(DecisionRow("none", LineAction.KEEP, str(exc)))
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
        like = "当" if _CJK_RE.search(cand.direction) else ""
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
