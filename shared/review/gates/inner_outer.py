"""inner-outer: a claim sourced only from internal runtime kinds is rejected.

Internal kinds are the six of docs/formats.md §4.5 (cadence, meta, system, runner,
route, gateway). A claim is internal-sourced when it attributes itself to one of them
("cadence output says ...", "according to the runner", ``source_kind: meta``), and it
survives only with independent external grounding (the user said/asked/wrote, a
channel, a job request, a user-authored file). A rule whose situation is the
runtime's own heartbeat cadence is internal-sourced too.
"""

from __future__ import annotations

from shared.language import lexicon
from shared.language.claims import Claim
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "inner-outer"

_INTERNAL_SOURCE = lexicon.matcher("internal_source", prefilter=True)
_EXTERNAL_GROUND = lexicon.matcher("external_ground", prefilter=True)
# A rule of the runtime's own cadence ("If no urgent notes → Reply HEARTBEAT_OK"): its
# situation is a heartbeat tick, not an external interaction.
_HEARTBEAT = lexicon.matcher("heartbeat", prefilter=True)


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject claims whose only cited source is an internal runtime kind."""
    text = claim.lower
    board = ctx.kind is FileKind.BOARD
    if board and _HEARTBEAT.found(text) and not _EXTERNAL_GROUND.found(text):
        return Finding(
            RULE_ID,
            f"{RULE_ID}: internal source only",
            "the line is a rule of the runtime's own heartbeat cadence, not of an external "
            "interaction",
        )
    if _INTERNAL_SOURCE.found(text) and not _EXTERNAL_GROUND.found(text):
        return Finding(
            RULE_ID,
            f"{RULE_ID}: internal source only",
            "the line rests only on internal runtime output, not on an external signal",
        )
    return None
