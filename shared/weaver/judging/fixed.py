"""A fixed-answer judge: it answers each turn from a table given up front.

For tests and contract suites: built from a corpus's labels, it shows that the
scanner, the crystallizer and the updater carry any judge's answers through
unchanged, and what the contract suite expects of a judge that is exactly right.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shared.formats.board import Board
from shared.weaver.judging.interfaces import JudgeContext, Judgement, SessionMemory
from shared.weaver.judging.verdicts import Activation, Signal, Trajectory, WeakeningKind
from shared.weaver.scan.turns import Turn

_ACTIVATION = {
    Trajectory.STRENGTHENING: Activation.ACTIVATED,
    Trajectory.NEUTRAL: Activation.WAITING,
    Trajectory.WEAKENING: Activation.MISSED,
    Trajectory.NEW_SIGNAL: Activation.WAITING,
}


@dataclass(frozen=True, slots=True)
class Answer:
    """One fixed verdict: the line's marker (None for a NEW_SIGNAL), the trajectory,
    and for a WEAKENING its kind."""

    marker: str | None
    trajectory: Trajectory
    kind: WeakeningKind | None = None
    signal: Signal = Signal.TRIGGER


class FixedJudge:
    """Answers the turn with event id ``x`` with ``answers[x]``; other turns get none.
    A marker the board does not hold is left out (a judge names only board lines)."""

    def __init__(self, answers: Mapping[str, Sequence[Answer]]) -> None:
        self.answers = answers

    def judge(
        self, turn: Turn, previous: SessionMemory, board: Board, ctx: JudgeContext
    ) -> list[Judgement]:
        out: list[Judgement] = []
        for answer in self.answers.get(str(turn.get("id")), ()):
            line = next((ln for ln in board.lines if ln.marker == answer.marker), None)
            if answer.marker is not None and line is None:
                continue
            weakening = answer.trajectory is Trajectory.WEAKENING
            out.append(
                Judgement(
                    line=line,
                    trajectory=answer.trajectory,
                    activation=_ACTIVATION[answer.trajectory],
                    signal=Signal.CORRECTION if weakening else answer.signal,
                    reason=f"fixed answer: {answer.trajectory}",
                    evidence=(f'The external event said: "{turn.get("text", "")}".',),
                    notes=("A fixed answer (the corpus label).",),
                    kind=answer.kind if weakening else None,
                )
            )
        return out
