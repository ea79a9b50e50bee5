"""The precedent judge's second opinion on what the rule gates decided.

The gates are written rules; on repositories whose house style they were not written
from they agree with a careful reader on about four lines in five. The precedent judge
was fitted to the labelled real lines of the tune corpus and reads a line by its words,
letter runs and heading, so it knows shapes no rule names. It overrules a gate only
when it is sure: a board line the gates pass is rejected when the judge puts its reject
probability at or above ``reject_at`` (an entity dossier line at or above
``dossier_reject_at``), under the gate of the line's set whose labelled rejects the line
is nearest (rule ``<gate>.precedent``); a board line a ``PASSED`` gate rejects is passed
when the probability is below ``approve_below``, and the approval names the rule it
overruled. Everything in between keeps the gates' decision and reason.

The settings were chosen on a cross-validation of the tune part folded by repository
(``python -m bench.precedent cv``; figures in ``tests/corpora/gates/README.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding
from shared.review.gates.rules import PRECEDENT as PREFIX
from shared.review.gates.rules import precedent
from shared.review.precedent.model import Model

# Board lines, and entity dossiers where the model names a dossier threshold (the
# shipped model names none). The labelled dossier lines are memory-bank prose, not the
# kernel's "[observation] …" records (the judge reads neither modal tags nor pointers):
# at the 0.85 the cross-validation favoured, it rejected the records subcon's own
# crystallizer writes, so dossier lines keep the rules' verdict. Were a threshold named,
# the judge would only add dossier rejects, never pass one (on the cross-validation that
# lost many lines the rules had right).
# Topic files are not judged: the kernel's topics are grooves and lessons (Condition /
# Procedure / References), imperative steps that the labelled dossier lines reject as
# pending work, and on the demo kernel the judge rejected good procedure steps the rules
# pass ("Keep any courtesy to one closing sentence.", p = 0.91).
JUDGED = frozenset({FileKind.BOARD, FileKind.DOSSIER})
# The gates whose board rejects the judge may pass. On the cross-validation its approvals
# of gradient rejects (vague maxims, where the rules reject most good lines) gained lines,
# and its approvals of every other gate's rejects lost more true rejects than they saved
# good lines, with the gates as they stand and with the gates of each round's commit.
PASSED = frozenset({"gradient"})
# A line that rests on the runtime's own output is rejected for the source it names, not
# for how it is worded; the labelled public lines hardly ever name one, so the judge has
# no precedent to pass such a line on (the spec's worked "Internal cadence output says
# ..." is one it would pass).
NEVER_PASSED = frozenset({"inner-outer", "secret"})


@dataclass(frozen=True)
class Ruling:
    """The final verdict on one line: ``finding`` (None: approve) and, when the judge
    passed a line a gate rejected, the rule finding it overruled."""

    finding: Finding | None
    overruled: Finding | None = None
    reject: float | None = None  # the judge's reject probability, when it was asked

    @property
    def note(self) -> str | None:
        """The reason an approval carries when the judge passed a line a gate rejected:
        the gate's reason and the id of the rule it overruled."""
        if self.overruled is None:
            return None
        return (
            f"{PREFIX}: approved over `{self.overruled.reason}` "
            f"({self.overruled.rule}, p={self.reject:.2f})"
        )


def second_opinion(
    text: str,
    kind: FileKind,
    heading: str,
    gates: tuple[str, ...],
    finding: Finding | None,
    model: Model,
) -> Ruling:
    """``finding`` unless the judge is sure otherwise."""
    if kind not in JUDGED:
        return Ruling(finding)
    board = kind is FileKind.BOARD
    reject_at = model.reject_at if board else model.dossier_reject_at
    if reject_at is None:
        return Ruling(finding)
    opinion = model.opinion(text, not board, heading)
    p = opinion.reject
    if finding is None and p >= reject_at:
        allowed = {g: model.closeness(opinion, g) for g in gates if g in model.centroids}
        if not allowed:
            return Ruling(None, None, p)
        gate = max(sorted(allowed), key=lambda g: allowed[g])
        cues = ", ".join(f"'{c}'" for c in opinion.cues()) or "none"
        found = precedent(gate).finding(
            detail=f"{PREFIX} p={p:.2f}", rows=model.rows, p=p, gate=gate, cues=cues
        )
        return Ruling(found, None, p)
    if (
        board
        and finding is not None
        and p < model.approve_below
        and finding.gate in PASSED
        and finding.gate not in NEVER_PASSED
    ):
        return Ruling(None, finding, p)
    return Ruling(finding, None, p)
