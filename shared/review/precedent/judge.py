"""The precedent judge's second opinion on what the rule gates decided.

The gates are written rules; on repositories whose house style they were not written
from they agree with a careful reader on about three lines in four. The precedent
judge was fitted to the labelled real lines of the tune corpus and reads a line by its
words and letter runs, so it knows shapes no rule names. It overrules a gate only
when it is sure: a line the gates pass is rejected when the judge puts its reject
probability at or above ``reject_at``, under the gate whose labelled rejects the line
is nearest; a line a gate rejects is passed when the probability is below
``approve_below``. Everything in between keeps the gates' decision and reason.
"""

from __future__ import annotations

from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding
from shared.review.precedent.model import Model

# Board lines only: the labelled dossier lines are memory-bank prose, not the kernel's
# "[observation] …" records, so the judge has no precedent for a kernel dossier.
JUDGED = {FileKind.BOARD: False}
_PREFIX = "precedent"


def second_opinion(
    text: str, kind: FileKind, gates: tuple[str, ...], finding: Finding | None, model: Model
) -> Finding | None:
    """The final verdict on one line: ``finding`` unless the judge is sure otherwise."""
    dossier = JUDGED.get(kind)
    if dossier is None:
        return finding
    opinion = model.opinion(text, dossier)
    if finding is None and opinion.reject >= model.reject_at:
        allowed = {g: model.closeness(opinion, g) for g in gates if g in model.centroids}
        if not allowed:
            return None
        gate = max(sorted(allowed), key=lambda g: allowed[g])
        cues = ", ".join(f"'{c}'" for c in opinion.cues()) or "none"
        return Finding(
            gate,
            f"{gate}: reads like labelled {gate} rejects ({_PREFIX})",
            f"the precedent judge, fitted to {model.rows} labelled real memory lines, puts "
            f"this line with rejected ones (p={opinion.reject:.2f}), nearest the {gate} "
            f"rejects; strongest cues: {cues}",
        )
    if finding is not None and opinion.reject < model.approve_below:
        return None
    return finding
