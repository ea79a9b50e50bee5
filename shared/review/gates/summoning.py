"""summoning: a negated rule must name its trigger and a replacement action.

"Never X" summons X. A negated rule survives only when the forbidden drift sits under
a recognisable trigger and the line says what to do instead; a negated rule that
points back at a past incident ("again", "like last time") is a ghost of maintenance
history.

A prohibition is worded many ways: "never / don't / 不要 / 禁止", a verb taking "no" or
"zero" ("Leave NO todos"), a forbidding predicate ("… is not allowed", "是不允许的"), a
forbidding label ("禁止：…"), a prohibition joined inside a clause ("Enforce strict typing
and avoid `any`") and a restriction stated as an exception ("only when asked"). What
stands beside it is no replacement when it is a reason, what cannot be done, a
capability asked of the forbidden thing or a standard upheld. The replacement may be
named in another form than a direction: a short verbless clause that names a thing the
prohibition does not ('"gameserver" everywhere — never "server"', "禁止使用 `any`，完整的
TypeScript 类型定义", "**ruff** (do NOT use ruff-format)").

The replacement may sit inside the prohibiting clause: a verb of choosing or of making
the substitute joined to it ("Avoid svg and use emojis for icons", "避免魔法数字并定义常
量"), the means of avoiding ("Avoid deep nesting by using early returns", "通过提前返回避
免深层嵌套"; after "never" a "by" gerund is the way forbidden), or a second comma item
with its own verb and object and no "or" ("Do not push any change, keep your work
local"). "Stop at each phase boundary" halts at a point; it forbids nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from shared.language import lexicon
from shared.language.claims import (
    Claim,
    analyse,
    direction_clauses,
    has_limit,
    is_vague,
    normative_clauses,
    trigger_clause,
    words,
)
from shared.language.claims.directions import clause_direction
from shared.language.claims.vocabulary import (
    ABSTRACT,
    ARTEFACT,
    EVALUATIVE,
    IMPERATIVE,
    STOP,
    TOOL,
    VAGUE_VERB,
)
from shared.language.lexicon.script import CJK, CJK_RE
from shared.language.punct import (
    COLON,
    COMMA,
    ENUM,
    EXCLAIM,
    FULL_STOP_UNSPACED,
    OPEN,
    QUESTION,
    SEMICOLON,
)
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.rules import RULES

RULE_ID = "summoning"
# The reading of an item under a heading of what not to do (``check``)
UNDER_HEADING = "as a prohibition under its heading"

_NEGATION = lexicon.matcher("negation")
_SPACED_NEGATION = lexicon.matcher("negation", spaced=True)
_UNSPACED_NEGATION = lexicon.matcher("negation", spaced=False)
_GHOST = lexicon.matcher("ghost")
_REPLACEMENT = lexicon.matcher("replacement")
# "## 禁止事项", "## Don'ts", "## Forbidden Commands": a heading that lists what not to do
_PROHIBITION_SECTION = lexicon.matcher("prohibition_section")
_MARK_LEAD_RE = re.compile(r"^[\s❌✗✘🚫⛔×]+")


def _negated(cue: str) -> bool:
    """True when the clause's leading direction cue is itself a prohibition."""
    return bool(_NEGATION.fullmatch(cue))


# Sentence-level separators: a prohibition governs the comma-separated list after it
# ("Never comment out, skip, or delete a test") up to the next one of these.
_SENTENCE_RE = re.compile(
    rf"[{SEMICOLON}{FULL_STOP_UNSPACED}{EXCLAIM}{QUESTION}{COLON}—–→]|\.(?=\s|$)|->|\s-\s|[{OPEN}]"
)
_LIST_RE = re.compile(rf"(?<!\s)\s*(?:[{COMMA}{ENUM}]|{lexicon.source('list_joiner')})\s*")
# A clause opening with a negator ("不使用 …"); 不确定 / 不同 / 不断 ... are words.
_NEGATING_LEAD = lexicon.matcher("negating_lead")
_PROHIBITION_ADVERB = lexicon.matcher("prohibition_adverb")
# "处理超时情况，避免用户等待过长时间": a trailing purpose clause after a triggered action
# forbids nothing by itself.
_PURPOSE_LEAD = lexicon.matcher("purpose_lead")
# "严禁主动执行 `git commit`，只有用户明确要求时才执行", "Never X unless asked": an
# exception after a prohibition narrows it; it names nothing to do instead.
_EXCEPTION_LEAD = lexicon.matcher("exception_lead")
_STATED_WAY = lexicon.matcher("stated_way")
_REPLACEMENT_LEAD = lexicon.matcher("replacement_lead")
_PERMITTED = lexicon.matcher("permitted")
_PERMIT = lexicon.words("permit_word", spaced=True)
_GENERIC_OBJECT = lexicon.words("generic_object", spaced=True)
_ABSTRACT_SUFFIXES = tuple(lexicon.words("abstract_suffix", spaced=True))
_AGENT_PERSON = lexicon.words("agent_person", spaced=True)
_SUFFICING = lexicon.matcher("sufficing")
_CONTINUING_LEAD = lexicon.matcher("continuing_lead")
# "Leave NO todos", "No emojis in commits", "Skipping tests is not allowed", "跳过测试是不
# 允许的": prohibitions worded without a leading "never" / "不要".
_PROHIBITION_FORM = lexicon.matcher("prohibition_form")
# "禁止：在主线程中执行耗时操作", "Forbidden: force-pushing": a label that forbids what
# follows it up to the end of its sentence.
_PROHIBITION_LABEL = lexicon.matcher("prohibition_label_word")
_EXCEPTION_ONLY = lexicon.matcher("exception_only")
_INNER_PROHIBITION = lexicon.matcher("inner_prohibition")
_REASON_LEAD = lexicon.matcher("reason_lead")
_INABILITY = lexicon.matcher("inability")
_CAPABILITY = lexicon.matcher("capability_modal")
_UPHOLDING = lexicon.matcher("upholding_verb")
_SPACED_PLACEMENT = lexicon.matcher("upheld_placement", spaced=True)
# A Latin name inside Chinese places the thing; in English text it is only a word.
_UNSPACED_PLACEMENT = lexicon.matcher("upheld_placement", spaced=False)
_QUALITY = lexicon.words("upheld_quality", spaced=True)
_UNSPACED_QUALITY = lexicon.matcher("upheld_quality", spaced=False)
_MEANS_LEAD = lexicon.matcher("means_lead")
# A name (Latin or a code span) then the action done with it: "通过 ref 访问元素".
_NAMED_MEANS_RE = re.compile(rf"\s*`?[A-Za-z][\w.-]*`?\s*(?:[{CJK}]{{2,}})")
_SENTENCE_END_RE = re.compile(rf"[{SEMICOLON}{FULL_STOP_UNSPACED}{EXCLAIM}{QUESTION}]|\.(?=\s|$)")
# Beside a prohibition, a short verbless clause that names a thing is what to use instead
# (a different form of the same direction): a quoted term ('"gameserver" everywhere — never
# "server"'), a Latin name inside Chinese ("禁止使用 `any`，完整的 TypeScript 类型定义"), or
# a bold lead naming a tool ("**ruff** (linting; do NOT use ruff-format)").
_QUOTED_RE = re.compile(lexicon.source("quoted_name"))
_COLONS = lexicon.chars("punct:colon")
_OPENS = lexicon.chars("punct:open")
_ENUMS = tuple(lexicon.chars("punct:enum"))
_CLAUSE_TAIL = " " + lexicon.chars("punct:stop", "punct:exclaim")
_NAME_TAIL = " " + lexicon.chars("punct:stop")
_NEGATOR_TRIM = " *_>#-—–" + _COLONS
_DESCRIPTIVE_END = lexicon.phrases("descriptive_end")
# "Do not " / "不要": how an item under a heading of what not to do is read, by whether its
# language writes spaces.
_PROHIBITION_PREFIX = {
    spaced: lexicon.phrases("prohibition_prefix", spaced=spaced)[0] + (" " if spaced else "")
    for spaced in (True, False)
}
_LATIN_NAME_RE = re.compile(r"[A-Za-z][\w.+#-]*[A-Za-z0-9+#]")
_BOLD_LEAD_RE = re.compile(r"^\W{0,3}\*\*([^*\n]{1,30})\*\*")
_UNSPACED_ARTEFACT_RE = lexicon.matcher("artefact", spaced=False)
_SCOPE_ADVERB = lexicon.words("scope_adverb", spaced=True)
_NAMED_ALTERNATIVE_MAX_WORDS = 4
_NOUN_SUFFIX_MAX = 2  # characters after the artefact word of a compound ("类型定义")
_NAMED_ALTERNATIVE_MAX_UNSPACED = 12
_JOINED_REPLACEMENT = lexicon.matcher("joined_replacement")
_AVOIDING_MEANS = lexicon.matcher("avoiding_means")
_HALTING_STOP = lexicon.matcher("halting_stop")
_LIST_JOINER = lexicon.matcher("list_joiner")
_CONDITIONAL_LEAD = lexicon.matcher("conditional_lead")


def _negated_clause(clause: str, cue: str) -> bool:
    """A prohibition: a negating cue, a Chinese verb led by 不/别/勿 ("不使用 …"), a
    Chinese prohibition ahead of the cue ("测试不得依赖执行顺序"), a prohibition worded
    with "no" or a forbidding predicate, or a restriction stated as an exception ("only
    when asked")."""
    if "stop" in clause and _HALTING_STOP.found(clause):
        return False  # "Stop at each phase boundary": a point to halt at, a direction
    if _negated(cue) or _NEGATING_LEAD.found(clause):
        return True
    if _PROHIBITION_FORM.found(clause) or _EXCEPTION_ONLY.found(clause):
        return True
    zh = _UNSPACED_NEGATION.search(clause)
    lead = _PROHIBITION_ADVERB.match(clause)
    if zh and lead and zh.start() == lead.end():
        return True  # "尽量避免闭包": adverbs, then the prohibition
    return bool(zh and zh.start() <= max(clause.find(cue), 0))


def _purpose(claim: Claim, idx: int, trig: int | None) -> bool:
    """Clause ``idx`` is a purpose clause trailing the action a trigger sets off: the
    clause before it is neither the trigger nor a prohibition."""
    if trig is None or idx < 2 or idx - 1 == trig or not _PURPOSE_LEAD.match(claim.clauses[idx]):
        return False
    before = claim.clauses[idx - 1]
    return len(CJK_RE.findall(before)) >= 2 and not _UNSPACED_NEGATION.search(before)


def _thing(text: str, *, named: bool = False) -> bool:
    """Some word of ``text`` names a thing: not a function word, a quality, an abstract
    value ("patience", "simplicity") or a generic object. Unspaced text counts whole.
    With ``named`` the text names a tool ("when `tenacity` will do"), so an abstract
    suffix does not make it a value."""
    if CJK_RE.search(text):
        return True
    return any(
        w not in STOP
        and w not in EVALUATIVE
        and w not in _GENERIC_OBJECT
        and w not in ABSTRACT
        and (named or not w.endswith(_ABSTRACT_SUFFIXES))
        and w not in _PERMIT
        for w in words(text)
    )


def _sufficing(claim: Claim) -> bool:
    """ "Never request raw file contents when get_file will suffice": the when-clause
    names a thing that does the job ("if patience will suffice" names a value)."""
    match = _SUFFICING.search(claim.lower)
    if match is None:
        return False
    named = next((g for g in match.groups() if g), "")
    return _thing(named, named=True)


def _stated_way(clause: str) -> bool:
    """ "`pkg` is consumed from PyPI", "Formatting is handled by Prettier": how an
    artefact is had; people are no way ("code is managed by the team")."""
    found = _STATED_WAY.search(clause)
    if found is None:
        return False
    return not any(w in _AGENT_PERSON for w in words(clause[found.end() - 1 :])[:3])


def _means_named(clause: str) -> bool:
    """ "禁止直接操作 DOM，通过 ref 访问元素": beside a prohibition, a named means and what
    to do with it is the way to go instead."""
    lead = _MEANS_LEAD.match(clause)
    return lead is not None and bool(_NAMED_MEANS_RE.match(clause, lead.end()))


def _allowed_thing(clause: str) -> bool:
    """ "`unknown` is fine", "plain text only": a named thing allowed; "short ones only"
    allows only a quality, which is no replacement."""
    return bool(_PERMITTED.match(clause)) and _thing(clause)


def _labelled_forbidden(claim: Claim) -> set[int]:
    """ "禁止：在主线程中执行耗时操作", "Forbidden: force-pushing …": the clauses after a
    forbidding label, to the end of its sentence, are what it forbids."""
    out: set[int] = set()
    for idx, clause in enumerate(claim.clauses[:-1]):
        if not _PROHIBITION_LABEL.fullmatch(clause.strip(" *_#-")):
            continue
        at = claim.lower.find(clause)
        marks = [c for c in (claim.lower.find(m, at + len(clause)) for m in _COLONS) if c >= 0]
        if at < 0 or not marks or claim.lower[at + len(clause) : min(marks)].strip(" *_"):
            continue
        start = min(marks) + 1
        end_match = _SENTENCE_END_RE.search(claim.lower, start)
        end = end_match.start() if end_match else len(claim.lower)
        for later in range(idx + 1, len(claim.clauses)):
            found = claim.lower.find(claim.clauses[later], start)
            if found < 0 or found >= end:
                break
            out.add(later)
            start = found + len(claim.clauses[later])
    return out


def _inner_prohibition(clause: str, cue: str) -> str | None:
    """ "Enforce strict typing and avoid 'any'": the head before a prohibition joined
    inside the clause, which the clause directs besides forbidding."""
    found = _INNER_PROHIBITION.search(clause)
    if found is None or _negated(cue):
        return None
    return clause[: found.start()]


# "If you notice unrelated dead code, mention it - don't delete it": after a situation that
# names a thing, a concrete verb on "it" acts on that thing.
_PRONOUN_OBJECT_RE = re.compile(r"[\w-]+\s+(?:it|them)(?:\s+[\w-]+){0,4}")


def _acts_on_named(clause: str, cue: str) -> bool:
    return (
        cue in IMPERATIVE
        and cue not in VAGUE_VERB
        and _PRONOUN_OBJECT_RE.fullmatch(clause) is not None
    )


def _no_replacement(clause: str, cue: str) -> bool:
    """A positive clause that names nothing to do instead: a reason or a consequence
    ("因为环境比较特殊", "otherwise …"), what cannot be done ("无法部署到容器内", "写不出
    守卫的"), a clause ending in 的 (a description), a capability required of the
    forbidden thing ("所有命令必须能自动执行完成", "must be able to run unattended"), or a
    standard upheld ("enforce strict typing", "keep types strict") that places nothing and
    names no code."""
    if _REASON_LEAD.match(clause) or _INABILITY.search(clause) or _CAPABILITY.search(clause):
        return True
    if clause.rstrip(_CLAUSE_TAIL).endswith(_DESCRIPTIVE_END) and CJK_RE.search(clause):
        return True
    if _UPHOLDING.fullmatch(cue):
        at = clause.find(cue)
        rest = clause[at + len(cue) :] if at >= 0 else ""
        unspaced = CJK_RE.search(rest) is not None
        if (_UNSPACED_PLACEMENT if unspaced else _SPACED_PLACEMENT).search(rest):
            return False
        return any(w in EVALUATIVE or w in _QUALITY for w in words(rest)) or bool(
            _UNSPACED_QUALITY.search(rest)
        )
    return False


def _named_alternative(claim: Claim, idx: int, forbidden: set[int], trig: int | None) -> bool:
    """Clause ``idx`` is a short verbless clause naming a thing (see ``_QUOTED_RE``) that
    the forbidden clauses do not name: the thing to use instead of what they forbid. A
    clause that names only qualities ("代码整洁"), or the forbidden thing itself, is none.
    A Latin name before the prohibition in Chinese is its subject or scope ("`main` 分支为
    生产环境代码，不得直接提交"), so there the name must follow it."""
    clause = claim.clauses[idx]
    if idx == trig or _NEGATION.search(clause) or _no_replacement(clause, ""):
        return False
    at = claim.lower.find(clause)
    if _REASON_LEAD.match(clause) or claim.lower[: max(at, 0)].rstrip().endswith(tuple(_OPENS)):
        return False  # "避免：`require()`（CommonJS 弃用）": a note gives the reason, no way
    if CJK_RE.search(clause):
        if idx < min(forbidden):
            return False
        if len(CJK_RE.findall(clause)) > _NAMED_ALTERNATIVE_MAX_UNSPACED:
            return False
        found = list(_LATIN_NAME_RE.finditer(clause))
        # "完整的 TypeScript 类型定义", "统一的 Pinia store": a noun phrase ends on the name
        # or on the artefact it names; "CI 会失败" goes on to say what happens.
        tail = clause[found[-1].end() :].strip(_NAME_TAIL) if found else ""
        head = _UNSPACED_ARTEFACT_RE.match(tail)
        if tail and (head is None or len(CJK_RE.findall(tail[head.end() :])) > _NOUN_SUFFIX_MAX):
            return False
        names = {m.group(0) for m in found}
    else:
        ws = words(clause)
        if not ws or len(ws) > _NAMED_ALTERNATIVE_MAX_WORDS or ws[0] in IMPERATIVE:
            return False
        quoted = {next(g for g in m.groups() if g) for m in _QUOTED_RE.finditer(clause)}
        rest = words(_QUOTED_RE.sub(" ", clause))
        if quoted and all(w in STOP or w in _SCOPE_ADVERB or w in ARTEFACT for w in rest):
            # '"gameserver" everywhere — never "server" …': the term against the term
            # ('"CI" breaks' says what happens)
            said = {
                next(g for g in m.groups() if g)
                for i in forbidden
                for m in _QUOTED_RE.finditer(claim.clauses[i])
            }
            return bool(quoted - said)
        lead = _BOLD_LEAD_RE.match(claim.raw)
        if idx != 0 or lead is None or lead.group(1).strip().lower() != clause:
            return False
        names = {w for w in ws if w in TOOL}
    if not names:
        return False
    said = {w for i in forbidden for w in words(claim.clauses[i])} | {
        m.group(0) for i in forbidden for m in _LATIN_NAME_RE.finditer(claim.clauses[i])
    }
    return any(name.lower() not in said for name in names)


def _list_items_under_prohibition(claim: Claim) -> set[str]:
    """Clauses that only continue a prohibition's list, so they are not replacements."""
    out: set[str] = set()
    for sentence in _SENTENCE_RE.split(claim.lower):
        items = [i for i in _LIST_RE.split(sentence) if i and i.strip()]
        if len(items) > 1 and _SPACED_NEGATION.match(items[0].strip()):
            if len(items) == 2 and _own_action(items[0], items[1], sentence):
                continue  # "Do not push any change, keep your work local": X, then Y instead
            for item in items[1:]:
                lead = _REPLACEMENT_LEAD.match(item.strip())
                if lead and _thing(item.strip()[lead.end() :]):
                    break  # "Avoid X, prefer Y": the list ends at the replacement
                out.add(item.strip())
    return out


def _own_action(first: str, second: str, sentence: str) -> bool:
    """ "Do not push any change, keep your work at local repository": two items, no "or" /
    "and", each a verb with its own object, set side by side: the second is what to do
    instead ("Never commit secrets, tokens or keys" lists things; "Don't comment out, skip,
    or delete a test" joins verbs sharing one object)."""
    if _LIST_JOINER.search(sentence) or len(words(first)) < 3:
        return False
    cue = clause_direction(second.strip())
    return (
        cue is not None
        and not _negated(cue)
        and len(words(second)) >= 3
        and not is_vague(second.strip(), cue)
        and not _no_replacement(second.strip(), cue)
    )


def _bracketed(claim: Claim, clause: str) -> bool:
    """``clause`` was cut from a bracketed note of the line ("（PAT）", "(e.g. tokens)")."""
    at = claim.lower.find(clause)
    return at > 0 and claim.lower[at - 1] in _OPENS


def _joined_replacement(clause: str) -> bool:
    """ "Avoid svg and use emojis for icons", "Avoid deep nesting by using early returns",
    "避免魔法数字并定义常量", "通过提前返回避免深层嵌套": inside one prohibiting clause, a
    substitute joined to it or the means of avoiding is what to do instead."""
    return bool(_JOINED_REPLACEMENT.search(clause) or _AVOIDING_MEANS.found(clause))


def _bare_negator(clause: str) -> bool:
    # "**禁止** 使用 `eval`", "**严禁** 提交 `.env`": a negator standing alone as a clause
    return len(clause) <= 12 and bool(_NEGATION.fullmatch(clause.strip(_NEGATOR_TRIM)))


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject negated rules without trigger or replacement (see module docstring)."""
    found = _check(claim)
    if (
        found is None
        and ctx.kind is FileKind.BOARD
        and ctx.section
        and _PROHIBITION_SECTION.match(ctx.section) is not None
        and not _NEGATION.search(claim.lower)
    ):
        # an item of a list of what not to do is forbidden by its heading ("## 禁止事项"
        # > "把 Snowflake ID 转为 JavaScript number"): it is judged as the prohibition it
        # is, and passes only with its replacement on the line ("❌ 猜测项目入口 — 统一走
        # `bash run.sh`")
        body = _MARK_LEAD_RE.sub("", claim.raw)
        if body:
            under = _check(analyse(_PROHIBITION_PREFIX[not claim.cjk] + body))
            return None if under is None else replace(under, reading=UNDER_HEADING)
    return found


def _check(claim: Claim) -> Finding | None:
    trig = trigger_clause(claim)
    directions = direction_clauses(claim, trig)
    continued = _list_items_under_prohibition(claim)
    labelled = (
        _labelled_forbidden(claim)
        if len(claim.clauses) > 1 and any(mark in claim.lower for mark in _COLONS)
        else set()
    )
    inner = {
        idx: head
        for idx, cue in directions
        if (head := _inner_prohibition(claim.clauses[idx], cue)) is not None
    }
    negated = [
        idx
        for idx, cue in directions
        if (
            _negated_clause(claim.clauses[idx], cue)
            or claim.clauses[idx] in continued
            or idx in labelled
            or idx in inner
        )
        # "不得超过600行": a numeric limit is a concrete bound, not a summoned drift
        and not has_limit(claim.clauses[idx])
        and not _purpose(claim, idx, trig)
    ]
    # "Never use blocking prompts; …": a prohibition read as the line's own (implicit)
    # trigger still forbids.
    if (
        trig is not None
        and trig not in {idx for idx, _ in directions}
        and _SPACED_NEGATION.match(claim.clauses[trig].lstrip(" *_>#-"))
        and not has_limit(claim.clauses[trig])
    ):
        negated.append(trig)
    negated += [
        idx
        for idx in range(len(claim.clauses) - 1)
        if idx not in negated and _bare_negator(claim.clauses[idx])
    ]
    if not negated:
        return None
    if _GHOST.found(claim.lower):
        return RULES["summoning.ghost-of-maintenance-history"].finding()
    # "禁止输出 `System.out.println()` 或 `console.log` 调试信息": a clause opening on "or"
    # after a prohibition (split off at a bracket) is more of what it forbids.
    # A negator standing alone as a clause forbids the clause after it, no replacement.
    forbidden = set(negated) | {
        idx
        for idx in range(1, len(claim.clauses))
        if idx - 1 in negated
        and (_CONTINUING_LEAD.match(claim.clauses[idx]) or _bare_negator(claim.clauses[idx - 1]))
    }
    # "禁止把密钥、令牌（PAT）、会话凭据写入仓库": a clause opening on the enumeration mark
    # 、 after a bracketed note goes on listing what the prohibition before the note forbids.
    for idx in range(2, len(claim.clauses)):
        if (
            idx - 2 in forbidden
            and claim.clauses[idx].startswith(_ENUMS)
            and _bracketed(claim, claim.clauses[idx - 1])
        ):
            forbidden |= {idx - 1, idx}
    if next(_replacements(claim, trig, directions, negated, forbidden, inner), None):
        # The replacement is named; whether the situation is recognisable (explicit, or
        # implicit in the line's domain) is the gradient gate's test.
        return None
    if trig is None:
        return RULES["summoning.no-recognizable-trigger"].finding()
    return RULES["summoning.no-replacement-action"].finding()


def _replacements(
    claim: Claim,
    trig: int | None,
    directions: list[tuple[int, str]],
    negated: list[int],
    forbidden: set[int],
    inner: dict[int, str],
) -> Iterator[tuple[str, str]]:
    """What the line names to do instead of what it forbids, as (way, text) pairs in the
    order they are looked for, each looked for only when the ones before found nothing:
    a concrete direction beside the prohibition, the head of a clause that also forbids,
    a normative clause, a stated way, an allowed thing or a named means, a replacement
    joined inside the prohibiting clause, then (only when none of these is there) a short
    verbless clause naming another thing, and a replacement word or a thing that suffices
    anywhere on the line."""
    first_negated = min(negated)
    # A replacement that is itself only a value ("不要过度设计，保持代码简洁") names nothing
    # to do instead.
    for idx, cue in directions:
        if (
            idx not in forbidden
            # "一旦绑定，未经要求不得修改": the situation set off is no thing to do instead
            and not (
                trig is not None
                and idx == trig < first_negated
                and _CONDITIONAL_LEAD.match(claim.clauses[idx])
            )
            and (
                not is_vague(claim.clauses[idx], cue)
                or (trig is not None and trig < idx and _acts_on_named(claim.clauses[idx], cue))
            )
            and not (idx > first_negated and _EXCEPTION_LEAD.found(claim.clauses[idx]))
            and not _no_replacement(claim.clauses[idx], cue)
        ):
            yield "direction", claim.clauses[idx]
    # "Use `unknown` and avoid `any`": the head of a clause that also forbids is what to
    # do instead, when it is itself a concrete direction.
    for idx, cue in directions:
        head = inner.get(idx)
        if (
            head is not None
            and head.strip()
            and not is_vague(head, cue)
            and not _no_replacement(head, cue)
        ):
            yield "head before the prohibition", head
    for idx, _ in normative_clauses(claim):
        if idx not in forbidden:
            yield "normative clause", claim.clauses[idx]
    # "`pkg` is consumed from PyPI; avoid local path dependencies": the way the line
    # states an artefact is had is what to do instead.
    for idx, clause in enumerate(claim.clauses):
        if idx not in negated and (
            _stated_way(clause) or _allowed_thing(clause) or _means_named(clause)
        ):
            yield "stated way", clause
    for idx in negated:
        if _joined_replacement(claim.clauses[idx]):
            yield "joined replacement", claim.clauses[idx]
    for idx in range(len(claim.clauses)):
        if idx not in forbidden and _named_alternative(claim, idx, forbidden, trig):
            yield "named alternative", claim.clauses[idx]
    if _REPLACEMENT.found(claim.lower) or _sufficing(claim):
        yield "replacement word", claim.raw
