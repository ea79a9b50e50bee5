"""Board-line pointers (``[[slug]]``): the dossiers they may name, and the repair of a
broken one that has exactly one obvious dossier."""

from __future__ import annotations

import re

from shared.formats.board import BoardLine
from shared.kernel.paths import KernelPaths
from shared.weaver.judging.interfaces import LineDecision
from shared.weaver.judging.verdicts import LineAction


def dossier_slugs(paths: KernelPaths) -> set[str]:
    out: set[str] = set()
    for root in (paths.topics_dir, paths.entities_dir):
        if root.is_dir():
            out |= {p.stem for p in root.glob("*.md")}
    return out


def repair_target(pointer: str, slugs: set[str]) -> str | None:
    bare = re.sub(r"^(?:lesson|groove|pattern|topic|entity)-", "", pointer.lower())
    hits = sorted(
        s
        for s in slugs
        if s.lower() == pointer.lower()
        or re.sub(r"^(?:lesson|groove|pattern|topic|entity)-", "", s.lower()) == bare
    )
    return hits[0] if len(hits) == 1 else None


def pointer_repair(
    line: BoardLine, slugs: set[str], check: bool
) -> tuple[LineDecision | None, list[str]]:
    """A repair of the line's broken pointers that have one obvious dossier, and the
    pointers without any."""
    text = line.text
    repair: LineDecision | None = None
    missing: list[str] = []
    for pointer in line.pointers if check else ():
        if pointer in slugs:
            continue
        target = repair_target(pointer, slugs)
        if target is not None:
            text = text.replace(f"[[{pointer}]]", f"[[{target}]]")
            repair = LineDecision(
                LineAction.REPAIR, "broken pointer repaired to the one existing dossier", text
            )
        else:
            missing.append(pointer)
    return repair, missing


def with_repair(
    decision: LineDecision, repair: LineDecision | None, line: BoardLine, slugs: set[str]
) -> LineDecision:
    """The judge's decision with the pointer repair folded in: a kept line is
    repaired, a rewritten one is rewritten with its pointers repaired."""
    if repair is None:
        return decision
    if decision.action is LineAction.KEEP:
        return repair
    if decision.action is LineAction.REWRITE and decision.new_text:
        fixed = decision.new_text
        for pointer in line.pointers:
            target = repair_target(pointer, slugs)
            if pointer not in slugs and target is not None:
                fixed = fixed.replace(f"[[{pointer}]]", f"[[{target}]]")
        return LineDecision(
            LineAction.REWRITE, decision.reason, fixed, decision.review, decision.cls
        )
    return decision
