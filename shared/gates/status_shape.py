"""status-shape: event recaps, change logs, dated summaries, counts, run state.

On the board every shape applies. In dossiers, prompts and config only runtime
state (tick numbers, queue and run state) is rejected: dossiers legitimately carry
dated facts and provenance.
"""

from __future__ import annotations

import re

from shared.committer.allowlist import FileKind
from shared.gates.base import Finding, ReviewContext
from shared.gates.lexicon import Claim, Prefiltered, direction_clauses, trigger_clause, wordset

RULE_ID = "status-shape"

RUN_STATE_RE = Prefiltered(
    r"\b(?:meta-)?tick\s*(?:#|no\.?|number)?\s*\d+"
    r"|\b(?:queue|inbox|backlog)\s+(?:is|was|are|were|has been|got)\s+(?:now\s+)?"
    r"(?:clear|empty|drained|full|cleared|idle|backed up)"
    r"|\b(?:latest|last|previous|current|this|today's|the|a|one)\s+(?:run|pass|tick|wake|"
    r"job|sync|build|deploy(?:ment)?|scan|batch|cycle|round)\s+(?:has\s+|had\s+|was\s+)?"
    r"(?:completed|finished|succeeded|failed|ran|passed|is done|done|crashed|timed out)"
    r"|\b(?:run|pass|job|build|scan|sync)\s+(?:completed|finished|succeeded|failed|crashed)\b"
    r"|\b(?:no|all|\d+)\s+(?:tasks|jobs|items)\s+(?:are\s+|were\s+)?(?:pending|queued|left)"
    r"|\bpending (?:items|tasks|jobs|signals)\b"
    r"|队列(?:已|现在|目前)?(?:清空|为空|空了|清理完|已清)"
    r"|(?:运行|跑批|任务|扫描|同步)(?:已|已经)?(?:完成|成功|失败|结束|跑完)"
    r"|本轮|上一轮|这一轮|上次运行|最近一次运行"
    r"|第\s*\d+\s*(?:轮|个)?\s*tick"
)
COUNT_RE = Prefiltered(
    r"\b(?:occurred|happened|seen|observed|appeared|came up|recurred|mentioned|asked|"
    r"reported|triggered|fired|hit|used|corrected)\s+(?:\d+|two|three|four|five|six|seven|"
    r"eight|nine|ten|several|many|multiple)\s+times\b"
    r"|\b\d+\s+(?:occurrences|hits|instances|mentions|sightings)\b"
    r"|\b(?:occurrences|count|hits|tally|seen|strengthening|weakening|neutral)\s*[:=]\s*\d+"
    r"|[(\[]\s*[x×]\s*\d+\s*[)\]]|[(\[]\s*\d+\s*[x×]\s*[)\]]|\(\s*\d+\s+times\s*\)"
    r"|\b\d+\s+times\s+(?:so far|this (?:week|month|session)|today|in total|total|now|"
    r"already|recently|in a row)\b"
    r"|(?:出现|发生|提到|遇到|看到|记录|触发|提及|重复|纠正)(?:了|过)?\s*\d+\s*次"
    r"|(?:共|累计|已经?|总共)\s*\d+\s*次"
)
DATED_LEAD_RE = re.compile(
    r"^\W*(?:\d{4}-\d{2}-\d{2}|\d{4}/\d{1,2}/\d{1,2}|\d{4}年|\d{1,2}月\d{1,2}日|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b)"
)
TIME_ANCHOR_RE = Prefiltered(
    r"\b(?:yesterday|today|tonight|last (?:night|week|month|time|session|run)|this "
    r"(?:morning|afternoon|evening|week|session)|earlier today|just now|recently|"
    r"on (?:\d{4}-\d{2}-\d{2}|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b"
    r"|昨天|今天|刚才|刚刚|上周|前天|今早|今晚|本周|上次|最近一次|\d{1,2}月\d{1,2}日"
)
CHANGELOG_RE = Prefiltered(
    r"^\W*(?:added|removed|updated|changed|fixed|renamed|merged|rewrote|rewritten|deleted|"
    r"created|moved|bumped|refactored|dropped|introduced|deprecated|promoted|demoted)\b"
    r"|\b(?:was|were|has been|have been)\s+(?:added|removed|updated|changed|fixed|renamed|"
    r"merged|rewritten|deleted|created|moved|promoted)\b"
    r"|\bchange ?log\b"
    r"|^\W*(?:已经?)?(?:新增|删除|更新|修改|修复|重命名|合并|重写|移除|添加)了?"
)
PAST_EN = wordset(
    """asked said told wanted requested complained corrected mentioned reported sent
    shared decided agreed confirmed noted replied responded fixed shipped deployed
    merged completed finished failed ran went met discussed was were had did got made
    gave took came tried started ended opened closed approved rejected happened
    occurred received found learned broke crashed resolved explained liked hated
    chose switched released launched booked called wrote forgot missed"""
)
PAST_ZH_RE = re.compile(r"(?<![为除])了(?![解不])")


def _finding(reason: str, why: str) -> Finding:
    return Finding(RULE_ID, f"{RULE_ID}: {reason}", why)


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject status-shaped claims (see module docstring)."""
    text = claim.lower
    if RUN_STATE_RE.search(text):
        return _finding(
            "run state", "the line reports tick, queue or run state rather than future behavior"
        )
    if ctx.kind is not FileKind.BOARD:
        return None
    if COUNT_RE.search(text):
        return _finding(
            "occurrence count", "the line tallies occurrences rather than directing behavior"
        )
    if DATED_LEAD_RE.search(text) or CHANGELOG_RE.search(text):
        return _finding(
            "event recap", "the line records an event recap rather than a future-facing trigger"
        )
    trig = trigger_clause(claim)
    if trig is not None or direction_clauses(claim, trig):
        return None
    past = any(w in PAST_EN for w in re.findall(r"[a-z]+", text)) or bool(
        claim.cjk and PAST_ZH_RE.search(text)
    )
    if past or TIME_ANCHOR_RE.search(text):
        return _finding(
            "event recap", "the line records an event recap rather than a future-facing trigger"
        )
    return None
