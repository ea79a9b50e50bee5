"""The rule line judge: the default decision on one board line from its effectiveness
file, and the board-shaped wording of a rewritten or added line."""

from __future__ import annotations

import re

from shared.formats.board import BoardLine
from shared.formats.effectiveness import Effectiveness
from shared.language import lexicon
from shared.language.text import jaccard, token_set
from shared.settings import Settings
from shared.weaver.judging.interfaces import LineDecision
from shared.weaver.judging.verdicts import LineAction, Trajectory

# Greedy to the bullet's last quote: the user's words may hold quotes ("Vous").
_REWRITE_RE = re.compile(r'direction that would have helped: "(.*)"(?:; root_cause [^"]*)?$')


def compose_line(trigger: str, direction: str, marker: str | None, like: str) -> str:
    """A board line in the board's shape, in the language of ``like`` (the line it
    replaces or sits beside) when the trigger is in that language too."""
    indent = like[: len(like) - len(like.lstrip())]
    suffix = f" [[{marker}]]" if marker else ""
    lang = lexicon.language_of(like)
    if trigger and lexicon.language_of(trigger) is not lang:
        lang = lexicon.language_of("")
    if not trigger:
        body = direction
    elif lexicon.matcher("trigger_connective").match(trigger):
        # The user's situation already says when ("before you commit", "提交之前"):
        # it leads the line as written, its first letter as a sentence's.
        sep = "，" if lexicon.language_of(trigger).script is not None else ", "
        body = f"{trigger[:1].upper()}{trigger[1:]}{sep}{direction}"
    else:
        body = lang.line_shape.format(trigger=trigger, direction=direction)
    return f"{indent}- {body}{suffix}"


def _wanted(eff: Effectiveness) -> str | None:
    """The direction a REWRITE guidance bullet quotes, whole."""
    for bullet in eff.guidance:
        match = _REWRITE_RE.search(bullet)
        if match:
            return match.group(1)
    return None


class RuleLineJudge:
    """Deterministic default line decisions: the class of the evidence decides
    (issue #11), the counts only for evidence that names no class (the original's
    fragments, which carry no ``weakening_kind``)."""

    def decide(
        self, line: BoardLine, eff: Effectiveness | None, settings: Settings
    ) -> LineDecision:
        if eff is None:
            return LineDecision(LineAction.KEEP, "no effectiveness file: no line-level evidence")
        counts = (
            f"strengthening = {eff.strengthening}; neutral = {eff.neutral}; "
            f"weakening = {eff.weakening}"
        )
        guidance = " ".join(eff.guidance)
        review = "direction-wrong" in guidance
        cls = eff.deciding_class
        if cls == "recall-miss":
            return LineDecision(
                LineAction.KEEP, f"recall miss, line reaffirmed ({counts}): keep", cls=cls
            )
        if cls == "obsolete":
            return LineDecision(
                LineAction.REMOVE,
                f"obsolete ({counts}): the user retired the practice",
                None,
                review,
                cls,
            )
        if cls == "direction-changed":
            wanted = _wanted(eff)
            if wanted is None:
                return LineDecision(
                    LineAction.KEEP,
                    f"direction changed ({counts}) but no whole new direction",
                    cls=cls,
                )
            return _rewrite(line, wanted, f"direction changed ({counts})", review, cls)
        if eff.trajectory != Trajectory.WEAKENING:
            return LineDecision(LineAction.KEEP, f"{eff.trajectory} ({counts}): preserve")
        if eff.strengthening:
            return LineDecision(
                LineAction.KEEP,
                f"WEAKENING with STRENGTHENING evidence ({counts}): not removed on misses",
            )
        if eff.weakening < settings.weakening_threshold:
            return LineDecision(
                LineAction.KEEP,
                f"WEAKENING below threshold {settings.weakening_threshold} ({counts})",
            )
        verb = eff.guidance_verb()
        wanted = _wanted(eff)
        if verb == "REWRITE" and wanted is not None:
            return _rewrite(line, wanted, f"WEAKENING ({counts})", review, None)
        if verb == "SHARPEN":
            return LineDecision(
                LineAction.KEEP, f"WEAKENING by recall-miss ({counts}): direction holds"
            )
        return LineDecision(
            LineAction.REMOVE,
            f"WEAKENING ({counts}) with no better direction: remove",
            None,
            review,
        )


def _rewrite(line: BoardLine, wanted: str, why: str, review: bool, cls: str | None) -> LineDecision:
    """The line with its direction replaced by ``wanted`` (the user's words as the
    fragment quotes them), keeping its trigger wording and pointers."""
    wanted = wanted.strip()
    if not wanted or wanted.endswith("…"):
        return LineDecision(
            LineAction.KEEP, f"{why}: the wanted direction is not quoted whole", cls=cls
        )
    if wanted in line.text or jaccard(token_set(wanted), line.direction_cues) >= 0.6:
        return LineDecision(LineAction.KEEP, f"{why}: already states the wanted direction", cls=cls)
    if line.direction and line.direction in line.text:
        text = line.text.replace(line.direction, wanted, 1)
    else:
        text = compose_line(line.trigger, wanted, line.marker, line.text)
    return LineDecision(
        LineAction.REWRITE, f"{why}: rewrite toward the wanted direction", text, review, cls
    )
