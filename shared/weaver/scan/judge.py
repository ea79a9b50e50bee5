"""The scanner's event-line judgement: a narrow Protocol and the rule-based default.

A judge sees one session turn (origin event + the agent's tool/reply rows), the
session's previous turn and what it related to, and the board; it returns
:class:`Judgement` records, each with the reason it was made for. Another judge (a
model behind an HTTP API, say) can replace :class:`RuleJudge` without touching the
scanner. The rules work on normalised tokens (EN stemming, CJK bigrams), so they
apply to wording and languages the corpus never showed. The per-board lookups they
use live in :mod:`shared.weaver.scan.matching`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.formats.board import Board, BoardLine
from shared.language.markers import (
    approval_marker,
    candidate_rule,
    is_greeting_or_receipt,
    is_transient_question,
    markers,
    new_direction,
    one_off_marker,
    weakening_kind,
)
from shared.language.text import jaccard, normalise, one_line, token_set
from shared.weaver.scan.facts import TurnFacts, root_cause, rows_summary
from shared.weaver.scan.matching import BoardIndex, LineCues, PointerScan
from shared.weaver.scan.turns import Turn

HUMAN_TYPES = frozenset({"channel.message", "channel.command"})
TRIGGER_REL = "the event shows the line's trigger cue"
WANTED_LIMIT = 300
KIND_REASONS = {
    "recall-miss": "the user asked for what the line says",
    "direction-changed": "the user states a different behaviour",
    "obsolete": "the user says the practice stopped or is out of date",
}

# How strongly a correction names a candidate line (higher wins, see _attribute).
_NAMES_DIRECTION, _NAMES_TRIGGER, _JUDGES_PREVIOUS = 3, 2, 1


def _tier(i: int, cues: LineCues, words: frozenset[str], named: set[int]) -> int:
    """A correction names the line's direction, its trigger (or pointer / dossier /
    directed item) in its own words, or only judges the previous turn that related
    to the line."""
    if cues.direction_hit(words):
        return _NAMES_DIRECTION
    return _NAMES_TRIGGER if i in named else _JUDGES_PREVIOUS


def _attribute(
    blamed: list[tuple[int, list[str], bool, int]],
) -> list[tuple[int, list[str], bool, int]]:
    """The lines a correction belongs to (labelling "Attribution"): those naming the
    direction it asks about, else those whose trigger it names, else the one line the
    judged turn related to. Sharing a word with a line is not enough when a closer
    line is named; a complaint that names nothing and judged several lines is
    ambiguous and is attributed to none."""
    best = max(b[3] for b in blamed)
    chosen = [b for b in blamed if b[3] == best]
    if best == _JUDGES_PREVIOUS and len(chosen) > 1:
        return []
    return chosen


def correction_kind(text: str, line: BoardLine, named_direction: bool) -> str | None:
    """The weakening kind of a correction of ``line``: what its words say (obsolete,
    direction changed), or a recall miss when it names the line's own direction. A
    "change" whose new direction reads like the line's own is a recall miss."""
    kind = weakening_kind(text)
    if kind == "direction-changed":
        wanted = new_direction(text)
        if wanted and jaccard(token_set(wanted), line.direction_cues) >= 0.6:
            return "recall-miss"
        return kind
    if kind is not None:
        return kind
    return "recall-miss" if named_direction else None


@dataclass(frozen=True)
class JudgeContext:
    """What the judge knows besides the events: existing dossier slugs and the
    lines/markers a directed item named."""

    dossiers: frozenset[str] = frozenset()
    entities: frozenset[str] = frozenset()
    directed_markers: frozenset[str] = frozenset()
    directed_lines: frozenset[int] = frozenset()
    dossier_cues: dict[str, frozenset[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "dossiers": sorted(self.dossiers),
            "entities": sorted(self.entities),
            "directed_markers": sorted(self.directed_markers),
            "directed_lines": sorted(self.directed_lines),
            "dossier_cues": {k: sorted(v) for k, v in sorted(self.dossier_cues.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JudgeContext:
        return cls(
            dossiers=frozenset(data.get("dossiers", ())),
            entities=frozenset(data.get("entities", ())),
            directed_markers=frozenset(data.get("directed_markers", ())),
            directed_lines=frozenset(int(x) for x in data.get("directed_lines", ())),
            dossier_cues={k: frozenset(v) for k, v in data.get("dossier_cues", {}).items()},
        )

    def signature(self) -> str:
        """A digest of everything in the context, to tell whether two match."""
        parts = [
            sorted(self.dossiers),
            sorted(self.entities),
            sorted(self.directed_markers),
            sorted(self.directed_lines),
            sorted((k, sorted(v)) for k, v in self.dossier_cues.items()),
        ]
        return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Judgement:
    """One decision about one turn: a line trajectory, or a NEW_SIGNAL (line None)."""

    line: BoardLine | None
    trajectory: str
    activation: str
    signal: str
    reason: str
    evidence: tuple[str, ...]
    notes: tuple[str, ...]
    root_cause: str | None = None
    supersedes: str | None = None
    entities: tuple[str, ...] = field(default=())
    source_turn: Turn | None = None
    kind: str | None = None  # WEAKENING only: recall-miss / direction-changed / obsolete


@dataclass
class SessionMemory:
    """The judge's view of a session's previous turn."""

    turn: Turn | None = None
    lines: tuple[BoardLine, ...] = ()
    trajectories: tuple[str, ...] = ()


class EventJudge(Protocol):
    """Judges one turn against the board."""

    def judge(
        self, turn: Turn, previous: SessionMemory, board: Board, ctx: JudgeContext
    ) -> list[Judgement]:
        """Return zero or more judgements, each with its reason."""


@dataclass(frozen=True)
class _Scope:
    """What a context contributes per board: the lines directed items name and a
    scanner for its entities (None when it has none)."""

    directed: frozenset[int]
    entities: PointerScan | None


class RuleJudge:
    """Deterministic, explainable default judge."""

    def __init__(self) -> None:
        self._index: BoardIndex | None = None
        self._scope: tuple[JudgeContext, BoardIndex, _Scope] | None = None

    def index(self, board: Board) -> BoardIndex:
        """The :class:`BoardIndex` of ``board``, rebuilt only when the board changes."""
        if self._index is None or self._index.board is not board:
            self._index = BoardIndex.of(board)
        return self._index

    def scope(self, ctx: JudgeContext, index: BoardIndex) -> _Scope:
        """The :class:`_Scope` of ``ctx`` on ``index``'s board, built once per pair."""
        if self._scope is None or self._scope[0] is not ctx or self._scope[1] is not index:
            entities = PointerScan(ctx.entities, bracketed=True) if ctx.entities else None
            directed = index.directed(ctx.directed_markers, ctx.directed_lines)
            self._scope = (ctx, index, _Scope(directed, entities))
        return self._scope[2]

    def judge(
        self, turn: Turn, previous: SessionMemory, board: Board, ctx: JudgeContext
    ) -> list[Judgement]:
        text: str = turn.get("text", "")
        if not text.strip():
            return []
        corr, instr, pref = markers(text)
        human = turn.get("type") in HUMAN_TYPES
        if not human and not (corr or instr):
            return []
        if not corr and previous.turn is not None and approval_marker(text):
            upgraded = self._approval(text, previous)
            if upgraded:
                return upgraded
        if is_greeting_or_receipt(text):
            return []
        words = token_set(text)
        low = normalise(text)
        index = self.index(board)
        scope = self.scope(ctx, index)
        mentioned = index.mentioned(low)
        read = index.read(turn) if turn.get("rows") else set()
        triggered = index.triggered(words)
        if not (corr or triggered or mentioned or read or scope.directed or instr or pref):
            return []  # no line to relate to and nothing to report as new (the common turn)
        entities = tuple(sorted(scope.entities.named(low, text))) if scope.entities else ()
        facts: TurnFacts | None = None  # built for the first judgement only
        prev_ids = {ln.hash for ln in previous.lines}
        named = triggered | mentioned | read | scope.directed
        out: list[Judgement] = []
        # A correction's candidate lines, attributed after all are seen (see _attribute).
        blamed: list[tuple[int, list[str], bool, int]] = []
        for i in index.candidates(words, bool(corr), prev_ids, named):
            line = board.lines[i]
            cues = index.cues[i]
            relations: list[str] = []
            if i in triggered:
                relations.append(TRIGGER_REL)
            if i in mentioned:
                relations.append("the event names the line's pointer")
            if i in read:
                relations.append("the same turn reads the line's dossier")
            if i in scope.directed:
                relations.append("the directed item names this line")
            corrects_prev = bool(corr) and line.hash in prev_ids
            if corrects_prev:
                relations.append("it corrects the session's previous turn on this line")
            elif corr and not relations and cues.direction_hit(words):
                relations.append("it corrects behaviour the line guides")
            if not relations:
                continue
            if relations == [TRIGGER_REL] and cues.trigger_hits(words) < 2:
                if (instr or pref or corr) and not cues.direction_hit(words):
                    # A correction or standing instruction that only brushes one trigger
                    # cue and asks for another behaviour is not about that line.
                    continue
                if not turn.get("rows"):
                    # One cue in passing, and the agent did nothing in that turn: too
                    # thin to call even NEUTRAL.
                    continue
            facts = facts or TurnFacts(turn, text, previous, index)
            if corr:
                blamed.append((i, relations, corrects_prev, _tier(i, cues, words, named)))
            else:
                out.append(self._line_judgement(facts, i, line, relations, i in read, entities))
        if blamed:
            assert facts is not None
            # An empty choice: a complaint no careful reader could pin on one line;
            # it can still state a new durable instruction (below).
            for i, relations, corrects_prev, tier in _attribute(blamed):
                judged = previous.turn if corrects_prev else None
                out.append(
                    self._correction(
                        facts,
                        i,
                        board.lines[i],
                        ctx,
                        relations,
                        corr or "",
                        judged,
                        entities,
                        named_direction=tier == _NAMES_DIRECTION,
                    )
                )
        if out or not (corr or instr or pref):
            return out
        facts = TurnFacts(turn, text, previous, index)
        return self._new_signal(facts, corr, instr, pref, entities)

    def _correction(
        self,
        facts: TurnFacts,
        i: int,
        line: BoardLine,
        ctx: JudgeContext,
        relations: list[str],
        corr: str,
        judged: Turn | None,
        entities: tuple[str, ...],
        *,
        named_direction: bool = False,
    ) -> Judgement:
        why = "; ".join(relations)
        root = None
        kind = correction_kind(facts.text, line, named_direction)
        evidence = [facts.quote, f'It carries the correction marker "{corr}" ({why}).']
        if judged is not None:
            evidence.append(
                f"It judges the previous turn {judged['id']}, where {facts.previous_behaviour}."
            )
            root = root_cause(facts, i, line, judged, ctx)
        notes = [f"This weakens `{line.ref}` because the agent needed correction despite the line."]
        if kind:
            notes.append(f"Weakening kind: {kind} ({KIND_REASONS[kind]}).")
        # The user's words as written, whole or not at all: a cut or folded clause
        # could reach the board through a rewrite.
        wanted = new_direction(facts.text) if kind == "direction-changed" else facts.wanted_text
        if wanted and len(wanted) <= WANTED_LIMIT and "\n" not in wanted:
            notes.append(f'Wanted behaviour: "{wanted}".')
        if root:
            notes.append(f"Root cause: {root} (from the judged turn's tool trace).")
        return Judgement(
            line=line,
            trajectory="WEAKENING",
            activation="missed",
            signal="correction",
            reason=f"correction ({corr}): {why}",
            evidence=tuple(evidence),
            notes=tuple(notes),
            root_cause=root,
            supersedes=judged["id"] if judged is not None else None,
            entities=entities,
            kind=kind,
        )

    def _line_judgement(
        self,
        facts: TurnFacts,
        i: int,
        line: BoardLine,
        relations: list[str],
        read: bool,
        entities: tuple[str, ...],
    ) -> Judgement:
        ref = line.ref
        turn = facts.turn
        if read:
            traj, act, signal = "STRENGTHENING", "activated", "dossier-read"
            note = f"This strengthens `{ref}` because the agent opened the line's dossier."
        elif turn.get("rows") and facts.followed(i):
            traj, act, signal = "STRENGTHENING", "activated", "trigger"
            note = (
                f"This strengthens `{ref}` because the agent's turn followed the line's direction."
            )
        else:
            traj, act = "NEUTRAL", "waiting"
            signal = "directed" if "directed" in relations[0] else "trigger"
            note = (
                f"This is neutral for `{ref}`: the line was touched but the turn does not show "
                "whether its direction was followed."
            )
        why = "; ".join(relations)
        return Judgement(
            line=line,
            trajectory=traj,
            activation=act,
            signal=signal,
            reason=f"{traj.lower()}: {why}",
            evidence=(facts.quote, f"Relation: {why}. In the same turn {facts.behaviour}."),
            notes=(note,),
            entities=entities,
        )

    def _approval(self, text: str, previous: SessionMemory) -> list[Judgement]:
        """The user approves the previous turn: its NEUTRAL lines become STRENGTHENING
        (the fragment keeps the earlier turn as its source)."""
        judged = previous.turn
        assert judged is not None
        out = []
        for line, traj in zip(previous.lines, previous.trajectories, strict=True):
            if traj != "NEUTRAL":
                continue
            out.append(
                Judgement(
                    line=line,
                    trajectory="STRENGTHENING",
                    activation="activated",
                    signal="trigger",
                    reason=f"approval in the next turn ({approval_marker(text)})",
                    evidence=(
                        f"The external {judged['type']} ({judged['kind']}) said: "
                        f'"{one_line(judged["text"], 200)}".',
                        f"In that turn {rows_summary(judged)}; the user's next message "
                        f'approved it: "{one_line(text, 120)}".',
                    ),
                    notes=(
                        f"This strengthens `{line.ref}` because the behaviour in the trigger "
                        "turn was accepted by the user.",
                    ),
                    supersedes=judged["id"],
                    source_turn=judged,
                )
            )
        return out

    def _new_signal(
        self,
        facts: TurnFacts,
        corr: str | None,
        instr: str | None,
        pref: str | None,
        entities: tuple[str, ...],
    ) -> list[Judgement]:
        text = facts.text
        wanted = facts.wanted
        if one_off_marker(text) and not instr:
            return []
        if instr or pref:
            signal = "instruction" if instr else "preference"
            marker = instr or pref
        elif corr and wanted and not is_transient_question(text):
            signal, marker = "correction", corr
        else:
            return []
        trigger, direction = candidate_rule(text)
        notes = [
            f'No current memory/CLAUDE.md line covers this durable {signal} ("{marker}").',
            f'Candidate trigger: "{one_line(trigger, 120)}".'
            if trigger
            else "Candidate trigger: none.",
            f'Candidate direction: "{one_line(direction, 160)}".',
        ]
        return [
            Judgement(
                line=None,
                trajectory="NEW_SIGNAL",
                activation="waiting",
                signal=signal,
                reason=f"new {signal} ({marker}) with no related board line",
                evidence=(facts.quote,),
                notes=tuple(notes),
                entities=entities,
            )
        ]
