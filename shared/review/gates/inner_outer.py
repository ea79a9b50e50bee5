"""inner-outer: a claim sourced only from internal runtime kinds is rejected.

Internal kinds are the six of docs/formats.md §4.5 (cadence, meta, system, runner,
route, gateway). A claim is internal-sourced when it attributes itself to one of them
("cadence output says ...", "according to the runner", ``source_kind: meta``), and it
survives only with independent external grounding (the user said/asked/wrote, a
channel, a job request, a user-authored file). A rule whose situation is the
runtime's own heartbeat cadence is internal-sourced too.
"""

from __future__ import annotations

from shared.language.claims import Claim
from shared.language.prefilter import Prefiltered
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "inner-outer"

_INTERNAL = (
    r"(?:cadence|meta[- ]?session|meta partition|meta layer|system (?:event|message|output|"
    r"log|tick|notice)s?|runner|gateway|route\.deliver|router|internal (?:output|signal|event|"
    r"source|log|chatter|report|cadence|telemetry|state)|agent\.\w+|heartbeat|tick output|"
    r"scheduler|maintenance tick)"
)
_ATTRIB = (
    r"(?:says?|said|reports?|reported|shows?|showed|shown|indicates?|indicated|suggests?|"
    r"suggested|claims?|claimed|outputs?|signals?|signaled|logs?|logged|notes?|noted|"
    r"implies|implied|flags?|flagged|tells?|told)"
)
INTERNAL_SOURCE_RE = Prefiltered(
    rf"\b{_INTERNAL}\b(?:\W+\w+){{0,4}}?\W+{_ATTRIB}\b"
    rf"|\b(?:according to|per|from|based on|derived from|sourced from|via)\s+(?:the\s+)?"
    rf"(?:internal\s+)?{_INTERNAL}\b"
    r"|\bsource[_ ]?kind\s*[:=]\s*`?(?:cadence|meta|system|runner|route|gateway)\b"
    r"|\binternal(?:-only)? (?:source|signal|evidence)s?\b"
    r"|(?:内部|节律|系统事件|系统消息|系统日志|心跳|网关|路由|运行器|调度器|元会话|cadence)"
    r"[^，。,.]{0,8}?(?:显示|表明|输出|报告|称|说|提示|指出|认为)"
    r"|(?:根据|来自|据|基于)(?:内部|节律|系统事件|系统日志|心跳|网关|运行器|调度器|元会话)"
)
EXTERNAL_GROUND_RE = Prefiltered(
    r"\b(?:user|customer|client|person|owner|operator)\s+(?:said|says|wrote|writes|asked|"
    r"asks|told|tells|confirmed|confirms|stated|states|requested|requests|mentioned|"
    r"explicitly|directly)\b"
    r"|\b(?:in|via|from|on|over|through)\s+(?:a\s+|an\s+|the\s+|their\s+|his\s+|her\s+)?"
    r"(?:channel|stdio|feishu|lark|slack|email|chat|job request|direct message)\b"
    r"|\b(?:user-authored|user-written|user's own|job request|external (?:event|channel|"
    r"source|evidence))\b"
    r"|用户(?:说|表示|明确|要求|提到|写|亲口|确认|反馈)|渠道|外部|用户消息|飞书"
)


# A rule of the runtime's own cadence ("If no urgent notes → Reply HEARTBEAT_OK"): its
# situation is a heartbeat tick, not an external interaction.
CADENCE_RULE_RE = Prefiltered(r"\bheartbeats?\b|\bheartbeat_ok\b|心跳")


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject claims whose only cited source is an internal runtime kind."""
    text = claim.lower
    board = ctx.kind is FileKind.BOARD
    if board and CADENCE_RULE_RE.search(text) and not EXTERNAL_GROUND_RE.search(text):
        return Finding(
            RULE_ID,
            f"{RULE_ID}: internal source only",
            "the line is a rule of the runtime's own heartbeat cadence, not of an external "
            "interaction",
        )
    if INTERNAL_SOURCE_RE.search(text) and not EXTERNAL_GROUND_RE.search(text):
        return Finding(
            RULE_ID,
            f"{RULE_ID}: internal source only",
            "the line rests only on internal runtime output, not on an external signal",
        )
    return None
