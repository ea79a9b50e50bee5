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

import re
from dataclasses import dataclass

from shared.formats.board import Board
from shared.language import lexicon
from shared.language.markers import (
    approval_marker,
    durable_marker,
    is_greeting_or_receipt,
    is_transient_question,
    markers,
    retraction_marker,
    without_requirement_items,
)
from shared.language.text import normalise, own_words, token_set
from shared.weaver.judging.attribution import (
    _NAMES_TRIGGER,
    CITED_REL,
    JUDGES_PREVIOUS,
    NAMES_DIRECTION,
    QUOTED_REL,
    RULE_REF_REL,
    Seen,
    attribute,
    tier,
)
from shared.weaver.judging.interfaces import JudgeContext, Judgement, SessionMemory
from shared.weaver.judging.judgements import (
    action_judgement,
    approval,
    asked_again,
    correction,
    line_judgement,
    new_signal,
    retraction,
)
from shared.weaver.judging.verdicts import Trajectory
from shared.weaver.scan.actions import (
    action_evidence,
    asks_instead,
    checks_after_changes,
    commands_named,
    files_named,
    said_evidence,
    skipped,
    speech_evidence,
)
from shared.weaver.scan.facts import TurnFacts
from shared.weaver.scan.matching import BoardIndex, PointerScan
from shared.weaver.scan.quotes import quoted_lines
from shared.weaver.scan.rulefiles import rule_files
from shared.weaver.scan.turns import Turn

_INSPECTION = lexicon.matcher("inspection_request")
_ANAPHORIC = lexicon.matcher("anaphoric_request")
_RULE_REF = lexicon.matcher("rule_reference")
_CODE_SPAN = re.compile(r"`[^`\n]+`")
# What the person typed inside an action an importer reports (shared.importing): the
# reason they gave for rejecting a tool call (Claude Code, Codex) and a shell command they
# ran themselves (Codex's "!cmd"). The rest of an action's text is the importer's.
_REASON = re.compile(r"(?:rejected the agent's \S+ call|ran a shell command): ")
# Bump when a rule may answer differently: recorded verdicts are then re-judged.
VERSION = "19"
HUMAN_TYPES = frozenset({"channel.message", "channel.command"})
# A correction's candidate line: (index, relations, corrects the previous turn, tier).
_Blamed = tuple[int, list[str], bool, int]


@dataclass(frozen=True)
class _Scope:
    """What a context contributes per board: the lines directed items name and a
    scanner for its entities (None when it has none)."""

    directed: frozenset[int]
    entities: PointerScan | None
    # Per rule file a dossier cites, the lines pointing at such a dossier.
    by_rule_file: dict[str, frozenset[int]]


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
            by_file: dict[str, set[int]] = {}
            for i, line in enumerate(index.board.lines):
                for pointer in line.pointers:
                    for name in ctx.rule_files.get(pointer, ()):
                        by_file.setdefault(name, set()).add(i)
            files = {name: frozenset(lines) for name, lines in by_file.items()}
            self._scope = (ctx, index, _Scope(directed, entities, files))
        return self._scope[2]

    def judge(
        self, turn: Turn, previous: SessionMemory, board: Board, ctx: JudgeContext
    ) -> list[Judgement]:
        said = self._judge_words(turn, previous, board, ctx)
        index = self.index(board)
        if not index.has_actions or not turn.get("rows"):
            return said
        earlier = previous.turn
        evidence = (
            action_evidence(
                turn,
                index.actions,
                lambda: index.triggered(token_set(turn.get("text", ""))),
                (lambda: checks_after_changes(earlier)) if earlier is not None else None,
            )
            + asks_instead(turn, index.no_asking, index.situations)
            + said_evidence(turn, index.phrases)
            + speech_evidence(turn, index.unsaid)
        )
        if not evidence:
            return said
        # What the agent ran decides a line the words left neutral or strengthened; a
        # correction the user made in words stands.
        by_line = {j.line.number: j for j in said if j.line is not None}
        facts = TurnFacts(turn, turn.get("text", ""), previous, index)
        # Running what the user's words asked for in this very turn ("then run
        # `./cleanup.py status`") does what was asked, not what the line keeps asking.
        own = own_words(turn.get("text", ""))
        asked = commands_named(own, index.actions)
        words = token_set(own)
        for item in evidence:
            line = board.lines[item.index]
            prior = by_line.get(line.number)
            if prior is not None and prior.trajectory == Trajectory.WEAKENING:
                continue
            if item.followed and item.index in asked:
                continue
            if not item.followed and _asked_for(item.command, words):
                # "please push directly to main": what the user asked for in this turn
                # is no silent miss of the line against it
                continue
            by_line[line.number] = action_judgement(facts, line, item.followed, item.command)
        lines = {j.line.number for j in said if j.line is not None}
        out = [by_line[j.line.number] if j.line is not None else j for j in said]
        out += [j for n, j in by_line.items() if n not in lines]
        return out

    def _judge_words(
        self, turn: Turn, previous: SessionMemory, board: Board, ctx: JudgeContext
    ) -> list[Judgement]:
        text: str = turn.get("text", "")
        if turn.get("action"):
            # What the person did, in the importer's words ("rejected the agent's Bash
            # call", "cancelled the agent's step"): only a reason they typed is theirs.
            text = _REASON.sub("", text) if _REASON.match(text) else ""
        if not text.strip():
            return []
        # Markers count only in the user's own lines, never in what they pasted.
        own = own_words(text)
        corr, instr, pref = markers(own)
        if corr:
            # A prohibition among the items of a task list specifies the task.
            tasked = without_requirement_items(own)
            corr = markers(tasked)[0] if tasked is not own else corr
        human = turn.get("type") in HUMAN_TYPES
        if human and not (corr or instr or pref):
            # "attempt dotnet format when needing to fix lint errors", "make a rule for
            # it": standing without an instruction word of the marker table.
            instr = durable_marker(own)
        if not human and not (corr or instr):
            return []
        taken_back = retraction_marker(own) if human and previous.corrections else None
        if taken_back:
            index = self.index(board)
            return retraction(TurnFacts(turn, text, previous, index), taken_back)
        if not corr and previous.turn is not None and approval_marker(own):
            upgraded = approval(own, previous)
            if upgraded:
                return upgraded
        if is_greeting_or_receipt(text):
            return []
        index = self.index(board)
        scope = self.scope(ctx, index)
        low = normalise(own)
        # An action's text (a declined proposal) names the agent's command, not a request.
        acted = turn.get("action", False)
        named = commands_named(own, index.actions) if index.has_actions and not acted else set()
        asked_for = named if named and not corr and durable_marker(text) else set()
        after_skip = after_stop = False
        if not asked_for and not corr and human and index.has_actions and not acted:
            asked_for = _asked_after_skipping(own, previous, index)
            after_skip = bool(asked_for)
        if not asked_for and human and index.has_actions and not acted and _stopped(previous):
            # The person stopped the agent's step and names the program to use instead
            # ("Use uv pip"): a rejected call followed by the line's way (labelling,
            # "Real sessions").
            asked_for = commands_named(own, index.actions, bare=True)
            after_stop = bool(asked_for)
        seen = _observe(
            turn,
            own,
            low,
            previous,
            index,
            scope,
            corr,
            bool(instr or pref or corr),
            named | asked_for,
        )
        if seen is None and not (instr or pref):
            return []  # no line to relate to and nothing to report as new (the common turn)
        entities = tuple(sorted(scope.entities.named(low, text))) if scope.entities else ()
        out = self._related(turn, text, own, previous, board, ctx, seen, entities) if seen else []
        if asked_for:
            # Asking for a standing rule the board already holds ("we should always run
            # `mise run fmt`"), or for what a line prescribes right after the agent's work
            # skipped it ("Please update version and changelog."): the line was missed
            # (labelling, "Real sessions").
            facts = TurnFacts(turn, text, previous, index)
            asked = [
                asked_again(facts, board.lines[i], after_skip=after_skip, after_stop=after_stop)
                for i in sorted(asked_for)
            ]
            out = [j for j in out if j.line is None or j.line.number not in
                   {a.line.number for a in asked if a.line is not None}] + asked  # fmt: skip
            return out
        if not (corr or instr or pref):
            return out
        if (out and not (instr or pref)) or _covered(out, own, board, index):
            return out
        # A standing instruction beside lines it only touches (NEUTRAL, their direction
        # not named: "update CLAUDE.md: ask before running the e2e tests" beside the
        # integration-test line) is still new.
        if previous.corrections and _ANAPHORIC.search(own) is not None:
            # "Make sure you always do this going forward" right after a correction of a
            # board line asks for that line again: the line exists, nothing is new.
            return out
        facts = TurnFacts(turn, text, previous, index)
        return out + new_signal(facts, corr, instr, pref, entities)

    def _related(
        self,
        turn: Turn,
        text: str,
        own: str,
        previous: SessionMemory,
        board: Board,
        ctx: JudgeContext,
        seen: Seen,
        entities: tuple[str, ...],
    ) -> list[Judgement]:
        """The judgements of the lines the turn relates to; a correction's candidates
        are attributed after all are seen (see :func:`attribute`)."""
        index = self.index(board)
        named = seen.triggered | seen.mentioned | seen.read | seen.directed
        named |= seen.cited | seen.quoted
        facts: TurnFacts | None = None  # built for the first judgement only
        # "Why didn't you follow this rule?": the rule the previous turn related to.
        points_at_rule = bool(seen.corr) and _RULE_REF.search(own) is not None
        out: list[Judgement] = []
        blamed: list[_Blamed] = []
        near: set[int] | None = None  # lines a marked sentence meets, found when asked
        for i in index.candidates(seen.words, bool(seen.corr), seen.prev_ids, named):
            line = board.lines[i]
            cues = index.cues[i]
            relations = seen.relations(i, line, cues)
            if not relations:
                continue
            facts = facts or TurnFacts(turn, text, previous, index)
            if seen.corr:
                corrects_prev = line.hash in seen.prev_ids
                rank = tier(i, cues, seen.words, named)
                if (
                    rank == JUDGES_PREVIOUS
                    and not _broken(previous, line.hash)
                    and not points_at_rule
                ):
                    # The previous turn only touched the line (NEUTRAL) or followed it:
                    # a complaint that names neither its trigger nor its direction is
                    # about something else ("the keys still aren't registered" after
                    # the agent ran the line's build command is a bug report).
                    continue
                if (
                    rank == _NAMES_TRIGGER
                    and i in seen.triggered
                    and not (i in seen.mentioned or i in seen.cited or i in seen.quoted)
                    and not _broken(previous, line.hash)
                ):
                    near = _complained_near(own, index) if near is None else near
                    if i not in near:
                        # The complaint and the line's situation sit in different
                        # sentences ("I do not wish to make changes now. … the console
                        # app"): the complaint is about something else.
                        continue
                if points_at_rule and corrects_prev:
                    relations = [*relations, RULE_REF_REL]
                blamed.append((i, relations, corrects_prev, rank))
            else:
                out.append(line_judgement(facts, i, line, relations, i in seen.read, entities))
        if blamed:
            assert facts is not None
            out += self._corrections(facts, blamed, board, ctx, seen.corr or "", entities)
        return out

    def _corrections(
        self,
        facts: TurnFacts,
        blamed: list[_Blamed],
        board: Board,
        ctx: JudgeContext,
        corr: str,
        entities: tuple[str, ...],
    ) -> list[Judgement]:
        """The WEAKENING judgements of the lines a correction is attributed to. An
        empty choice: a complaint no careful reader could pin on one line; it can
        still state a new durable instruction."""
        out = []
        words = token_set(facts.text)

        def overlap(i: int) -> float:
            direction = facts.index.cues[i].direction
            return len(direction & words) / len(direction) if direction else 0.0

        # The same complaint made again within the take-back window is one WEAKENING
        # (labelling "Repetition"): the line already carries it from the earlier turn.
        made = {line.hash for _, line, _ in facts.previous.corrections}
        for i, relations, corrects_prev, named_tier in attribute(blamed, overlap):
            if board.lines[i].hash in made:
                continue
            judged = facts.previous.turn if corrects_prev else None
            out.append(
                correction(
                    facts,
                    i,
                    board.lines[i],
                    ctx,
                    relations,
                    corr,
                    judged,
                    entities,
                    # Pointing at the rule's file asks for what the rule says.
                    named_direction=named_tier == NAMES_DIRECTION
                    or CITED_REL in relations
                    or QUOTED_REL in relations
                    or RULE_REF_REL in relations,
                )
            )
        return out


def _covered(out: list[Judgement], own: str, board: Board, index: BoardIndex) -> bool:
    """Some line the turn relates to holds what the user says: a judgement other than
    NEUTRAL, or a line whose direction the user's words name."""
    if any(j.trajectory != Trajectory.NEUTRAL for j in out):
        return True
    words = token_set(own)
    at = {ln.number: i for i, ln in enumerate(board.lines)}
    named = commands_named(own, index.actions) if index.has_actions else set()
    for j in out:
        if j.line is None:
            continue
        i = at[j.line.number]
        # A line that names its command is named by that command, not by "run" and
        # "tests" ("ask before running the e2e tests" beside `mise run test:integration`).
        if i in named or (not index.actions[i].explicit and index.cues[i].direction_hit(words)):
            return True
    return False


def _asked_after_skipping(own: str, previous: SessionMemory, index: BoardIndex) -> set[int]:
    """Lines whose command or file the user's own words ask for, when the session's
    previous turn changed files and did none of it (never a question: "did you update
    the changelog?" asks, it does not request)."""
    judged = previous.turn
    if judged is None or not judged.get("rows") or is_transient_question(own):
        return set()
    if _INSPECTION.search(own) is not None:
        return set()  # "review the changelog entry": it exists, it is not asked for
    wanted = commands_named(own, index.actions, 2) | files_named(own, index.actions)
    return {i for i in wanted if skipped(judged, index.actions[i])}


_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|\n+")


def _complained_near(own: str, index: BoardIndex) -> set[int]:
    """The lines whose trigger a sentence of the user's that carries a correction marker
    meets: where a complaint names a line's situation in the same breath."""
    found: set[int] = set()
    for sentence in _SENTENCE.split(own):
        if sentence.strip() and markers(sentence)[0]:
            found |= index.triggered(token_set(normalise(_CODE_SPAN.sub(" ", sentence))))
    return found


def _asked_for(deed: str, said: frozenset[str]) -> bool:
    """Every word of what the agent did ("pushed to main", "npm install") is in the
    user's own words of the turn."""
    words = token_set(deed)
    return bool(words) and words <= said


def _stopped(previous: SessionMemory) -> bool:
    """The session's previous turn is the person stopping the agent: a rejected tool
    call, an interruption, a cancelled step (an importer's user action)."""
    return previous.turn is not None and bool(previous.turn.get("action"))


def _broken(previous: SessionMemory, line_hash: str) -> bool:
    """The previous turn went against the line (a WEAKENING trajectory)."""
    return any(
        ln.hash == line_hash and traj == Trajectory.WEAKENING
        for ln, traj in zip(previous.lines, previous.trajectories, strict=False)
    )


def _observe(
    turn: Turn,
    own: str,
    low: str,
    previous: SessionMemory,
    index: BoardIndex,
    scope: _Scope,
    corr: str | None,
    asks: bool,
    commands: set[int],
) -> Seen | None:
    """What the turn shows for relating it to lines, or None when it relates to none.
    ``own`` is the user's own words (``low`` normalised); ``commands`` are the lines
    whose commands the user's words name: named as a pointer is."""
    words = token_set(low)
    mentioned = index.mentioned(low) | commands
    read = index.read(turn) if turn.get("rows") else set()
    # A complaint's code spans quote what it complains about ("it still contains
    # `initial commit`"): their words are the output's, not the situation it names.
    spoken = normalise(_CODE_SPAN.sub(" ", own)) if corr else low
    triggered = index.triggered(token_set(spoken) if spoken != low else words)
    cited = _cited(low, words, index, scope)
    # Quoting a line names it in a correction or an instruction (the common turn has
    # neither, and is spared the search).
    quoted = quoted_lines(turn.get("text", ""), index.quotes) if asks else frozenset[int]()
    if not (corr or triggered or mentioned or read or scope.directed or cited or quoted):
        return None
    return Seen(
        words,
        corr,
        asks,
        bool(turn.get("rows")),
        triggered,
        mentioned,
        read,
        scope.directed,
        {ln.hash for ln in previous.lines},
        cited,
        quoted,
    )


def _cited(low: str, words: frozenset[str], index: BoardIndex, scope: _Scope) -> frozenset[int]:
    """The lines a rule file named in the turn stands for: its one line on the board,
    or, when it holds several, those whose direction the turn also names (naming a file
    of five rules names none of them)."""
    if not scope.by_rule_file:
        return frozenset()
    cited: set[int] = set()
    for name in rule_files(low):
        lines = scope.by_rule_file.get(name, frozenset())
        if len(lines) == 1:
            cited |= lines
        else:
            cited |= {i for i in lines if index.cues[i].direction_hit(words)}
    return frozenset(cited)
