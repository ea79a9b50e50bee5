"""inner-outer: a claim sourced only from internal runtime kinds is rejected.

Internal kinds are the six of docs/formats.md §4.5 (cadence, meta, system, runner,
route, gateway). A claim is internal-sourced when it attributes itself to one of them
("cadence output says ...", "according to the runner", ``source_kind: meta``), and it
survives only with independent external grounding (the user said/asked/wrote, a
channel, a job request, a user-authored file). A rule whose situation is the
runtime's own cadence is internal-sourced too: a heartbeat, the time since its last
check, a fixed clock of its own opening the line ("Every week, …", "每天 22:05 …"), a
schedule with a check of its own stores, a monitoring step over those stores (queue, task
folder, state file, recent errors, old logs) or a health sweep of its services, channels,
mailboxes and model config with no situation of its own, and what to do when that sweep
finds something ("If something needs attention, provide a brief alert").
"""

from __future__ import annotations

from shared.language import lexicon
from shared.language.claims import Claim, find_trigger
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.predicates import memory_maintenance
from shared.review.gates.rules import RULES

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
_PROJECT_INTERVAL = lexicon.matcher("project_interval", prefilter=True)
_SELF_CHECK = lexicon.matcher("self_check")
_CHECK_LEAD = lexicon.matcher("check_lead")
_STORE = lexicon.matcher("runtime_store", prefilter=True)
_EXTERNAL = lexicon.matcher("external", prefilter=True)
# "检查 Gateway / Channel / Agent 状态是否异常", "Scan all mailboxes for new messages in
# the last 4 hours": a check with no situation of its own over the runtime's services,
# channels, mailboxes or model config is its health sweep; the mailboxes are its own, so
# the words of the user's world do not rescue it.
_SWEEP_TARGET = lexicon.matcher("sweep_target")
# "**≥ 80%**：紧急告警", "上下文使用率超过 80%", "Flag if cost > 80% of target": a threshold on
# what the tick measures
_THRESHOLD = lexicon.matcher("threshold", neutral=r"[<>≤≥]=?\s*\d")
_HEARTBEAT_WORDS = lexicon.phrases("heartbeat_word")
# "If something needs attention, provide a brief alert", "如果有异常：给出一句结论": what
# to do when that sweep finds something; the condition has no subject of its own.
_SWEEP_FINDING = lexicon.matcher("sweep_finding")
# "Every week, build …", "每天 22:05 发送日报": a fixed clock opening the line is the
# runtime's own schedule. One the project keeps ("weekly in CI", its dependencies' upkeep)
# or one the user's world asks for ("每天晚上给用户发送当天的总结") is a rule.
_CLOCK_LEAD = lexicon.matcher("clock_lead")
_PROJECT_SCHEDULE = lexicon.matcher("project_schedule", prefilter=True)
# "If there are uncommitted changes in the workspace, commit them and push to origin": the
# runtime syncing its own workspace with a remote is its upkeep, not the project's.
_WORKSPACE_CHANGES = lexicon.matcher("workspace_changes", prefilter=True)
_REMOTE_SYNC = lexicon.matcher("remote_sync")
# "Surface urgent entries first", "优先推送紧急的待办事项": what the runtime tells its user
# on its own clock (reminders, what is due or urgent, a digest); and its record of what
# it delivered ("Set `delivered: true` on each entry you surfaced", "已推送过的提醒不要重复
# 推送"). A code span there names the routine's own
# fields, not the project's artefact.
_NOTIFY = lexicon.matcher("notify_routine")
_DELIVERY = lexicon.matcher("delivery_mark", prefilter=True)
# "剩余 = 0 时彻底停止", "Stop when the remaining token budget reaches 0": the runtime's
# own token budget.
_BUDGET = lexicon.matcher("budget_stop", prefilter=True)
# "每晚睡前，如果用户当天有学习记录，统一复盘一轮": a clock of its own and a review of its
# own day; the user's records it looks over do not make the review the user's.
_SELF_REVIEW = lexicon.matcher("self_review", prefilter=True)


def _cadence_rule(claim: Claim, text: str) -> bool:
    """A rule of the runtime's own cadence: a heartbeat, a fixed clock of its own, its
    health sweep and what to do on a finding, or a check of its own stores."""
    if _HEARTBEAT.found(text):
        # a bare interval in the project's own retry, cache or rate policy is no tick
        bare = not any(word in text for word in _HEARTBEAT_WORDS)
        return not (_EXTERNAL_GROUND.found(text) or (bare and _PROJECT_INTERVAL.found(text)))
    if _SWEEP_FINDING.match(text) is not None and not _EXTERNAL_GROUND.found(text):
        return True
    if _WORKSPACE_CHANGES.found(text) and _REMOTE_SYNC.found(text):
        return not _EXTERNAL_GROUND.found(text)
    if _DELIVERY.found(text) or _BUDGET.found(text) or _NOTIFY.match(text) is not None:
        return not _EXTERNAL_GROUND.found(text)
    if _CLOCK_LEAD.match(text) is not None and _SELF_REVIEW.found(text):
        return True
    # a code span names the project's own artefact ("Every Monday, run `make backup`",
    # "Check model config in `config/…`"): a rule of the project, not of the runtime
    project = "`" in claim.raw
    if _CLOCK_LEAD.match(text) is not None and not (
        project or _EXTERNAL.found(text) or _PROJECT_SCHEDULE.found(text)
    ):
        return True
    lead = _CHECK_LEAD.match(text) is not None and find_trigger(claim) is None
    if lead and not project and _SWEEP_TARGET.search(text) is not None:
        return True  # the channels it checks are its own: "渠道" is no external ground here
    # "定时巡检：检查未读消息和日历提醒": a clock and a check of what its sweep looks over
    scheduled = _SCHEDULE.found(text) and _SELF_CHECK.found(text)
    if scheduled and not project and _SWEEP_TARGET.search(text) is not None:
        return True
    if not _STORE.found(text):
        return False
    return (scheduled or lead) and not _EXTERNAL.found(text)


def _cadence_section(claim: Claim, ctx: ReviewContext, text: str) -> bool:
    """A step of a section the runtime's own cadence runs ("## Heartbeat checklist",
    "## 每次心跳时自动执行", "## On wake (every 30 minutes)", or any heading above it: "#
    Heartbeat" > "## Inbox"): with no situation of its own, the line's situation is the
    heading's, a tick of the runtime, not an external interaction."""
    if not any(_HEARTBEAT.found(heading.lower()) for heading in ctx.trail):
        return False
    if _EXTERNAL_GROUND.found(text):
        return False
    # "Check if there are pending reminders": the "if" is what the check looks at, not a
    # situation of the line's own
    if find_trigger(claim) is not None and _CHECK_LEAD.match(text) is None:
        return False
    # what a tick does: a check or sweep of what the runtime watches, or a notice to its
    # user; another kind of line under the heading ("每个阶段都要重新确认") is left to
    # the other gates
    return (
        _SELF_CHECK.found(text)
        or _THRESHOLD.found(text)
        or _CHECK_LEAD.match(text) is not None
        or _SWEEP_TARGET.search(text) is not None
        or _NOTIFY.match(text) is not None
    )


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject claims whose only cited source is an internal runtime kind."""
    text = claim.lower
    if ctx.kind is FileKind.BOARD and (
        _cadence_rule(claim, text) or _cadence_section(claim, ctx, text)
    ):
        # keeping the memory on a heartbeat ("Keep this file empty to skip heartbeats",
        # "每天整理 MEMORY.md") is memory maintenance first: self-reference diagnoses it
        if memory_maintenance(claim, ctx):
            return None
        return RULES["inner-outer.internal-source-only"].finding("cadence")
    if _INTERNAL_SOURCE.found(text) and not _EXTERNAL_GROUND.found(text):
        return RULES["inner-outer.internal-source-only"].finding()
    return None
