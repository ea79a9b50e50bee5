"""summoning: a negated rule must name its trigger and a replacement action.

"Never X" summons X. A negated rule survives only when the forbidden drift sits under
a recognisable trigger and the line says what to do instead; a negated rule that
points back at a past incident ("again", "like last time") is a ghost of maintenance
history.
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import (
    Claim,
    direction_clauses,
    has_limit,
    is_vague,
    normative_clauses,
    trigger_clause,
    words,
)
from shared.language.claims.vocabulary import ABSTRACT, EVALUATIVE, STOP
from shared.language.lexicon.script import CJK_RE
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "summoning"

_NEGATION = lexicon.matcher("negation")
_SPACED_NEGATION = lexicon.matcher("negation", spaced=True)
_UNSPACED_NEGATION = lexicon.matcher("negation", spaced=False)
_GHOST = lexicon.matcher("ghost")
_REPLACEMENT = lexicon.matcher("replacement")


def _negated(cue: str) -> bool:
    """True when the clause's leading direction cue is itself a prohibition."""
    return bool(_NEGATION.fullmatch(cue))


# Sentence-level separators: a prohibition governs the comma-separated list after it
# ("Never comment out, skip, or delete a test") up to the next one of these.
_SENTENCE_RE = re.compile(r"[;；。!?！？:：—–→]|\.(?=\s|$)|->|\s-\s|[(（]")
_LIST_RE = re.compile(rf"(?<!\s)\s*(?:[,，、]|{lexicon.source('list_joiner')})\s*")
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


def _negated_clause(clause: str, cue: str) -> bool:
    """A prohibition: a negating cue, a Chinese verb led by 不/别/勿 ("不使用 …"), or a
    Chinese prohibition ahead of the cue ("测试不得依赖执行顺序")."""
    if _negated(cue) or _NEGATING_LEAD.found(clause):
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


def _allowed_thing(clause: str) -> bool:
    """ "`unknown` is fine", "plain text only": a named thing allowed; "short ones only"
    allows only a quality, which is no replacement."""
    return bool(_PERMITTED.match(clause)) and _thing(clause)


def _list_items_under_prohibition(claim: Claim) -> set[str]:
    """Clauses that only continue a prohibition's list, so they are not replacements."""
    out: set[str] = set()
    for sentence in _SENTENCE_RE.split(claim.lower):
        items = [i for i in _LIST_RE.split(sentence) if i and i.strip()]
        if len(items) > 1 and _SPACED_NEGATION.match(items[0].strip()):
            for item in items[1:]:
                lead = _REPLACEMENT_LEAD.match(item.strip())
                if lead and _thing(item.strip()[lead.end() :]):
                    break  # "Avoid X, prefer Y": the list ends at the replacement
                out.add(item.strip())
    return out


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject negated rules without trigger or replacement (see module docstring)."""
    trig = trigger_clause(claim)
    directions = direction_clauses(claim, trig)
    continued = _list_items_under_prohibition(claim)
    negated = [
        idx
        for idx, cue in directions
        if (_negated_clause(claim.clauses[idx], cue) or claim.clauses[idx] in continued)
        # "不得超过600行": a numeric limit is a concrete bound, not a summoned drift
        and not has_limit(claim.clauses[idx])
        and not _purpose(claim, idx, trig)
    ]
    if not negated:
        return None
    if _GHOST.found(claim.lower):
        return Finding(
            RULE_ID,
            f"{RULE_ID}: ghost of maintenance history",
            "the negated rule points back at a past incident instead of a live trigger",
        )
    # A replacement that is itself only a value ("不要过度设计，保持代码简洁") names nothing
    # to do instead.
    first_negated = min(negated)
    # "禁止输出 `System.out.println()` 或 `console.log` 调试信息": a clause opening on "or"
    # after a prohibition (split off at a bracket) is more of what it forbids.
    forbidden = set(negated) | {
        idx
        for idx in range(1, len(claim.clauses))
        if idx - 1 in negated and _CONTINUING_LEAD.match(claim.clauses[idx])
    }
    positive = [
        idx
        for idx, cue in directions
        if idx not in forbidden
        and not is_vague(claim.clauses[idx], cue)
        and not (idx > first_negated and _EXCEPTION_LEAD.found(claim.clauses[idx]))
    ]
    positive += [idx for idx, _ in normative_clauses(claim) if idx not in forbidden]
    # "`pkg` is consumed from PyPI; avoid local path dependencies": the way the line
    # states an artefact is had is what to do instead.
    positive += [
        idx
        for idx, clause in enumerate(claim.clauses)
        if idx not in negated and (_stated_way(clause) or _allowed_thing(clause))
    ]
    replacement = _REPLACEMENT.found(claim.lower) or _sufficing(claim)
    if positive or replacement:
        # The replacement is named; whether the situation is recognisable (explicit, or
        # implicit in the line's domain) is the gradient gate's test.
        return None
    if trig is None:
        return Finding(
            RULE_ID,
            f"{RULE_ID}: no recognizable trigger",
            "the negated rule names no situation in which the drift would happen",
        )
    return Finding(
        RULE_ID,
        f"{RULE_ID}: no replacement action",
        "the negated rule forbids a behavior without saying what to do instead",
    )
