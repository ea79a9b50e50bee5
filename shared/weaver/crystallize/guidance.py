"""The guidance of an effectiveness file: the verdict its counts give, and the edit
the evidence asks for (keep, sharpen, rewrite toward the user's words, or remove)."""

from __future__ import annotations

from shared.language.text import one_line
from shared.weaver.crystallize.prose import wanted_of
from shared.weaver.crystallize.store import StoredFragment
from shared.weaver.judging.verdicts import RootCause, Trajectory, WeakeningKind


def verdict_of(s: int, n: int, w: int) -> str:
    if w > s:
        return Trajectory.WEAKENING
    if s > w:
        return Trajectory.STRENGTHENING
    return Trajectory.NEUTRAL


def _when(g: StoredFragment) -> tuple[str, str]:
    return (g.fragment.source_ts, g.rel)


def _classified(group: list[StoredFragment]) -> list[str] | None:
    """Guidance from what the evidence says (issue #11), or None for the count rules.

    The newest explicit statement decides: a direction change rewrites, an obsolete
    practice removes, unless the line was applied or reaffirmed after it; a recall
    miss (the user asked for what the line says) keeps the line.
    """
    weak = sorted((g for g in group if g.fragment.trajectory == Trajectory.WEAKENING), key=_when)
    if not any(g.fragment.weakening_kind for g in weak):
        return None
    explicit = [
        g
        for g in weak
        if g.fragment.weakening_kind in {WeakeningKind.DIRECTION_CHANGED, WeakeningKind.OBSOLETE}
    ]
    latest = explicit[-1] if explicit else None
    if latest is not None:
        later = [
            g
            for g in group
            if _when(g) > _when(latest)
            and (
                g.fragment.trajectory == Trajectory.STRENGTHENING
                or g.fragment.weakening_kind == WeakeningKind.RECALL_MISS
            )
        ]
        if not later:
            if latest.fragment.weakening_kind == WeakeningKind.OBSOLETE:
                return [
                    f"REMOVE [obsolete]: the user says the practice stopped or is out of date "
                    f"({latest.rel}); move the line's text to its topic dossier."
                ]
            wanted = wanted_of(latest)
            if wanted:
                return [
                    f"REWRITE [direction-changed]: the user states a different behaviour "
                    f'({latest.rel}); direction that would have helped: "{wanted}"'
                ]
            return [
                f"KEEP [direction-changed]: the user changed the direction ({latest.rel}) "
                "but no new direction is quoted whole; preserve until one is."
            ]
    recall = [g for g in weak if g.fragment.weakening_kind == WeakeningKind.RECALL_MISS]
    if recall:
        return [
            f"KEEP [recall-miss]: the user reaffirmed the line after the agent missed it "
            f"({recall[-1].rel}); keep it, sharpen the trigger at most."
        ]
    return None


def guidance_for(verdict: str, group: list[StoredFragment]) -> list[str]:
    s = sum(1 for g in group if g.fragment.trajectory == Trajectory.STRENGTHENING)
    w = sum(1 for g in group if g.fragment.trajectory == Trajectory.WEAKENING)
    classified = _classified(group)
    if classified is not None:
        return classified
    if verdict == Trajectory.STRENGTHENING:
        return [f"KEEP: strengthening evidence outweighs weakening ({s} vs {w}); preserve."]
    if verdict == Trajectory.NEUTRAL:
        return ["KEEP: sparse, waiting or balanced evidence; preserve the line as-is."]
    weak = sorted(
        (g for g in group if g.fragment.trajectory == Trajectory.WEAKENING),
        key=lambda g: (g.fragment.source_ts, g.rel),
    )
    recall = sum(1 for g in weak if g.fragment.root_cause == RootCause.RECALL_MISS)
    wrong = sum(1 for g in weak if g.fragment.root_cause == RootCause.DIRECTION_WRONG)
    tail = f"; root_cause direction-wrong = {wrong}" if wrong else ""
    wanted = next((x for x in (wanted_of(g) for g in reversed(weak)) if x), None)
    if recall > wrong and not wanted:
        return [
            f"SHARPEN: the direction holds but was not recalled (root_cause recall-miss = "
            f"{recall}); make the trigger more visible."
        ]
    if wanted:
        return [
            "REWRITE: the trigger is real but the direction failed; direction that would "
            f'have helped: "{one_line(wanted, 160)}"{tail}'
        ]
    return [
        "REMOVE: weakening evidence names no better direction; move the line's text to "
        f"its topic dossier{tail}."
    ]
