"""inner-outer: a claim sourced only from internal runtime kinds is rejected.

Internal kinds are the six of docs/formats.md §4.5 (cadence, meta, system, runner,
route, gateway). A claim is internal-sourced when it attributes itself to one of them
("cadence output says ...", "according to the runner", ``source_kind: meta``), and it
survives only with independent external grounding (the user said/asked/wrote, a
channel, a job request, a user-authored file). A rule whose situation is the
runtime's own cadence is internal-sourced too: a heartbeat, the time since its last
check, a schedule with a check of its own stores, or a monitoring step over those stores
(queue, task folder, state file, recent errors, old logs) with no situation of its own.
"""

from __future__ import annotations

from shared.language import lexicon
from shared.language.claims import Claim, find_trigger
from shared.review.allowlist import FileKind
from shared.review.gates import self_reference
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "inner-outer"

_INTERNAL_SOURCE = lexicon.matcher("internal_source", prefilter=True)
_EXTERNAL_GROUND = lexicon.matcher("external_ground", prefilter=True)
# A rule of the runtime's own cadence ("If no urgent notes → Reply HEARTBEAT_OK"): its
# situation is a heartbeat tick, not an external interaction.
_HEARTBEAT = lexicon.matcher("heartbeat", prefilter=True)
# "每天晚上检查队列 …", "Every morning, scan the inbox …": a clock is the situation and a
# check of the runtime's own stores the action. "检查 tasks/ 中 … 是否超过 2 个",
# "清理30天前的旧日志": a monitoring step over those stores, with no situation of its own.
# A line that names the user's world is left to the other gates.
_SCHEDULE = lexicon.matcher("schedule", prefilter=True)
_SELF_CHECK = lexicon.matcher("self_check")
_CHECK_LEAD = lexicon.matcher("check_lead")
_STORE = lexicon.matcher("runtime_store", prefilter=True)
_EXTERNAL = lexicon.matcher("external", prefilter=True)


def _cadence_rule(claim: Claim, text: str) -> bool:
    """A rule of the runtime's own cadence: a heartbeat, or a check of its own stores."""
    if _HEARTBEAT.found(text):
        return not _EXTERNAL_GROUND.found(text)
    if not _STORE.found(text):
        return False
    scheduled = _SCHEDULE.found(text) and _SELF_CHECK.found(text)
    lead = _CHECK_LEAD.match(text) is not None and find_trigger(claim) is None
    return (scheduled or lead) and not _EXTERNAL.found(text)


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject claims whose only cited source is an internal runtime kind."""
    text = claim.lower
    if ctx.kind is FileKind.BOARD and _cadence_rule(claim, text):
        # keeping the memory on a heartbeat ("Keep this file empty to skip heartbeats",
        # "每天整理 MEMORY.md") is memory maintenance first: self-reference diagnoses it
        if self_reference.check(claim, ctx) is not None:
            return None
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
