"""The judgements the rule judge makes of a turn: a correction (WEAKENING), a touched
line (STRENGTHENING or NEUTRAL), an approval of the previous turn, a new signal."""

from __future__ import annotations

from shared.formats.board import BoardLine
from shared.language.markers import (
    approval_marker,
    candidate_rule,
    durable_marker,
    is_transient_question,
    new_direction,
    one_off_marker,
)
from shared.language.text import one_line, own_words, token_set
from shared.weaver.judging.attribution import KIND_REASONS, TRIGGER_REL, correction_kind
from shared.weaver.judging.interfaces import JudgeContext, Judgement, SessionMemory
from shared.weaver.judging.verdicts import Activation, Signal, Trajectory, WeakeningKind
from shared.weaver.scan.facts import TurnFacts, root_cause, rows_summary
from shared.weaver.scan.turns import Turn

WANTED_LIMIT = 300


def correction(
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
        new_direction(facts.text) if kind is WeakeningKind.DIRECTION_CHANGED else facts.wanted_text
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


def line_judgement(
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
    elif (
        turn.get("rows")
        and not facts.index.actions[i].explicit
        and _asked_of(line, relations)
        and facts.followed(i)
        # "ci failed, please fix": doing what the turn asked in the line's own words is
        # the request done, not the standing line applied unasked
        and not facts.index.cues[i].direction_hit(token_set(own_words(facts.text)))
    ):
        # A line that names commands is judged by what the agent ran (scan/actions.py),
        # never by its words turning up in a long reply.
        traj, act, signal = Trajectory.STRENGTHENING, Activation.ACTIVATED, Signal.TRIGGER
        note = f"This strengthens `{ref}` because the agent's turn followed the line's direction."
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


def _asked_of(line: BoardLine, relations: list[str]) -> bool:
    """The turn met the line's situation apart from its behaviour: the line has a
    trigger clause of its own, or the turn relates by more than shared words (a pointer,
    a directed item). A line without one ("Use feature branches for new work; merge only
    stable features") is met and "followed" by the same words, so a reply that explains
    the topic ("each feature branch gets a preview") would count as following it."""
    return relations != [TRIGGER_REL] or bool(line.trigger)


def approval(text: str, previous: SessionMemory) -> list[Judgement]:
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


def new_signal(
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
    if durable_marker(text) is None:
        return []  # about the task at hand: nothing to remember (labelling: transient)
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


def action_judgement(facts: TurnFacts, line: BoardLine, followed: bool, command: str) -> Judgement:
    """What the agent ran bears on ``line``: it ran the command the line prescribes
    (STRENGTHENING), or one the line forbids (WEAKENING, a recall miss nobody remarked)."""
    ref = line.ref
    what = _deed(command)
    if followed:
        return Judgement(
            line=line,
            trajectory=Trajectory.STRENGTHENING,
            activation=Activation.ACTIVATED,
            signal=Signal.TRIGGER,
            reason=f"strengthening: action: the agent {what}, which the line prescribes",
            evidence=(facts.quote, f"In the same turn {facts.behaviour}."),
            notes=(f"This strengthens `{ref}` because the agent {what} as it says.",),
        )
    return Judgement(
        line=line,
        trajectory=Trajectory.WEAKENING,
        activation=Activation.MISSED,
        signal=Signal.TRIGGER,
        reason=f"weakening: action: the agent {what}, which the line forbids",
        evidence=(facts.quote, f"In the same turn {facts.behaviour}."),
        notes=(
            f"This weakens `{ref}` because the agent {what} against it.",
            f"Weakening kind: {WeakeningKind.RECALL_MISS} (the line held and was not applied).",
        ),
        kind=WeakeningKind.RECALL_MISS,
    )


def _deed(evidence: str) -> str:
    """What the agent did, as a fragment says it: "ran `go test`", "edited
    `CHANGELOG.md`", "said "i need clarification on"", "asked before acting"."""
    if evidence.startswith("edited "):
        return f"edited `{evidence.removeprefix('edited ')}`"
    if evidence.startswith(("said ", "committed ")) or evidence == "asked before acting":
        return evidence
    if evidence.startswith("used "):
        return f"used `{evidence.removeprefix('used ')}` in a command"
    if evidence.startswith("pushed to "):
        return f"pushed to `{evidence.removeprefix('pushed to ')}`"
    return f"ran `{evidence}`"


def asked_again(
    facts: TurnFacts, line: BoardLine, *, after_skip: bool = False, after_stop: bool = False
) -> Judgement:
    """The user asks for a standing rule the line already holds, (``after_skip``) for
    what it prescribes right after the agent's turn skipped it, or (``after_stop``) right
    after stopping the agent's step: WEAKENING, recall miss."""
    ref = line.ref
    if after_stop:
        why = "right after stopping the agent's step, the user asks for what the line prescribes"
    elif after_skip:
        why = "the user asks for what the line prescribes, which the agent's previous turn skipped"
    else:
        why = "the user asks for a standing rule the line already holds"
    return Judgement(
        line=line,
        trajectory=Trajectory.WEAKENING,
        activation=Activation.MISSED,
        signal=Signal.CORRECTION,
        reason=f"weakening: {why}",
        evidence=(facts.quote,),
        notes=(
            f"This weakens `{ref}`: the user had to ask again for what it says.",
            f"Weakening kind: {WeakeningKind.RECALL_MISS} "
            f"({KIND_REASONS[WeakeningKind.RECALL_MISS]}).",
        ),
        kind=WeakeningKind.RECALL_MISS,
    )


def retraction(facts: TurnFacts, marker: str) -> list[Judgement]:
    """The user takes back the correction they made in one of the last turns: the
    latest word wins, so that correction's WEAKENING gives way to a NEUTRAL."""
    corrections = facts.previous.corrections
    latest = corrections[-1][0]
    out = []
    for tid, line, _ in corrections:
        if tid != latest:
            continue
        out.append(
            Judgement(
                line=line,
                trajectory=Trajectory.NEUTRAL,
                activation=Activation.WAITING,
                signal=Signal.CORRECTION,
                reason=f"retraction ({marker}): the user took back their correction in {tid}",
                evidence=(facts.quote, f"It takes back the correction made in turn {tid}."),
                notes=(
                    f"This is neutral for `{line.ref}`: the user withdrew the correction "
                    "that weakened it, and the latest of two contradicting turns wins.",
                ),
                supersedes=tid,
            )
        )
    return out
