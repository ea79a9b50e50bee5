"""The scanner's event-line judgement: a narrow Protocol and the rule-based default.

A judge sees one session turn (origin event + the agent's tool/reply rows), the
session's previous turn and what it related to, and the board; it returns
:class:`Judgement` records, each with the reason it was made for. Another judge (a
model behind an HTTP API, say) can replace :class:`RuleJudge` without touching the
scanner. The rules work on normalised tokens (EN stemming, CJK bigrams), so they
apply to wording and languages the corpus never showed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.board import Board, BoardLine
from shared.lexicon import (
    approval_marker,
    candidate_rule,
    correction_marker,
    instruction_marker,
    is_greeting_or_receipt,
    is_transient_question,
    one_off_marker,
    preference_marker,
    wanted_behaviour,
)
from shared.text import GENERIC_CUES, coverage, normalise, one_line, token_set
from shared.weaver.turns import Turn

HUMAN_TYPES = frozenset({"channel.message", "channel.command"})
TRIGGER_REL = "the event shows the line's trigger cue"
READ_TOOLS = re.compile(r"\b(?:read|open|cat|view|grep|glob|search|load|fetch)\b", re.I)


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


@functools.lru_cache(maxsize=4096)
def _pointer_forms(pointer: str) -> tuple[str, ...]:
    bare = re.sub(r"^(?:lesson|groove|pattern|topic|entity)-", "", pointer)
    forms = {pointer.lower(), f"{pointer.lower()}.md"}
    if len(bare) >= 4:
        forms |= {bare.lower(), bare.lower().replace("-", " ")}
    # A form containing another form can only occur where that one does.
    return tuple(sorted(f for f in forms if not any(g != f and g in f for g in forms)))


def _mentions_normalised(low: str, pointer: str) -> bool:
    return any(form in low for form in _pointer_forms(pointer))


def _mentions(text: str, pointer: str) -> bool:
    return _mentions_normalised(normalise(text), pointer)


TOOL_ROWS = frozenset({"agent.tool_use", "agent.tool_result"})


def _tool_rows(turn: Turn) -> list[tuple[str, str]]:
    """(type, normalised text) of the turn's tool rows, normalised once per turn."""
    rows = turn.get("rows", [])
    return [(r["type"], normalise(r["text"])) for r in rows if r["type"] in TOOL_ROWS]


def _reads_rows(rows: list[tuple[str, str]], pointer: str) -> bool:
    name = pointer.lower()
    for kind, low in rows:
        if (f"{name}.md" in low or f"[[{name}]]" in low) and (
            READ_TOOLS.search(low) or kind == "agent.tool_result"
        ):
            return True
    return False


def _reads(turn: Turn, pointer: str) -> bool:
    return _reads_rows(_tool_rows(turn), pointer)


def _distinctive(token: str, df: dict[str, int]) -> bool:
    if token in GENERIC_CUES or df.get(token, 0) != 1:
        return False
    return len(token) >= 2 if not token.isascii() else len(token) >= 4


def _trigger_hit(line: BoardLine, tokens: frozenset[str], df: dict[str, int]) -> bool:
    """Enough of the line's trigger cues occur in the event: two or more covering a
    third of the cues, or one cue that no other board line shares."""
    cues = line.cues - GENERIC_CUES
    hits = cues & tokens
    if len(hits) >= 2 and len(hits) / len(cues) >= 0.34:
        return True
    return len(hits) == 1 and _distinctive(next(iter(hits)), df)


def _strong_trigger(line: BoardLine, tokens: frozenset[str]) -> bool:
    cues = line.cues - GENERIC_CUES
    return len(cues & tokens) >= 2


def _root_cause(line: BoardLine, judged: Turn, correction: str, ctx: JudgeContext) -> str | None:
    """spine-scanner root_cause, only when the judged turn's trace shows it.

    * the agent opened the line's dossier, or the correction restates the line's own
      direction (the summary was complete and the agent acted against it) ->
      ``direction-wrong``: the fix is to the line's content;
    * the agent acted without opening an existing dossier whose text holds what the
      correction asks for, which the one-line summary lacks -> ``recall-miss``;
    * otherwise (no trace, or nothing shows the mechanism) -> unset.
    """
    if any(_reads(judged, p) for p in line.pointers):
        return "direction-wrong"
    if not judged.get("rows"):
        return None
    asked = token_set(wanted_behaviour(correction) or correction) - GENERIC_CUES
    if _direction_hit(line, asked):
        return "direction-wrong"
    beyond = asked - line.direction_cues - line.cues
    for pointer in line.pointers:
        detail = ctx.dossier_cues.get(pointer)
        if detail is not None and len(beyond & detail) >= 2:
            return "recall-miss"
    return None


def cue_frequency(board: Board) -> dict[str, int]:
    """In how many board lines each trigger cue occurs."""
    df: dict[str, int] = {}
    for line in board.lines:
        for token in line.cues:
            df[token] = df.get(token, 0) + 1
    return df


def _direction_hit(line: BoardLine, tokens: frozenset[str]) -> bool:
    hit, share = coverage(line.direction_cues, tokens)
    return hit >= 2 or (hit >= 1 and share >= 0.5)


class BoardIndex:
    """Per-board lookups built once, so a turn is compared with the few lines it can
    relate to instead of every line: the lines each trigger cue and each direction cue
    occurs in, every spelling of every pointer, and the lines that carry pointers."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.df = cue_frequency(board)
        self.by_cue: dict[str, list[int]] = {}
        self.by_direction: dict[str, list[int]] = {}
        self.with_pointers: list[int] = []
        forms: dict[str, list[int]] = {}
        for i, line in enumerate(board.lines):
            for token in line.cues - GENERIC_CUES:
                self.by_cue.setdefault(token, []).append(i)
            for token in line.direction_cues:
                self.by_direction.setdefault(token, []).append(i)
            if line.pointers:
                self.with_pointers.append(i)
            for pointer in line.pointers:
                for form in _pointer_forms(pointer):
                    forms.setdefault(form, []).append(i)
        self.forms: list[tuple[str, list[int]]] = sorted(forms.items())

    def candidates(
        self,
        words: frozenset[str],
        low: str,
        tool_rows: bool,
        corr: bool,
        prev_ids: set[str],
        ctx: JudgeContext,
    ) -> list[int]:
        """Indices (board order) of every line the turn can relate to: a superset of
        the lines the per-line rules in :meth:`RuleJudge.judge` accept."""
        found: set[int] = set()
        for token in words:
            found.update(self.by_cue.get(token, ()))
        if tool_rows:
            found.update(self.with_pointers)
        for form, lines in self.forms:
            if form in low:
                found.update(lines)
        if corr:
            for token in words:
                found.update(self.by_direction.get(token, ()))
        if (corr and prev_ids) or ctx.directed_markers or ctx.directed_lines:
            for i, line in enumerate(self.board.lines):
                if (
                    (corr and line.hash in prev_ids)
                    or (line.marker and line.marker in ctx.directed_markers)
                    or line.number in ctx.directed_lines
                ):
                    found.add(i)
        return sorted(found)


def _rows_summary(turn: Turn) -> str:
    rows = turn.get("rows", [])
    if not rows:
        return "no tool use or reply was recorded in the scanned window"
    tools = [r["text"].split(" ")[0] for r in rows if r["type"] == "agent.tool_use"]
    replies = [r for r in rows if r["type"] == "agent.result"]
    parts = []
    if tools:
        parts.append("used tools " + ", ".join(dict.fromkeys(tools)))
    if replies:
        parts.append('replied "' + one_line(replies[-1]["text"], 120) + '"')
    return "the agent " + " and ".join(parts) if parts else "the agent left tool results only"


class RuleJudge:
    """Deterministic, explainable default judge."""

    def __init__(self) -> None:
        self._index: BoardIndex | None = None

    def index(self, board: Board) -> BoardIndex:
        """The :class:`BoardIndex` of ``board``, rebuilt only when the board changes."""
        if self._index is None or self._index.board is not board:
            self._index = BoardIndex(board)
        return self._index

    def judge(
        self, turn: Turn, previous: SessionMemory, board: Board, ctx: JudgeContext
    ) -> list[Judgement]:
        text: str = turn.get("text", "")
        if not text.strip():
            return []
        corr = correction_marker(text)
        instr = instruction_marker(text)
        pref = preference_marker(text)
        human = turn.get("type") in HUMAN_TYPES
        if not human and not (corr or instr):
            return []
        if approval_marker(text) and not corr and previous.turn is not None:
            upgraded = self._approval(text, previous)
            if upgraded:
                return upgraded
        if is_greeting_or_receipt(text):
            return []
        words = token_set(text)
        reply_tokens = token_set(" ".join(r["text"] for r in turn.get("rows", [])))
        kind = f"{turn.get('type') or 'event'} ({turn.get('kind')})"
        quote = f'The external {kind} said: "{one_line(text, 200)}".'
        low = normalise(text)
        entities = tuple(
            sorted(e for e in ctx.entities if _mentions_normalised(low, e) or f"[[{e}]]" in text)
        )
        prev_ids = {ln.hash for ln in previous.lines}
        index = self.index(board)
        df = index.df
        tool_rows = _tool_rows(turn)
        out: list[Judgement] = []
        for i in index.candidates(words, low, bool(tool_rows), bool(corr), prev_ids, ctx):
            line = board.lines[i]
            relations: list[str] = []
            if _trigger_hit(line, words, df):
                relations.append(TRIGGER_REL)
            if any(_mentions_normalised(low, p) for p in line.pointers):
                relations.append("the event names the line's pointer")
            read = any(_reads_rows(tool_rows, p) for p in line.pointers)
            if read:
                relations.append("the same turn reads the line's dossier")
            if (line.marker and line.marker in ctx.directed_markers) or (
                line.number in ctx.directed_lines
            ):
                relations.append("the directed item names this line")
            corrects_prev = bool(corr) and line.hash in prev_ids
            corrects_direct = bool(corr) and _direction_hit(line, words)
            if corrects_prev:
                relations.append("it corrects the session's previous turn on this line")
            elif corrects_direct and not relations:
                relations.append("it corrects behaviour the line guides")
            if not relations:
                continue
            only_trigger = relations == [TRIGGER_REL]
            if (
                only_trigger
                and (instr or pref or corr)
                and not _strong_trigger(line, words)
                and not _direction_hit(line, words)
            ):
                # A correction or standing instruction that only brushes one trigger
                # cue and asks for another behaviour is not about that line.
                continue
            if only_trigger and not turn.get("rows") and not _strong_trigger(line, words):
                # One cue in passing, and the agent did nothing in that turn: too thin
                # to call even NEUTRAL.
                continue
            out.append(
                self._line_judgement(
                    turn,
                    previous,
                    line,
                    ctx,
                    relations,
                    read,
                    corr,
                    corrects_prev,
                    reply_tokens,
                    quote,
                    entities,
                    text,
                )
            )
        if out or not (corr or instr or pref):
            return out
        return self._new_signal(turn, text, corr, instr, pref, quote, entities)

    def _line_judgement(
        self,
        turn: Turn,
        previous: SessionMemory,
        line: BoardLine,
        ctx: JudgeContext,
        relations: list[str],
        read: bool,
        corr: str | None,
        corrects_prev: bool,
        reply_tokens: frozenset[str],
        quote: str,
        entities: tuple[str, ...],
        text: str,
    ) -> Judgement:
        why = "; ".join(relations)
        ref = line.ref
        if corr:
            judged = previous.turn if corrects_prev and previous.turn is not None else None
            root = None
            evidence = [quote, f'It carries the correction marker "{corr}" ({why}).']
            if judged is not None:
                evidence.append(
                    f"It judges the previous turn {judged['id']}, where {_rows_summary(judged)}."
                )
                root = _root_cause(line, judged, text, ctx)
            notes = [f"This weakens `{ref}` because the agent needed correction despite the line."]
            wanted = wanted_behaviour(text)
            if wanted:
                notes.append(f'Wanted behaviour: "{one_line(wanted, 160)}".')
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
        behaviour = _rows_summary(turn)
        if read:
            traj, act, signal = "STRENGTHENING", "activated", "dossier-read"
            note = f"This strengthens `{ref}` because the agent opened the line's dossier."
        elif turn.get("rows") and _direction_hit(line, reply_tokens):
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
        return Judgement(
            line=line,
            trajectory=traj,
            activation=act,
            signal=signal,
            reason=f"{traj.lower()}: {'; '.join(relations)}",
            evidence=(quote, f"Relation: {'; '.join(relations)}. In the same turn {behaviour}."),
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
        turn: Turn,
        text: str,
        corr: str | None,
        instr: str | None,
        pref: str | None,
        quote: str,
        entities: tuple[str, ...],
    ) -> list[Judgement]:
        wanted = wanted_behaviour(text)
        if one_off_marker(text) and not instr:
            return []
        if instr or pref:
            signal = "instruction" if instr else "preference"
            marker = instr or pref
        elif corr and wanted and not is_transient_question(text):
            signal, marker = "correction", corr
        else:
            return []
        if is_transient_question(text) and not (instr or pref):
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
                evidence=(quote,),
                notes=tuple(notes),
                entities=entities,
            )
        ]
