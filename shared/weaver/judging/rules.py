"""The rule-based judges: the deterministic, explainable default of every seam.

:class:`RuleJudge` is the scanner's event judge. A judge sees one session turn
(origin event + the agent's tool/reply rows), the session's previous turn and what
it related to, and the board; it returns :class:`Judgement` records, each with the
reason it was made for. Another judge (a model behind an HTTP API, say) registers
beside it (:mod:`shared.weaver.judging.registry`) without touching the scanner.
The rules work on normalised tokens (EN stemming, CJK bigrams), so they apply to
wording and languages the corpus never showed. The per-board lookups they use live
in :mod:`shared.weaver.scan.matching`.
"""

from __future__ import annotations

from dataclasses import dataclass

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
from shared.weaver.judging.interfaces import JudgeContext, Judgement, SessionMemory
from shared.weaver.judging.vocabulary import Activation, Signal, Trajectory, WeakeningKind
from shared.weaver.scan.facts import TurnFacts, root_cause, rows_summary
from shared.weaver.scan.matching import BoardIndex, LineCues, PointerScan
from shared.weaver.scan.turns import Turn

# Bump when a rule may answer differently: recorded verdicts are then re-judged.
VERSION = "1"
HUMAN_TYPES = frozenset({"channel.message", "channel.command"})
TRIGGER_REL = "the event shows the line's trigger cue"
WANTED_LIMIT = 300
KIND_REASONS = {
    WeakeningKind.RECALL_MISS: "the user asked for what the line says",
    WeakeningKind.DIRECTION_CHANGED: "the user states a different behaviour",
    WeakeningKind.OBSOLETE: "the user says the practice stopped or is out of date",
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


def correction_kind(text: str, line: BoardLine, named_direction: bool) -> WeakeningKind | None:
    """The weakening kind of a correction of ``line``: what its words say (obsolete,
    direction changed), or a recall miss when it names the line's own direction. A
    "change" whose new direction reads like the line's own is a recall miss."""
    said = weakening_kind(text)
    kind = WeakeningKind(said) if said is not None else None
    if kind is WeakeningKind.DIRECTION_CHANGED:
        wanted = new_direction(text)
        if wanted and jaccard(token_set(wanted), line.direction_cues) >= 0.6:
            return WeakeningKind.RECALL_MISS
        return kind
    if kind is not None:
        return kind
    return WeakeningKind.RECALL_MISS if named_direction else None


@dataclass(frozen=True)
class _Scope:
    """What a context contributes per board: the lines directed items name and a
    scanner for its entities (None when it has none)."""

    directed: frozenset[int]
    entities: PointerScan | None


@dataclass(frozen=True, slots=True)
class _Seen:
    """What one turn shows, for relating it to each candidate line: its words and
    markers, and the lines it triggers, names, reads or is directed at."""

    words: frozenset[str]
    corr: str | None
    asks: bool  # a correction, instruction or preference
    has_rows: bool
    triggered: set[int]
    mentioned: set[int]
    read: set[int]
    directed: frozenset[int]
    prev_ids: set[str]

    def relations(self, i: int, line: BoardLine, cues: LineCues) -> list[str]:
        """Why the turn relates to line ``i`` (empty: it does not, or too thinly)."""
        relations: list[str] = []
        if i in self.triggered:
            relations.append(TRIGGER_REL)
        if i in self.mentioned:
            relations.append("the event names the line's pointer")
        if i in self.read:
            relations.append("the same turn reads the line's dossier")
        if i in self.directed:
            relations.append("the directed item names this line")
        if self.corr and line.hash in self.prev_ids:
            relations.append("it corrects the session's previous turn on this line")
        elif self.corr and not relations and cues.direction_hit(self.words):
            relations.append("it corrects behaviour the line guides")
        if relations == [TRIGGER_REL] and cues.trigger_hits(self.words) < 2:
            if self.asks and not cues.direction_hit(self.words):
                # A correction or standing instruction that only brushes one trigger
                # cue and asks for another behaviour is not about that line.
                return []
            if not self.has_rows:
                # One cue in passing, and the agent did nothing in that turn: too
                # thin to call even NEUTRAL.
                return []
        return relations


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
        seen = _Seen(
            words,
            corr,
            bool(instr or pref or corr),
            bool(turn.get("rows")),
            triggered,
            mentioned,
            read,
            scope.directed,
            {ln.hash for ln in previous.lines},
        )
        named = triggered | mentioned | read | scope.directed
        facts: TurnFacts | None = None  # built for the first judgement only
        out: list[Judgement] = []
        # A correction's candidate lines, attributed after all are seen (see _attribute).
        blamed: list[tuple[int, list[str], bool, int]] = []
        for i in index.candidates(words, bool(corr), seen.prev_ids, named):
            line = board.lines[i]
            cues = index.cues[i]
            relations = seen.relations(i, line, cues)
            if not relations:
                continue
            facts = facts or TurnFacts(turn, text, previous, index)
            if corr:
                corrects_prev = line.hash in seen.prev_ids
                blamed.append((i, relations, corrects_prev, _tier(i, cues, words, named)))
            else:
                out.append(self._line_judgement(facts, i, line, relations, i in read, entities))
        if blamed:
            assert facts is not None
            out += self._corrections(facts, blamed, board, ctx, corr or "", entities)
        if out or not (corr or instr or pref):
            return out
        facts = TurnFacts(turn, text, previous, index)
        return self._new_signal(facts, corr, instr, pref, entities)

    def _corrections(
        self,
        facts: TurnFacts,
        blamed: list[tuple[int, list[str], bool, int]],
        board: Board,
        ctx: JudgeContext,
        corr: str,
        entities: tuple[str, ...],
    ) -> list[Judgement]:
        """The WEAKENING judgements of the lines a correction is attributed to. An
        empty choice: a complaint no careful reader could pin on one line; it can
        still state a new durable instruction."""
        out = []
        for i, relations, corrects_prev, tier in _attribute(blamed):
            judged = facts.previous.turn if corrects_prev else None
            out.append(
                self._correction(
                    facts,
                    i,
                    board.lines[i],
                    ctx,
                    relations,
                    corr,
                    judged,
                    entities,
                    named_direction=tier == _NAMES_DIRECTION,
                )
            )
        return out

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
        wanted = (
            new_direction(facts.text)
            if kind is WeakeningKind.DIRECTION_CHANGED
            else facts.wanted_text
        )
        if wanted and len(wanted) <= WANTED_LIMIT and "\n" not in wanted:
            notes.append(f'Wanted behaviour: "{wanted}".')
        if root:
            notes.append(f"Root cause: {root} (from the judged turn's tool trace).")
        return Judgement(
            line=line,
            trajectory=Trajectory.WEAKENING,
            activation=Activation.MISSED,
            signal=Signal.CORRECTION,
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
            traj, act, signal = Trajectory.STRENGTHENING, Activation.ACTIVATED, Signal.DOSSIER_READ
            note = f"This strengthens `{ref}` because the agent opened the line's dossier."
        elif turn.get("rows") and facts.followed(i):
            traj, act, signal = Trajectory.STRENGTHENING, Activation.ACTIVATED, Signal.TRIGGER
            note = (
                f"This strengthens `{ref}` because the agent's turn followed the line's direction."
            )
        else:
            traj, act = Trajectory.NEUTRAL, Activation.WAITING
            signal = Signal.DIRECTED if "directed" in relations[0] else Signal.TRIGGER
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
            if traj != Trajectory.NEUTRAL:
                continue
            out.append(
                Judgement(
                    line=line,
                    trajectory=Trajectory.STRENGTHENING,
                    activation=Activation.ACTIVATED,
                    signal=Signal.TRIGGER,
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
            signal = Signal.INSTRUCTION if instr else Signal.PREFERENCE
            marker = instr or pref
        elif corr and wanted and not is_transient_question(text):
            signal, marker = Signal.CORRECTION, corr
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
                trajectory=Trajectory.NEW_SIGNAL,
                activation=Activation.WAITING,
                signal=signal,
                reason=f"new {signal} ({marker}) with no related board line",
                evidence=(facts.quote,),
                notes=tuple(notes),
                entities=entities,
            )
        ]
