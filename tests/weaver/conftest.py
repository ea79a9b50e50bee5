"""The judge contract: the labelled corpora run over every registered judge.

``contract_judge`` yields each name the registry holds, plus ``fixed`` — a
fixed-answer judge registered only here, answering each labelled turn of the
attribution corpus with its label (what a judge that is exactly right says).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.attribution import load, session_events
from shared.weaver.judging.fixed import Answer, FixedJudge
from shared.weaver.judging.interfaces import EventJudge, JudgeSet
from shared.weaver.judging.registry import judge_set, names, registered
from shared.weaver.judging.verdicts import Trajectory, WeakeningKind

FIXED = "fixed"


def label_answers() -> dict[str, tuple[Answer, ...]]:
    """The attribution corpus's labels by event id, as fixed answers."""
    _, labelled = session_events(load())
    return {
        event_id: tuple(
            Answer(
                None if e[0] == "none" else e[0],
                Trajectory(e[1]),
                WeakeningKind(e[2]) if len(e) > 2 and e[2] else None,
            )
            for e in turn["expect"]
        )
        for event_id, turn in labelled.items()
    }


def fixed_judges() -> JudgeSet:
    rules = judge_set("rules")
    answers = label_answers()
    return JudgeSet(FIXED, "1", lambda: FixedJudge(answers), rules.line, rules.dossier)


@pytest.fixture(params=[*names(), FIXED])
def contract_judge(request: pytest.FixtureRequest) -> Iterator[EventJudge]:
    """Each registered judge's event judge (and the label-answering fixed judge)."""
    name = str(request.param)
    if name == FIXED:
        with registered(FIXED, fixed_judges):
            yield judge_set(FIXED).event()
    else:
        yield judge_set(name).event()
