"""Directions: the clauses of a claim that direct an action, and the cue that does.

A direction is an imperative verb or a modal of obligation. In a spaced language the
verb is found by word (the first content word, or a modal anywhere); in an unspaced
one by phrase. Every detector returns the matched cue so a decision can say why.
"""

from __future__ import annotations

import functools
import itertools
import re

from shared.language import lexicon
from shared.language.claims.claim import Claim, words
from shared.language.claims.vocabulary import GENERIC, IMPERATIVE, STOP, VAGUE_VERB
from shared.language.lexicon.script import CJK_RE

_PARTICIPLE_ENDINGS = tuple(sorted(lexicon.words("participle_ending", spaced=True)))
_MODAL_LEAD = lexicon.words("modal_lead", spaced=True)
_SKIP_LEAD = lexicon.words("skip_lead", spaced=True)
_VERB_SUFFIXES = tuple(lexicon.words("verb_suffix", spaced=True))
_NOT_VERBS = lexicon.words("not_verb", spaced=True)
_PAST_VERBS = lexicon.words("past_verb", spaced=True)
_DETERMINERS = lexicon.words("determiner", spaced=True)
_INNER_VERBS = lexicon.words("inner_verb", spaced=True)
_NOT_BEFORE_VERB = lexicon.words("not_before_verb", spaced=True)
_SPACED_NEGATION = lexicon.matcher("negation", spaced=True)
_MODAL = lexicon.matcher("modal")
_DESCRIBED_SUBJECT = lexicon.matcher("described_subject")
# prefilter: trigger and direction are searched on every clause of every line, and a
# clause without one of their literals (an English clause, for the Chinese list) is
# turned down by one literal scan, not a search tried at each character
_DIRECTION_PHRASE = lexicon.matcher("direction", prefilter=True)
_LATIN_VERB = lexicon.matcher("latin_verb")
_INNER_MODAL = lexicon.matcher("inner_modal")
_MODAL_BE_TO = lexicon.matcher("modal_be_to")
_SPACED_TRIGGER = lexicon.matcher("trigger", spaced=True, prefilter=True)
_UNSPACED_TRIGGER = lexicon.matcher("trigger", spaced=False, prefilter=True)
_TIME_WORD = lexicon.matcher("time_word")
_GENERIC_RUN = lexicon.matcher("generic_run")
_BARE_TIME = lexicon.matcher("bare_time")
_MODAL_BEFORE = lexicon.matcher("modal_before")
_UNSPACED_DIRECTION = lexicon.matcher("direction", spaced=False, prefilter=True)
_UNSPACED_NEGATION = lexicon.matcher("negation", spaced=False)
_SPACED_SKILL = lexicon.matcher("external_skill", spaced=True)
_MEANS_LEAD = lexicon.matcher("means_lead")
_UNSPACED_ARTEFACT = lexicon.matcher("artefact", spaced=False)
_UNSPACED_SKILL = lexicon.matcher("external_skill", spaced=False)
_EXAMPLE_LEAD = lexicon.matcher("example_lead")
# "see the `adding-a-cli-command` skill": the artefact is named in a code span.
_NAMED_ARTEFACT_RE = re.compile(r"`[^`\n]+`\s+(?:[\w-]+\s+)?[a-z]+")
# "... conventions in src/api/", "... patterns of routes/users.ts": a place named after it.
_WHERE_NAMED_RE = re.compile(lexicon.source("where_named"))


# The leading word runs on into a dotted or numbered name ("match3.core must …",
# "store.ts …"): it names a module or a file, not a verb.
_IDENTIFIER_HEAD_RE = re.compile(r"[^\W\d_]+(?=\d|\.[^\W\d_])")


def _first_word(clause: str) -> str | None:
    for word in words(clause):
        if word in _SKIP_LEAD or (word.endswith("ly") and word not in IMPERATIVE):
            continue
        return word
    return None


def _identifier_head(clause: str, first: str) -> bool:
    lead = _IDENTIFIER_HEAD_RE.match(clause.lstrip(_LEAD_MARKS))
    return lead is not None and lead.group(0) == first


def _looks_imperative(clause: str, first: str) -> bool:
    """Imperative mood for a verb the lists lack: a bare leading word (no -s/-ed/-ing,
    not a function word) followed by a determiner ("Pin the version", "Squash all
    fixups"), or verb morphology ("Standardize on AiError …")."""
    if first in STOP or first in GENERIC or len(first) < 3 or first.isdigit():
        return False
    if len(first) >= 6 and first.endswith(_VERB_SUFFIXES) and first not in _NOT_VERBS:
        return True
    if first.endswith(_PARTICIPLE_ENDINGS) or (first.endswith("s") and not first.endswith("ss")):
        return False
    if first in _PAST_VERBS:
        return False  # "Ran the suite with …": an irregular past narrates
    ws = words(clause)
    try:
        nxt = ws[ws.index(first) + 1]
    except (ValueError, IndexError):
        return False
    return nxt in _DETERMINERS


_LEAD_MARKS = " \t*_>#-–—•·❌✅✓✔✗✘🚫⛔️⚠"


def _imperative(word: str) -> bool:
    """An imperative verb, or one repeated with a hyphenated "re-" ("re-plan", "re-check",
    "re-deploy"): the prefix says the act is done again, not what kind of word it is."""
    return word in IMPERATIVE or (word.startswith("re-") and word[3:] in IMPERATIVE)


def clause_direction(clause: str) -> str | None:
    """The cue that makes ``clause`` a direction (imperative verb or modal), or None."""
    lead = _SPACED_NEGATION.match(clause.lstrip(_LEAD_MARKS))
    if lead:
        return lead.group(0)  # "do not prefix ...": the prohibition, not the verb "do"
    first = _first_word(clause)
    if first is not None and _identifier_head(clause, first):
        first = None  # "match3.core must never reference …": a name, then its modal
    described = first is not None and bool(_DESCRIBED_SUBJECT.match(clause))
    if first is not None and not described and (_imperative(first) or first in VAGUE_VERB):
        return first
    modal = _MODAL.search(clause)
    if modal:
        # "core must never reference web", "tests must not hit the network": a modal
        # that opens a prohibition is that prohibition.
        negated = _SPACED_NEGATION.match(clause[modal.start() :])
        return negated.group(0) if negated else modal.group(0)
    if first is not None and _looks_imperative(clause, first):
        return first
    be_to = _MODAL_BE_TO.search(clause) if " to be " in clause else None
    if be_to:
        return be_to.group(0)  # "Servers are to be started by the user"
    phrase = _DIRECTION_PHRASE.search(clause)
    if phrase:
        return phrase.group(0)
    means = _MEANS_LEAD.match(clause)
    if means and _named_means(clause[means.end() :]):
        return means.group(0).strip()
    latin = _LATIN_VERB.search(clause)
    if latin and latin.group(1) in IMPERATIVE and latin.group(1) not in VAGUE_VERB:
        return latin.group(1)
    placed = _IN_FILE.match(clause)
    if placed and not _placed_state(clause[placed.start("verb") :]):
        return placed["verb"]  # "在 `actions.py` 内做范围裁剪": where, then what to do there
    return None


# "在 `actions.py` 内做范围裁剪", "在 `src/api/` 下新增路由": a Chinese clause that opens on
# the file or directory it acts in leaves its verb to what follows, whatever verb that is
# (the English "In `actions.py`, clip the ranges" leads with its verb after the comma).
_IN_FILE = lexicon.matcher("in_file")
_PLACED_STATE = lexicon.matcher("placed_state", spaced=False)
_VAGUE_OPENING = lexicon.matcher("vague_opening")


def _placed_state(rest: str) -> bool:
    """What follows the place is a state ("已完成迁移", "有三个入口") or an attitude
    ("注意命名"), not an act done there."""
    return bool(_PLACED_STATE.match(rest) or _VAGUE_OPENING.search(rest))


def _named_means(rest: str) -> bool:
    """ "通过环境变量配置密钥", "通过 FreeRTOS vTaskDelayUntil 保证…": the means is an
    artefact phrase, or a name with its own part; one bare name ("借助 AI 提高效率",
    "通过 GitHub 协作") names a tool, not how to use it."""
    found = _UNSPACED_ARTEFACT.match(rest)
    if found is None:
        return False
    if not found.group(0).isascii() or len(_LATIN_RUN_RE.findall(rest)) >= 2:
        return True
    # "通过 `pnpm` 管理依赖": a name, then what it handles
    return any(not m.group(0).isascii() for m in _UNSPACED_ARTEFACT.finditer(rest))


def _inner_direction(tail: str) -> str | None:
    """After a trigger with no comma, a modal or an imperative that cannot belong to the
    situation itself ("... first run X", "... never co-author", "after every change run X")."""
    modal = _INNER_MODAL.search(tail)
    if modal:
        lead = modal.group(0).split()[0]
        if modal["verb"] in IMPERATIVE or lead in _MODAL_LEAD:
            return lead
    ws = words(tail)
    for prev, word in itertools.pairwise(ws):
        if word in _INNER_VERBS and prev not in _NOT_BEFORE_VERB and not prev.endswith("ly"):
            return word
    return None


def direction_clauses(claim: Claim, trigger_idx: int | None) -> list[tuple[int, str]]:
    """(index, cue) of every clause, other than the trigger clause, that directs action.

    In an unspaced trigger clause the parts before and after the trigger are searched too.
    Memoised: every gate asks for the same claim's directions.
    """
    return list(_direction_clauses(claim, trigger_idx))


@functools.lru_cache(maxsize=4096)
def _direction_clauses(claim: Claim, trigger_idx: int | None) -> tuple[tuple[int, str], ...]:
    found = []
    for idx, clause in enumerate(claim.clauses):
        if idx and _examples_only(clause):
            continue  # "…问题，例如批量计算、数据导入导出等": examples of the clause before
        if idx == trigger_idx:
            cue = _trigger_clause_direction(claim, clause)
            if cue is not None:
                found.append((idx, cue))
            continue
        cue = clause_direction(clause)
        if (
            cue
            and claim.cjk
            and (_nominal(clause, cue) or _copula_subject(clause, cue) or _perfective(clause, cue))
        ):
            continue
        if cue:
            found.append((idx, cue))
    return tuple(found)


def _examples_only(clause: str) -> bool:
    """A clause led by "例如 / e.g." lists examples of the clause before it, unless what
    follows the lead is itself an act ("for example wrap handlers in `withErrors()`")."""
    lead = _EXAMPLE_LEAD.match(clause)
    if lead is None:
        return False
    rest = clause[lead.end() :].lstrip(_EXAMPLE_LEADS)
    cue = clause_direction(rest) if rest else None
    return cue is None or not (rest.startswith(cue) or _UNSPACED_DIRECTION.match(rest))


_LATIN_OR_CODE_RE = re.compile(r"[A-Za-z0-9`]")
_EXAMPLE_LEADS = " " + lexicon.chars("punct:comma", "punct:colon")
_CLAUSE_END = " " + lexicon.chars("punct:stop", "punct:semicolon", "punct:exclaim")
_COLONS = tuple(lexicon.chars("punct:colon"))
_LATIN_RUN_RE = re.compile(r"[A-Za-z][\w.-]*")


# "跳过是给开发者的便利": a verb right before the copula 是 (not 是否) is what the clause
# talks about, not an action it asks for.
_COPULA_RE = re.compile(lexicon.source("copula", spaced=False))


# "昨天重启了开发服务器", "项目创建于 2024 年": a verb marked done (了), or dated with 于 and a
# number, reports what happened to a thing; it asks for nothing ("优先于 `-O3`" ranks).
_PERFECTIVE_RE = re.compile(lexicon.source("perfective"))


def _perfective(clause: str, cue: str) -> bool:
    at = clause.find(cue)
    if at < 0 or _UNSPACED_NEGATION.fullmatch(cue):
        return False
    return bool(_PERFECTIVE_RE.match(clause, at + len(cue)))


def _copula_subject(clause: str, cue: str) -> bool:
    at = clause.find(cue)
    return at >= 0 and bool(_COPULA_RE.match(clause, at + len(cue)))


def _nominal(clause: str, cue: str) -> bool:
    """ "前后端分离", "代码分割和懒加载": in an unspaced language, a verb that ends a short
    clause, with no modal, adverb, object or other verb around it, names a practice (a
    noun phrase), not a next action. A prohibition ("避免：…") still forbids."""
    found = _UNSPACED_DIRECTION.search(clause)
    if found is None or found.group(0) != cue or len(cue) < 2:
        return False
    if clause[found.end() :].strip(_CLAUSE_END) or len(CJK_RE.findall(clause)) > 10:
        return False
    if _UNSPACED_NEGATION.fullmatch(cue) or _LATIN_OR_CODE_RE.search(clause):
        return False
    if _UNSPACED_TRIGGER.search(clause):
        return False  # "遇到错误自己调试修复": an action under a trigger
    before = clause[: found.start()]
    return not (_UNSPACED_DIRECTION.search(before) or _MODAL_BEFORE.search(before))


def _trigger_clause_direction(claim: Claim, clause: str) -> str | None:
    unspaced = _UNSPACED_TRIGGER.search(clause) if claim.cjk else None
    if unspaced:
        # "遇到报错时先读日志", "仅对需求做针对性改动": the direction follows the
        # trigger's 时/前/后, or leads it.
        tail = _TIME_WORD.split(clause[unspaced.start() :], maxsplit=1)
        # "每次回答都要礼貌": the situation's own noun (回答) is not the direction.
        rest = tail[1] if len(tail) == 2 else _GENERIC_RUN.sub(clause[unspaced.end() :])
        parts = [clause[: unspaced.start()], rest]
        cue = next((c for c in map(clause_direction, parts) if c), None)
        if cue is None and _BARE_TIME.search(clause) and len(CJK_RE.findall(rest)) >= 2:
            cue = rest.strip()[:2]  # "失焦时提示用户…": the predicate after <event>时
        return cue
    trig = _SPACED_TRIGGER.search(clause)
    if trig is None:
        return None
    # "Restate the topic when the user corrects you" / "Always run X before committing":
    # the direction leads the trigger; "Whenever you get clippy errors first run cargo
    # fix": it follows the trigger with no comma.
    head = clause[: trig.start()]
    cue = clause_direction(head) if head.strip() else None
    return cue if cue is not None else _inner_direction(clause[trig.end() :])


def unnamed_skill(claim: Claim, trigger_idx: int | None) -> bool:
    """True when the direction defers to an artefact it does not point at (no
    ``[[slug]]``/``Details:``) and that the trigger did not introduce either
    ("When a message contains a doc link, open the doc" is fine)."""
    if claim.has_pointer or claim.has_details:
        return False
    # "当任务涉及多个文件时，必须按以下流程执行：": under a trigger, a procedure the line
    # calls the one below and ends on a colon is the list that follows, not an unnamed one.
    listed = trigger_idx is not None and claim.raw.rstrip(" *_").endswith(_COLONS)
    for found in _UNSPACED_SKILL.finditer(claim.text):
        if not (listed and found.groupdict().get("below")):
            return True
    named = (
        {m.group(0).split()[-1] for m in _NAMED_ARTEFACT_RE.finditer(claim.raw)}
        if "`" in claim.raw
        else set()
    )
    trigger = claim.clauses[trigger_idx] if trigger_idx is not None else ""
    for idx, clause in enumerate(claim.clauses):
        if idx == trigger_idx:
            continue
        for match in _SPACED_SKILL.finditer(clause):
            noun = match.group("noun")
            introduced = noun.rstrip("s") in trigger or noun in named
            last = idx == len(claim.clauses) - 1
            below = listed and last and bool(match.groupdict().get("below"))
            if not introduced and not below and not _titled(claim, clause, match):
                return True
    return False


def _titled(claim: Claim, clause: str, match: re.Match[str]) -> bool:
    """ "Follow PEP 8 conventions", "Follow the Rust API Guidelines": a number or a
    capitalised noun makes the followed artefact a named document; "the conventions in
    `src/api/`" names where it is written."""
    if _WHERE_NAMED_RE.match(clause[match.end() :]):
        return True
    at = claim.lower.find(clause)
    if at < 0 or len(claim.lower) != len(claim.text):
        return False
    span = claim.text[at + match.start() : at + match.end()]
    noun = claim.text[at + match.start("noun") : at + match.end("noun")]
    return any(ch.isdigit() for ch in span) or noun[:1].isupper()
