"""status-shape: event recaps, change logs, dated summaries, counts, run state.

On the board every shape applies. In dossiers, prompts and config only runtime
state (tick numbers, queue and run state) is rejected: dossiers legitimately carry
dated facts and provenance.
"""

from __future__ import annotations

import re

from shared.language.claims import Claim, analyse, direction_clauses, trigger_clause, wordset
from shared.language.prefilter import Prefiltered
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext

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
    r"|(?:运行|跑批|任务|扫描|同步)(?:已|已经)(?:完成|成功|失败|结束|跑完)"
    r"|(?:运行|跑批|扫描|同步)(?:完成|成功|失败|结束|跑完)(?![：:])"
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
    r"|\b(?:was|were|has been|have been)\s+(?:already\s+)?(?:added|removed|updated|changed|"
    r"fixed|renamed|merged|rewritten|deleted|created|moved|promoted|migrated|implemented|"
    r"completed|built|deployed|released|shipped|resolved|introduced|retired)\b"
    r"|\bchange ?log (?:entry|entries|item)\b"
    r"|^\W*(?:已经?(?:新增|删除|更新|修改|修复|重命名|合并|重写|移除|添加)|"
    r"(?:新增|删除|更新|修改|修复|重命名|合并|重写|移除|添加)了)"
    # "DeepL - 已删除", "SSH 服务：已完成": a subject, then what was done to it
    r"|[-—–:：]\s*已经?(?:新增|删除|更新|修改|修复|完成|启用|禁用|授权|保存|设置|安装|卸载|移除|"
    r"添加|关闭|处理|解决)"
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
# Check boxes: an open to-do or a done item is work state, not durable behaviour.
CHECKBOX_RE = re.compile(r"^\s*\[[ xX✓✔]\]\s")
# Present state and open deliberation: "Currently ...", "Considering adding ...".
CURRENT_RE = Prefiltered(
    r"^\W*current\s+(?:branch|phase|sprint|status|state|task|focus|work|step|milestone)\b"
    r"|^\W*(?:currently|considering|evaluating|exploring|investigating|planning to|"
    r"thinking about|next step|next steps|in progress|wip|tbd|future work|"
    r"active (?:work|tracks?|decisions?))\b"
    r"|\b(?:currently|at the moment|right now|so far|as of (?:now|today|\d)|not yet|"
    r"(?:is|are) (?:now )?(?:in progress|under way|underway|being (?:implemented|built|"
    r"developed|worked on))|unknown yet|(?:may|might|could) (?:later )?introduce)\b"
    r"|^\W*(?:目前|当前|现在|正在|尚未|还没|暂未|计划|打算|考虑|评估|待定)"
    r"|(?<![否未])已(?:启用|停用|配置|连接|部署|安装|上线|迁移|推送|创建|建立|注册|接入)"
)
# A provenance or bookkeeping field ("**Date**: ...", "最后更新：...").
FIELD_RE = re.compile(
    r"^\W*(?:date|last updated|updated|created|last incident|evidence|outcome|status|"
    r"event/context|what happened|seen|occurrences|confidence|result|建立日期|最后更新|"
    r"上次更新|更新时间|日期|状态|证据|结果|symptom|root cause|impact|做法|效果|场景|症状|现象|"
    r"原因|影响)\W*\s*[:：]",
    re.IGNORECASE,
)
DATE_RE = re.compile(
    r"\b20\d\d-\d\d-\d\d\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? "
    r"\d{1,2}(?:-\d{1,2})?, 20\d\d\b|\b20\d\d年|\d{1,2}月\d{1,2}日"
)
# An incident write-up whose first sentence narrates what happened once.
_FIRST_SENTENCE_RE = re.compile(r"^(.*?)(?:[.。!?！？](?:\s|$)|$)")
NARRATIVE_EN = wordset(
    """used selected showed migrated implemented built introduced added created fixed
    broke failed crashed was were had did happened occurred"""
)


def _finding(reason: str, why: str) -> Finding:
    return Finding(RULE_ID, f"{RULE_ID}: {reason}", why)


def _outside_code(raw: str) -> str:
    return re.sub(r"`[^`]*`", " ", raw) if "`" in raw else raw


def _narrates(sentence: str) -> bool:
    """A sentence with a past-tense verb and no direction of its own."""
    if not any(w in NARRATIVE_EN for w in re.findall(r"[a-z]+", sentence)):
        return False
    claim = analyse(sentence)
    return not direction_clauses(claim, trigger_clause(claim))


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject status-shaped claims (see module docstring)."""
    text = claim.lower
    if RUN_STATE_RE.search(text):
        return _finding(
            "run state", "the line reports tick, queue or run state rather than future behavior"
        )
    if ctx.kind is not FileKind.BOARD:
        return None
    if CHECKBOX_RE.search(claim.raw):
        return _finding(
            "work item", "the line is a to-do or done item rather than durable behavior"
        )
    if FIELD_RE.search(claim.text) or DATE_RE.search(_outside_code(claim.raw)):
        return _finding(
            "dated summary", "the line records a date or a bookkeeping field, not future behavior"
        )
    if CURRENT_RE.search(text):
        return _finding(
            "current state",
            "the line reports present state or open deliberation rather than future behavior",
        )
    if COUNT_RE.search(text):
        return _finding(
            "occurrence count", "the line tallies occurrences rather than directing behavior"
        )
    if DATED_LEAD_RE.search(text) or CHANGELOG_RE.search(text):
        return _finding(
            "event recap", "the line records an event recap rather than a future-facing trigger"
        )
    first = _FIRST_SENTENCE_RE.match(text)
    if first and first.group(1) != text and _narrates(first.group(1)):
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
