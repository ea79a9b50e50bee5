"""The scanner's event-line judgement: a narrow Protocol and the rule-based default.

A judge sees one session turn (origin event + the agent's tool/reply rows), the
session's previous turn and what it related to, and the board; it returns
:class:`Judgement` records, each with the reason it was made for. Another judge (a
model behind an HTTP API, say) can replace :class:`RuleJudge` without touching the
scanner. The rules work on normalised tokens (EN stemming, CJK bigrams), so they
apply to wording and languages the corpus never showed. The per-board lookups they
use live in :mod:`shared.weaver.matching`.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.board import Board, BoardLine
from shared.lexicon import (
    approval_marker,
    candidate_rule,
    is_greeting_or_receipt,
    is_transient_question,
    markers,
    one_off_marker,
    wanted_behaviour,
)
from shared.text import GENERIC_CUES, normalise, one_line, token_set
from shared.weaver.matching import BoardIndex, PointerScan
from shared.weaver.turns import Turn

HUMAN_TYPES = frozenset({"channel.message", "channel.command"})
TRIGGER_REL = "the event shows the line's trigger cue"


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


def _rows_summary(turn: Turn) -> str:
    rows = turn.get("rows", [])
    if not rows:
        return "no tool use or reply was recorded in the scanned window"
    tools = [r["text"].partition(" ")[0] for r in rows if r["type"] == "agent.tool_use"]
    replies = [r for r in rows if r["type"] == "agent.result"]
    parts = []
    if tools:
        parts.append("used tools " + ", ".join(dict.fromkeys(tools)))
    if replies:
        parts.append('replied "' + one_line(replies[-1]["text"], 120) + '"')
    return "the agent " + " and ".join(parts) if parts else "the agent left tool results only"


class _TurnFacts:
    """What a turn's judgements share, each derived on first use only: a turn that
    relates to no line builds none of it, one with several lines builds it once."""

    def __init__(self, turn: Turn, text: str, previous: SessionMemory, index: BoardIndex):
        self.turn = turn
        self.text = text
        self.previous = previous
        self.index = index

    @functools.cached_property
    def quote(self) -> str:
        kind = f"{self.turn.get('type') or 'event'} ({self.turn.get('kind')})"
        return f'The external {kind} said: "{one_line(self.text, 200)}".'

    @functools.cached_property
    def behaviour(self) -> str:
        return _rows_summary(self.turn)

    @functools.cached_property
    def reply_tokens(self) -> frozenset[str]:
        return token_set(" ".join(r["text"] for r in self.turn.get("rows", [])))

    @functools.cached_property
    def wanted(self) -> str | None:
        return wanted_behaviour(self.text)

    @functools.cached_property
    def asked(self) -> frozenset[str]:
        """What a correction asks for, as content tokens (root-cause analysis)."""
        return token_set(self.wanted or self.text) - GENERIC_CUES

    @functools.cached_property
    def previous_read(self) -> set[int]:
        """Lines whose dossier the session's previous turn read."""
        judged = self.previous.turn
        return self.index.read(judged) if judged is not None else set()

    @functools.cached_property
    def previous_behaviour(self) -> str:
        judged = self.previous.turn
        return _rows_summary(judged) if judged is not None else ""


def _root_cause(
    facts: _TurnFacts, i: int, line: BoardLine, judged: Turn, ctx: JudgeContext
) -> str | None:
    """spine-scanner root_cause, only when the judged turn's trace shows it.

    * the agent opened the line's dossier, or the correction restates the line's own
      direction (the summary was complete and the agent acted against it) ->
      ``direction-wrong``: the fix is to the line's content;
    * the agent acted without opening an existing dossier whose text holds what the
      correction asks for, which the one-line summary lacks -> ``recall-miss``;
    * otherwise (no trace, or nothing shows the mechanism) -> unset.
    """
    if i in facts.previous_read:
        return "direction-wrong"
    if not judged.get("rows"):
        return None
    asked = facts.asked
    if facts.index.cues[i].direction_hit(asked):
        return "direction-wrong"
    beyond = asked - line.direction_cues - line.cues
    for pointer in line.pointers:
        detail = ctx.dossier_cues.get(pointer)
        if detail is not None and len(beyond & detail) >= 2:
            return "recall-miss"
    return None


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
        entities = tuple(sorted(scope.entities.named(low, text))) if scope.entities else ()
        facts: _TurnFacts | None = None  # built for the first judgement only
        mentioned = index.mentioned(low)
        read = index.read(turn) if turn.get("rows") else set()
        triggered = index.triggered(words)
        prev_ids = {ln.hash for ln in previous.lines}
        named = triggered | mentioned | read | scope.directed
        out: list[Judgement] = []
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
            facts = facts or _TurnFacts(turn, text, previous, index)
            if corr:
                judged = previous.turn if corrects_prev else None
                out.append(self._correction(facts, i, line, ctx, relations, corr, judged, entities))
            else:
                out.append(self._line_judgement(facts, i, line, relations, i in read, entities))
        if out or not (corr or instr or pref):
            return out
        facts = _TurnFacts(turn, text, previous, index)
        return self._new_signal(facts, corr, instr, pref, entities)

    def _correction(
        self,
        facts: _TurnFacts,
        i: int,
        line: BoardLine,
        ctx: JudgeContext,
        relations: list[str],
        corr: str,
        judged: Turn | None,
        entities: tuple[str, ...],
    ) -> Judgement:
        why = "; ".join(relations)
        root = None
        evidence = [facts.quote, f'It carries the correction marker "{corr}" ({why}).']
        if judged is not None:
            evidence.append(
                f"It judges the previous turn {judged['id']}, where {facts.previous_behaviour}."
            )
            root = _root_cause(facts, i, line, judged, ctx)
        notes = [f"This weakens `{line.ref}` because the agent needed correction despite the line."]
        if facts.wanted:
            notes.append(f'Wanted behaviour: "{one_line(facts.wanted, 160)}".')
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
        )

    def _line_judgement(
        self,
        facts: _TurnFacts,
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
        elif turn.get("rows") and facts.index.cues[i].direction_hit(facts.reply_tokens):
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
                        f"In that turn {_rows_summary(judged)}; the user's next message "
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
        facts: _TurnFacts,
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
