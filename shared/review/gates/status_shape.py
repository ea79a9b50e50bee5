"""status-shape: event recaps, change logs, dated summaries, counts, run state.

On the board every shape applies. Dossiers legitimately carry dated facts and
provenance, so they are read by their own rules (``DOSSIER_RULES``): run and workspace
state, pending work and open deliberation, update stamps, tallies of the work, change-log
recaps and incident reports, and entries of a section recording the state of the work;
a date or a count that is provenance for a fact stays. Prompts and config are checked
for runtime state (tick numbers, queue and run state) only.
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import (
    Claim,
    analyse,
    direction_clauses,
    find_trigger,
    standing_passive,
    strip_label,
    trigger_clause,
    words,
)
from shared.language.claims.vocabulary import IMPERATIVE
from shared.language.punct import (
    CLOSE,
    COLON,
    COMMA,
    EXCLAIM,
    FULL_STOP,
    OPEN,
    QUESTION,
    SEMICOLON,
    SENTENCE_END_UNSPACED,
)
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.predicates import memory_maintenance
from shared.review.gates.rules import RULES

RULE_ID = "status-shape"

# A run or task id ("任务ID：60930c82-98cf-…") is the identity of one run in any language.
_RUN_STATE = lexicon.matcher(
    "run_state",
    prefilter=True,
    neutral=r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
)
# "(x3)", "[2×]": a tally mark in any language.
_COUNT = lexicon.matcher(
    "occurrence_count",
    prefilter=True,
    neutral=r"[(\[]\s*[x×]\s*\d+\s*[)\]]|[(\[]\s*\d+\s*[x×]\s*[)\]]",
)
_DATED_LEAD = lexicon.matcher(
    "dated_lead", neutral=r"^\W*(?:\d{4}-\d{2}-\d{2}|\d{4}/\d{1,2}/\d{1,2})"
)
_TIME_ANCHOR = lexicon.matcher("time_anchor", prefilter=True)
_CHANGELOG = lexicon.matcher("changelog", prefilter=True)
_PAST_VERBS = lexicon.words("past_verb", spaced=True)
_PAST_MARKER = lexicon.matcher("past_marker")
# Check boxes: an open to-do, one under way ("[~]", "[/]", "[-]") or a done item is work
# state, not durable behaviour.
_CHECKBOX_RE = re.compile(r"^\s*\[[ xX✓✔~/-]\]\s")
# Present state and open deliberation: "Currently ...", "Considering adding ...".
_CURRENT = lexicon.matcher("current_state", prefilter=True)
_OPEN_PROPOSAL = lexicon.matcher("open_proposal")
_OPEN_QUESTION = lexicon.matcher("open_question")
# A measured share or a version as the whole value of a field ("通过率：90%", "Build
# success rate: 100%", "**版本**: v0.1.0 Alpha"): a reading of the present state. A
# target ("Coverage: >= 80%") is a limit, not a reading.
_MEASURED = lexicon.matcher(
    "version_label", neutral=rf"^[^{COLON}≥≤<>\n]{{1,40}}[{COLON}]\s*\d+(?:\.\d+)?\s*%\s*$"
)
# "新增独立 404 页（views/NotFound.vue，…）", "删除未引用的 old-banner.webp（304K）": a
# change verb opening a line with no trigger and no modal, about one named thing (a
# bracketed detail, a file, a code span, a bold name), is a change-log entry; "添加必要的
# 注释" names no one thing and stays a direction.
_CHANGE_LEAD = lexicon.matcher("change_lead")
_RULE_MARK = lexicon.matcher("rule_mark")
_MODAL = lexicon.matcher("modal", spaced=True)
_IN_EFFECT = lexicon.matcher("change_in_effect")
_UNSPACED_SEMICOLON = lexicon.charset("punct:semicolon", spaced=False)
_NAMED_THING_RE = re.compile(rf"[{OPEN}]|[{_UNSPACED_SEMICOLON}]|\*\*|`|\b[\w-]+\.[a-z]{{2,4}}\b")
# Words a line quotes ("确立了"先确认后执行"的交互原则") are not its own directions.
_QUOTED_RE = re.compile(lexicon.source("quotation"))
# A provenance or bookkeeping field ("**Date**: ...", "最后更新：...").
_FIELD = lexicon.matcher("field_label")
_DATE = lexicon.matcher("date", neutral=r"\b20\d\d-\d\d-\d\d\b")
# An incident write-up whose first sentence narrates what happened once.
_FIRST_SENTENCE_RE = re.compile(rf"^(.*?)(?:[{FULL_STOP}{EXCLAIM}{QUESTION}{COLON}](?:\s|$)|$)")
_SENTENCE_TAIL = " " + lexicon.chars("punct:stop", "punct:exclaim", "punct:question", "punct:colon")
_NARRATIVE_VERBS = lexicon.words("narrative_verb", spaced=True)
# Work still to come ("SSO planned", "支付接口待接入"), a choice not made ("TBD",
# "（待定）") or a task of one occasion ("after the store refactor", "本次重构后"): a plan,
# in a dossier as much as on the board. A hint of one ("to be added later", "后续计划支持
# …") is a plan on the board only when the line directs nothing else.
_PLAN = lexicon.matcher("plan_marker", prefilter=True)
_PLAN_HINT = lexicon.matcher("plan_hint", prefilter=True)
_OPEN_CHOICE = lexicon.matcher("open_choice")
# "一开始…，后来才发现 …", "It turned out the cache key ignored the locale", "……导致编译报
# 错。教训：…": the line narrates one occasion; a lesson drawn after it does not make it
# a rule.
_RECAP = lexicon.matcher("recap_marker", prefilter=True)
# "已修复", "✅ 已恢复": a state reached, as "已启用" is (see current_state).
_STATE_REACHED = lexicon.matcher("state_reached", prefilter=True)
# "**Sync**: ✅ done", "**状态**: ⏳ 待…": a status mark as a field's value; a legend
# ("Severity: 🔴 Critical · 🟠 High") names levels, not a state.
_STATUS_MARK_RE = re.compile(
    rf"[{COLON}]\s*[✅✔☑❌⏳🟢🔴🟡🚧]\ufe0f?\s*(?:{lexicon.source('status_word')})"
)
# "Consider X if …": a proposal still open; "Step 4: Install and Configure Phaser": a
# step of one plan.
_OPEN_CONTINGENCY = lexicon.matcher("open_contingency")
# "## Current Focus", "## 最近更新": a heading naming the state of the work
_STATUS_SECTION = lexicon.matcher("status_section")
# "## High Priority", "## 下次继续": a dossier heading on work to do, under way or done once
_WORK_SECTION = lexicon.matcher("work_section")
_DOSSIER_KINDS = (FileKind.DOSSIER, FileKind.TOPIC)
_PLAN_STEP = lexicon.matcher("plan_step")
# "**Rule**: …", "**预防规则**：…", "避免 …": what directs inside a dated entry
_RULE_LABEL = lexicon.matcher("rule_label")
_PROHIBITION = lexicon.matcher("prohibition_label_word")
# "## 2026-03-11 Step 3（通过）", "### [2026-03-09] 协议整合", "## 2025-06-29 Morning Session": a
# heading that opens with a date heads one entry of a dated record (a journal, a progress
# log, a dated lesson); a date later in a heading ("规则2（2026-02-08）") only stamps it.
_DATED_SECTION_RE = re.compile(
    rf"^\W{{0,3}}(?:19|20)\d\d(?:[{lexicon.charset('date_separator')}]\s?\d{{1,2}}){{1,2}}(?!\d)"
    # a date with a clock time, or named as a record's, stamps a log entry wherever it
    # sits: "持续作业进展（2026-03-28 17:40）", "DingTalk 问题（2026-03-05 记录）"
    rf"|(?:19|20)\d\d[-/.]\d{{1,2}}[-/.]\d{{1,2}}"
    rf"(?:\s+\d{{1,2}}:\d\d|\s*(?:{lexicon.source('log_stamp')}))"
    rf"|(?:{lexicon.source('log_heading')})\s*[{OPEN}]\s*(?:19|20)\d\d[-/.]\d{{1,2}}"
)


def _finding(rule: str, shape: str = "") -> Finding:
    """The finding of rule ``<gate>.<rule>``, reached by ``shape`` (its record's words)."""
    return RULES[f"{RULE_ID}.{rule}"].finding(shape)


def _outside_code(raw: str) -> str:
    return re.sub(r"`[^`]*`", " ", raw) if "`" in raw else raw


def _change_entry(claim: Claim) -> bool:
    raw = claim.raw
    return bool(
        _CHANGE_LEAD.match(raw) and not _RULE_MARK.found(raw) and _NAMED_THING_RE.search(raw)
    )


def _changelog(claim: Claim) -> bool:
    """A change reported as done, also after a label that names the change
    ("**Explicit Array Validation**: Added `…` check"); a labelled rule about added
    things ("**Migrations**: Added columns must be nullable") directs and stays."""
    if _CHANGELOG.found(claim.lower):
        return True
    body = strip_label(claim.raw)
    if body == claim.raw or _CHANGELOG.match(body.lower()) is None:
        return False
    return not (_MODAL.found(claim.lower) or _RULE_MARK.found(body))


def _change_in_effect(claim: Claim) -> bool:
    """A change reported as in effect ("`get_positions()` now falls back to …"), unless a
    later clause directs what to do with it ("The CLI now supports `--json`; use it …")."""
    at = next((i for i, c in enumerate(claim.clauses) if _IN_EFFECT.search(c)), None)
    if at is None:
        return False
    later = claim.clauses[at + 1 :]
    if claim.cjk:
        return not any(_RULE_MARK.found(c) for c in later)
    return not any(next(iter(words(c)), "") in IMPERATIVE for c in later)


def _own_directions(claim: Claim, trig: int | None) -> list[tuple[int, str]]:
    """Direction clauses whose cue is the line's own, not inside words it quotes."""
    found = direction_clauses(claim, trig)
    if not found or not _QUOTED_RE.search(claim.lower):
        return found
    own = []
    for idx, cue in found:
        clause = claim.clauses[idx]
        spans = [m.span() for m in _QUOTED_RE.finditer(clause)]
        at = clause.find(cue)
        if at < 0 or not any(a <= at < b for a, b in spans):
            own.append((idx, cue))
    return own


# A bracketed aside inside the line, with more of the line after it ("使用 `sqlite3` 命令
# （已配置全局环境变量）直接操作数据库文件"): a precondition the rule rests on.
_MID_ASIDE_RE = re.compile(
    rf"[{OPEN}][^{OPEN}{CLOSE}\n]*[{CLOSE}]"
    rf"(?=\s*[^\s{OPEN}{CLOSE}{FULL_STOP}{COMMA}{SEMICOLON}{COLON}{EXCLAIM}{QUESTION}])"
)
_OPENS = lexicon.chars("punct:open")


def _aside_only(claim: Claim, text: str) -> bool:
    """The present state is named only inside a mid-line bracketed aside, and the line
    outside its asides directs an action: the aside states what the rule relies on, not
    where the work stands ("（已实现，但 UI 未完成）" closing a line is a progress note)."""
    if not any(mark in text for mark in _OPENS):
        return False
    rest = _MID_ASIDE_RE.sub(" ", text)
    if rest == text or _CURRENT.found(rest):
        return False
    outside = analyse(rest)
    return bool(_own_directions(outside, trigger_clause(outside)))


_STANDING_SETTING = lexicon.matcher("standing_setting")
_SENTENCE_SPLIT_RE = re.compile(rf"(?<=[{SENTENCE_END_UNSPACED}])|(?<=[.!?])\s+")


def _state_then_rule(text: str) -> bool:
    """The present state is the line's first sentence only, and a later one is a rule with
    a situation of its own ("此专案已建立 CodeGraph 索引。在执行 grep 之前，优先使用 CodeGraph
    CLI"): the state is what the rule relies on."""
    rest = [p for p in _SENTENCE_SPLIT_RE.split(text) if p.strip()][1:]
    if not rest or any(_CURRENT.found(p) for p in rest):
        return False
    after = analyse(" ".join(rest))
    found = find_trigger(after)
    return found is not None and found[1] and bool(_own_directions(after, found[0]))


def _setting_only(claim: Claim) -> bool:
    """The present tense only names the setting the project runs in, in the line's first
    clause, and a later clause directs what to do there ("当前项目运行在 Windows 系统，读写
    文件须使用 CRLF"): a precondition of the rule, not where the work stands."""
    head, rest = claim.clauses[0], claim.clauses[1:]
    if not rest or not _STANDING_SETTING.found(head):
        return False
    if any(_CURRENT.found(c) for c in rest):
        return False
    return any(idx > 0 for idx, _ in _own_directions(claim, trigger_clause(claim)))


def _prose_words(text: str) -> list[str]:
    """The Latin words of ``text`` outside identifiers: `created_at` names a column, it
    narrates nothing."""
    return [w for w in re.findall(r"[a-z_]+", text) if "_" not in w]


# "not fixed weekdays", "the updated schema": a participle after an article or a negator
# qualifies the noun after it; it narrates nothing
_ATTRIBUTIVE_LEAD = lexicon.words("attributive_lead", spaced=True)
# "keys are used when selecting", "checks used by shell scripts": a present passive, or a
# participle with its agent, says how a thing stands, not what happened once
_PRESENT_PASSIVE = lexicon.words("passive_auxiliary", spaced=True)


def _narrates(sentence: str) -> bool:
    """A sentence with a past-tense verb and no direction of its own."""
    ws = _prose_words(sentence)
    if not any(
        w in _NARRATIVE_VERBS
        and (i == 0 or ws[i - 1] not in _ATTRIBUTIVE_LEAD)
        and not (i > 0 and ws[i - 1] in _PRESENT_PASSIVE)
        and ws[i + 1 : i + 2] != ["by"]
        for i, w in enumerate(ws)
    ):
        return False
    claim = analyse(sentence)
    return not direction_clauses(claim, trigger_clause(claim))


def _status_entry(claim: Claim, ctx: ReviewContext) -> bool:
    """With no situation of its own, an entry under a heading naming the state of the
    work is an item of that record, unless it keeps the memory files. A dossier's work
    headings ("## High Priority", "## 下次继续") are read too."""
    if not ctx.section:
        return False
    heading = ctx.section.lower()
    return (
        (
            _STATUS_SECTION.match(heading) is not None
            or (ctx.kind in _DOSSIER_KINDS and _WORK_SECTION.search(heading) is not None)
        )
        and find_trigger(claim) is None
        and not memory_maintenance(claim, ctx)
    )


def _dated_entry(claim: Claim, ctx: ReviewContext) -> bool:
    """A line under a heading that opens with a date, with no situation, modal or rule mark
    of its own: what was done or found that day ("冻结技术路线与执行顺序。" under "##
    2026-03-11" records a step taken, not one to take); a rule of a dated lesson ("**Rule**:
    Always …", "任何磁盘操作都必须先确认") directs and stays."""
    if not ctx.section or _DATED_SECTION_RE.search(ctx.section) is None:
        return False
    text = claim.lower
    if (
        find_trigger(claim) is not None
        or _MODAL.found(text)
        or _RULE_MARK.found(text)
        or _RULE_LABEL.found(text)
        or _PROHIBITION.found(text)
    ):
        return False
    # an English log reports in the past tense, which the changelog readings already see;
    # a bare imperative there is a lesson's rule ("Use `sql.Null*` for nullable columns")
    if not claim.cjk and next(iter(words(strip_label(claim.raw).lower())), "") in IMPERATIVE:
        return False
    return not memory_maintenance(claim, ctx)


# ------------------------------------------------------------ dossier lines
# A dossier records facts about its entity; what stands now, is still to do or to decide,
# or was done once is no fact of it (the labelling guide's Dossier bullet, issue #30).
# Each reading is one rule: its id the finding's rule (``status-shape.<slug>``), its words
# a lexicon concept, its examples (both ways, both languages) the pins of kind dossier in
# tests/review/pins/status-shape.jsonl. A
# date or a count that is provenance for a fact stays: only a stamp, a tally of the work
# or a field holding the state of the work is read here.
_STAMP = lexicon.matcher(
    "update_stamp",
    # a bare timestamp as the whole line ("2025-07-22 15:27:00") stamps a log entry
    neutral=r"^\W*\d{4}-\d{2}-\d{2}[ t]\d{1,2}:\d{2}(?::\d{2})?\W*(?:[a-z]{2,5})?\W*$"
    # a date alone as the whole line ("`2026-03-13`" under "Snapshot Date")
    r"|^\W*\d{4}-\d{2}-\d{2}\W*$"
    # a log entry opening on its date and time ("[2025-05-17 17:01:00] - Continuing …",
    # "2026-02-05 20:30: MS-007 done")
    rf"|^\W*\[?\d{{4}}-\d{{2}}-\d{{2}}[ t]\d{{1,2}}:\d{{2}}(?::\d{{2}})?\]?\s*[-–—{COLON}]",
)
_STATUS_FIELD = lexicon.matcher("status_field")
_WORK_STATE = lexicon.matcher("work_state", prefilter=True)
_TALLY = lexicon.matcher("progress_tally", prefilter=True)
_LIMIT = lexicon.matcher("limit_mark")
_CHANGE_RECAP = lexicon.matcher("change_recap")
_SETTLED_LABEL = lexicon.matcher("settled_label")
_SETUP_VALUE = lexicon.matcher("setup_value")
_INCIDENT_FIELD = lexicon.matcher("incident_field")
_INCIDENT_STORY = lexicon.matcher("incident_story", prefilter=True)
_DELIBERATION = lexicon.matcher("deliberation", prefilter=True)
_PENDING = lexicon.matcher("pending_work", prefilter=True)
# "`core/units.py` — unit registry", "Primary colour (#1F2937)", "Export endpoint
# /api/v1/export": a file-map entry or a concrete value, in any language, is a fact of the
# entity even under a heading on the state of the work; so is how the thing works (the
# concept)
_STANDING_FACT = lexicon.matcher(
    "standing_fact",
    neutral=r"^\W*`[^`\n]+`\s*(?:[:\u2013\u2014]|-\s)|#[0-9a-f]{6}\b"
    r"|(?<![\w.])/[a-z][\w-]*/[\w/{}:-]+",
)
# The dossier readings in the order they are tried, by their ids' slugs (their words are
# their records in ``shared.review.gates.rules``; one the board reads too has a "dossier"
# shape there)
DOSSIER_RULES: tuple[str, ...] = (
    "plan",
    "pending-work",
    "open-deliberation",
    "update-stamp",
    "work-state",
    "progress-tally",
    "change-log-recap",
    "incident-report",
    "work-item",
)


def _dossier_rule(claim: Claim, ctx: ReviewContext) -> str | None:
    """The id of the first dossier reading that rejects the line, or None."""
    text = claim.lower
    if _PLAN.found(text) or _PLAN_HINT.found(text) or _OPEN_CHOICE.search(claim.text):
        return "plan"
    if _PENDING.found(text):
        return "pending-work"
    if (
        _DELIBERATION.found(text)
        or _OPEN_CONTINGENCY.match(text)
        or (_OPEN_QUESTION.match(text) and trigger_clause(claim) is None)
    ):
        return "open-deliberation"
    if _STAMP.found(text):
        return "update-stamp"
    if (
        _STATUS_FIELD.match(text)
        or _WORK_STATE.found(text)
        or _STATE_REACHED.found(text)
        or _STATUS_MARK_RE.search(claim.text)
    ):
        return "work-state"
    if (_TALLY.found(text) or _MEASURED.found(claim.text)) and not _LIMIT.found(text):
        return "progress-tally"
    # "**Console Listener:** Added `page.on('console')` …", "❌→✅ Logout crash: Moved FCM
    # init …": a field's value is read as a line of its own
    # ("**Decision:** Replaced …" files a settled decision, "**外部 API**: 配置了 `…`" a setting)
    value = strip_label(claim.raw).lower()
    field_recap = (
        value != claim.raw.lower()
        and not _SETTLED_LABEL.found(text)
        and not _SETUP_VALUE.found(value)
        and _CHANGE_RECAP.found(value)
    )
    if _CHECKBOX_RE.search(claim.raw) or _CHANGE_RECAP.found(text) or field_recap:
        return "change-log-recap"
    if _INCIDENT_FIELD.match(text) or _INCIDENT_STORY.found(text) or _RECAP.found(text):
        return "incident-report"
    if _status_entry(claim, ctx) and not _STANDING_FACT.found(claim.raw.lower()):
        return "work-item"
    return None


def _dossier_line(claim: Claim, ctx: ReviewContext) -> Finding | None:
    rule = _dossier_rule(claim, ctx)
    if rule is None:
        return None
    return _finding(rule, "dossier" if "dossier" in RULES[f"{RULE_ID}.{rule}"].shapes else "")


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject status-shaped claims (see module docstring)."""
    text = claim.lower
    if _RUN_STATE.found(text):
        return _finding("run-state")
    if ctx.kind in _DOSSIER_KINDS:
        return _dossier_line(claim, ctx)
    if ctx.kind is not FileKind.BOARD:
        return None
    if _CHECKBOX_RE.search(claim.raw):
        return _finding("work-item", "checkbox")
    if _status_entry(claim, ctx):
        # with no situation of its own, an entry under such a heading is an item of that
        # record ("CI workflow for Tauri builds" under "## Current Focus"); only the nearest
        # heading counts, as "# Active Context" holds "## Preferences" too; one about
        # keeping the memory files is self-reference's to diagnose
        return _finding("work-item", "status section")
    if _dated_entry(claim, ctx):
        return _finding("event-recap", "dated section")
    if _MEASURED.found(claim.text):
        return _finding("current-state", "measured")
    if _FIELD.found(claim.text) or _DATE.found(_outside_code(claim.raw)):
        return _finding("dated-summary")
    if _RECAP.found(text):
        return _finding("event-recap")
    if _PLAN.found(text) or _PLAN_STEP.match(claim.text):
        return _finding("plan")
    if _STATE_REACHED.found(text) or _STATUS_MARK_RE.search(claim.text):
        return _finding("current-state", "state reached")
    if (
        _CURRENT.found(text)
        and not _aside_only(claim, text)
        and not _setting_only(claim)
        and not _state_then_rule(text)
    ):
        return _finding("current-state")
    # "rerun with `--count=3`": a count inside a code span is a flag's value, no tally
    if _COUNT.found(_outside_code(claim.raw).lower() if "`" in claim.raw else text):
        return _finding("occurrence-count")
    if (
        _DATED_LEAD.found(text)
        or _changelog(claim)
        or _change_entry(claim)
        or _change_in_effect(claim)
    ):
        return _finding("event-recap")
    standing = standing_passive(text)  # "Feature branches are squash-merged into `main`"
    first = _FIRST_SENTENCE_RE.match(text)
    # a first sentence recaps only when another follows it: the full stop that ends a
    # one-sentence rule leaves it whole
    whole = text.rstrip(_SENTENCE_TAIL)
    if first and first.group(1) != whole and not standing and _narrates(first.group(1)):
        return _finding("event-recap")
    trig = trigger_clause(claim)
    if _OPEN_CONTINGENCY.match(text) or (
        trig is None and (_OPEN_PROPOSAL.match(text) or _OPEN_QUESTION.match(text))
    ):
        return _finding("current-state")
    if trig is not None or _own_directions(claim, trig):
        return None
    past = (not standing and any(w in _PAST_VERBS for w in _prose_words(text))) or bool(
        claim.cjk and _PAST_MARKER.found(text)
    )
    if past or _TIME_ANCHOR.found(text):
        return _finding("event-recap")
    if _PLAN_HINT.found(text):
        return _finding("plan", "hint")
    return None
