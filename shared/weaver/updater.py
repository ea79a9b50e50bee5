"""The intuition updater: evidence-driven edits of ``memory/CLAUDE.md`` (writes).

Per board line it reads ``memory/effectiveness/<marker>.md`` and asks a
:class:`LineJudge` for a decision with a reason: STRENGTHENING and NEUTRAL lines stay
byte-stable; a WEAKENING line past ``settings.weakening_threshold`` is rewritten
toward the behaviour the evidence names, or removed with its text moved to its topic
dossier; ``direction-wrong`` evidence also posts a review item to the pattern-tracker
inbox. Broken pointers are repaired when one obvious target exists, else the line
goes. A new line is added only from recurring ``new-signals.md`` evidence with a
trigger and a direction. Headings and untouched lines keep their bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from shared.board import Board, BoardLine, parse_board
from shared.constants import PATTERN_TRACKER
from shared.effectiveness import Effectiveness, parse_new_signals, read_effectiveness
from shared.errors import InputError
from shared.kernel import KernelPaths, atomic_write_text, read_utf8
from shared.lock.base import Lease
from shared.settings import Settings
from shared.text import jaccard, token_set
from shared.weaver.crystallizer import NEW_SIGNALS
from shared.weaver.store import write_if_changed

_REWRITE_RE = re.compile(r'direction that would have helped: "(.*?)"')
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class LineDecision:
    """keep | rewrite | remove | repair, the new text for rewrite/repair, and why."""

    action: str
    reason: str
    new_text: str | None = None
    review: bool = False


class LineJudge(Protocol):
    """Decides what happens to one board line given its effectiveness snapshot."""

    def decide(
        self, line: BoardLine, eff: Effectiveness | None, settings: Settings
    ) -> LineDecision:
        """keep / rewrite / remove for ``line`` from its snapshot ``eff``, with a reason."""


def compose_line(trigger: str, direction: str, marker: str | None, like: str) -> str:
    """A board line in the board's shape; Chinese when ``like`` is Chinese."""
    indent = like[: len(like) - len(like.lstrip())]
    suffix = f" [[{marker}]]" if marker else ""
    if _CJK_RE.search(like) and (not trigger or _CJK_RE.search(trigger)):
        body = f"当{trigger}时，{direction}" if trigger else direction
    else:
        body = f"When {trigger}, {direction}" if trigger else direction[:1].upper() + direction[1:]
    return f"{indent}- {body}{suffix}"


_MODALS = frozenset({"can", "could", "will", "would", "should", "must", "may", "might"})


def third_person(trigger: str) -> str:
    """A user's "I ask for a summary" as a board trigger: "the user asks for a summary"."""

    def verb(match: re.Match[str]) -> str:
        word = match.group(1).strip()
        if word.lower() in {"am", "'m"}:
            return "the user is"
        if word.lower() in _MODALS or word.endswith("s"):
            return f"the user {word}"
        if word.endswith(("sh", "ch", "x", "o")):
            return f"the user {word}es"
        if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
            return f"the user {word[:-1]}ies"
        return f"the user {word}s"

    text = re.sub(r"\bI('m|\s+\w+)", verb, trigger)
    text = re.sub(r"\b(?:me)\b", "the user", text)
    text = re.sub(r"\bmy\b", "the user's", text)
    return text.replace("我", "用户")


class RuleLineJudge:
    """Deterministic default line decisions."""

    def decide(
        self, line: BoardLine, eff: Effectiveness | None, settings: Settings
    ) -> LineDecision:
        if eff is None:
            return LineDecision("keep", "no effectiveness file: no line-level evidence")
        counts = (
            f"strengthening = {eff.strengthening}; neutral = {eff.neutral}; "
            f"weakening = {eff.weakening}"
        )
        if eff.trajectory != "WEAKENING":
            return LineDecision("keep", f"{eff.trajectory} ({counts}): preserve")
        if eff.weakening < settings.weakening_threshold:
            return LineDecision(
                "keep", f"WEAKENING below threshold {settings.weakening_threshold} ({counts})"
            )
        guidance = " ".join(eff.guidance)
        review = "direction-wrong" in guidance
        verb = eff.guidance_verb()
        match = _REWRITE_RE.search(guidance)
        if verb == "REWRITE" and match:
            wanted = match.group(1).strip()
            if jaccard(token_set(wanted), line.direction_cues) >= 0.6:
                return LineDecision("keep", f"already states the wanted direction ({counts})")
            if line.direction and line.direction in line.text:
                # Keep the line's own trigger wording and pointers; swap the direction.
                text = line.text.replace(line.direction, wanted, 1)
            else:
                text = compose_line(line.trigger, wanted, line.marker, line.text)
            return LineDecision(
                "rewrite",
                f"WEAKENING ({counts}): rewrite toward the wanted direction",
                text,
                review,
            )
        if verb == "SHARPEN":
            return LineDecision("keep", f"WEAKENING by recall-miss ({counts}): direction holds")
        return LineDecision(
            "remove", f"WEAKENING ({counts}) with no better direction: remove", None, review
        )


@dataclass
class UpdateReport:
    """What the updater did; ``text`` lines cite line refs and effectiveness paths."""

    status: str = "NO_NEW_GRADIENT:"
    decisions: list[dict[str, Any]] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    reviews: list[str] = field(default_factory=list)
    topics_written: list[str] = field(default_factory=list)
    changed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "changed": self.changed,
            "decisions": self.decisions,
            "effectiveness_read": self.read,
            "reviews": self.reviews,
            "topics_written": self.topics_written,
        }


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


def _move_to_topic(paths: KernelPaths, marker: str, text: str, lease: Lease) -> Path:
    path = paths.topics_dir / f"{marker}.md"
    current = read_utf8(path)
    if current is None:
        current = f"# {marker}\n"
    heading = "## Retired from memory/CLAUDE.md"
    entry = f"- {text.strip().lstrip('-*+ ').strip()}"
    if entry in current.split("\n"):
        return path
    if heading not in current:
        current = current.rstrip("\n") + f"\n\n{heading}\n\n{entry}\n"
    else:
        current = current.rstrip("\n") + f"\n{entry}\n"
    write_if_changed(path, current, lease)
    return path


def update_board(
    paths: KernelPaths,
    settings: Settings,
    lease: Lease,
    *,
    judge: LineJudge | None = None,
    allow_new_lines: bool = True,
) -> UpdateReport:
    """Apply evidence decisions to ``memory/CLAUDE.md``; write it once if it changed.

    Raises:
        InputError: the board is not UTF-8.
    """
    judge = judge or RuleLineJudge()
    report = UpdateReport()
    original = read_utf8(paths.board)
    if original is None:
        return report
    board = parse_board(original)
    rows: list[str | None] = list(original.split("\n"))
    slugs = _dossier_slugs(paths)
    # Without any dossier directory every pointer would look broken: judge none.
    check_pointers = paths.topics_dir.is_dir() or paths.entities_dir.is_dir()
    for line in board.lines:
        text = line.text
        decision: LineDecision | None = None
        for pointer in line.pointers if check_pointers else ():
            if pointer in slugs:
                continue
            target = _repair_target(pointer, slugs)
            if target is not None:
                text = text.replace(f"[[{pointer}]]", f"[[{target}]]")
                decision = LineDecision(
                    "repair", "broken pointer repaired to the one existing dossier", text
                )
            else:
                decision = LineDecision("remove", "broken pointer with no target dossier")
                break
        if decision is None or decision.action == "repair":
            eff = None
            if line.marker:
                eff_path = paths.effectiveness_dir / f"{line.marker}.md"
                try:
                    eff = read_effectiveness(eff_path)
                except InputError as exc:
                    report.decisions.append({"ref": line.ref, "action": "keep", "reason": str(exc)})
                    continue
                if eff is not None:
                    report.read.append(f"memory/effectiveness/{line.marker}.md")
            evidence = judge.decide(line, eff, settings)
            if evidence.action != "keep" or decision is None:
                decision = evidence
        report.decisions.append(
            {
                "ref": line.ref,
                "marker": line.marker,
                "action": decision.action,
                "reason": decision.reason,
            }
        )
        if decision.action in {"rewrite", "repair"} and decision.new_text is not None:
            rows[line.number - 1] = decision.new_text
        elif decision.action == "remove":
            rows[line.number - 1] = None
            if line.marker and "broken pointer" not in decision.reason:
                report.topics_written.append(
                    _move_to_topic(paths, line.marker, line.text, lease)
                    .relative_to(paths.kernel)
                    .as_posix()
                )
        if decision.review and line.marker:
            report.reviews.append(_post_review(paths, line, decision, lease))
    kept = [r for r in rows if r is not None]
    if allow_new_lines:
        kept = _add_new_lines(paths, settings, board, kept, slugs, report)
    updated = "\n".join(kept)
    if updated != original:
        lease.ensure()
        atomic_write_text(paths.board, updated)
        report.changed = True
        report.status = "UPDATED:"
    return report


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
        report.decisions.append({"ref": "none", "action": "keep", "reason": str(exc)})
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
        text = compose_line(third_person(cand.trigger), cand.direction, marker, like)
        last = _insert_after(rows, cue, bool(like))
        if last is None:
            while rows and rows[-1] == "":
                rows.pop()
            rows += ["", text, ""] if rows else [text, ""]
        else:
            rows.insert(last + 1, text)
        current = [parse_board("\n".join(rows)).lines]
        report.decisions.append(
            {
                "ref": "new",
                "marker": marker,
                "action": "add",
                "reason": f"recurring new-signals candidate: {cand.count} fragments",
            }
        )
    return rows
