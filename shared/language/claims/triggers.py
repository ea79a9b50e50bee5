"""Triggers: the recognisable situation a claim applies in, and whether it is concrete.

A spaced language's trigger word leads its situation ("before sending a draft"), so
what follows it is judged; an unspaced one sits inside it ("遇到报错时"), so the whole
clause is.
"""

from __future__ import annotations

import functools
import re

from shared.language import lexicon
from shared.language.claims.claim import Claim, words
from shared.language.claims.directions import clause_direction
from shared.language.claims.vocabulary import GENERIC, STOP
from shared.language.lexicon.script import CJK_RE

# prefilter: searched on every clause, most of which hold none of the literals
_SPACED_TRIGGER = lexicon.matcher("trigger", spaced=True, prefilter=True)
_UNSPACED_TRIGGER = lexicon.matcher("trigger", spaced=False, prefilter=True)
_SCOPE = lexicon.matcher("scope")
_TRAILING_TIME = lexicon.matcher("trailing_time")
_NEGATION = lexicon.matcher("negation")
_SPACED_NEGATION = lexicon.matcher("negation", spaced=True)
_REPLACEMENT = lexicon.matcher("replacement")
_GENERIC_PHRASE = lexicon.matcher("generic", spaced=False)
_GENERIC_SCOPE = tuple(lexicon.words("generic_scope"))
_FIRST_WORD_RE = re.compile(r"^\S+\s+")


@functools.lru_cache(maxsize=4096)
def find_trigger(claim: Claim) -> tuple[int, bool] | None:
    """(clause index, concrete?) of the claim's trigger, or None.

    Concreteness is judged on what follows the trigger word ("before answering" is
    generic, "before sending a contract draft" is not). A concrete explicit trigger
    wins, then a concrete leading scope phrase ("With <Person>, ..."), then any trigger.
    """
    explicit: list[tuple[int, bool]] = []
    for idx, clause in enumerate(claim.clauses):
        spaced = _SPACED_TRIGGER.search(clause)
        if spaced or _UNSPACED_TRIGGER.search(clause):
            tail = clause[spaced.end() :] if spaced else clause
            explicit.append((idx, trigger_is_concrete(tail)))
    scope: tuple[int, bool] | None = None
    first = claim.clauses[0] if claim.clauses else ""
    if (
        len(claim.clauses) > 1
        and _SCOPE.match(first)
        and not first.startswith(_GENERIC_SCOPE)
        and not _SPACED_TRIGGER.search(first)
    ):
        scope = (0, trigger_is_concrete(_FIRST_WORD_RE.sub("", first)))
    for found in explicit:
        if found[1]:
            return found
    if scope is not None and scope[1]:
        return scope
    if explicit:
        return explicit[0]
    if scope is not None:
        return scope
    if claim.cjk and _TRAILING_TIME.search(claim.text):
        return (0, trigger_is_concrete(claim.clauses[0] if claim.clauses else ""))
    return _implicit_trigger(claim)


def _implicit_trigger(claim: Claim) -> tuple[int, bool] | None:
    """ "Never X; do Y instead": the forbidden drift X names the situation in which Y
    applies, so a prohibition with an explicit replacement carries its own trigger."""
    if len(claim.clauses) < 2:
        return None
    if not _REPLACEMENT.search(claim.lower):
        # "Don't start replies with 'Yes'. Begin with …": a positive direction elsewhere in
        # the line is the replacement too.
        cues = [clause_direction(c) for c in claim.clauses]
        negated = [
            (c is not None and bool(_SPACED_NEGATION.fullmatch(c)))
            or (idx == 0 and _forbids_thing(clause))
            for idx, (c, clause) in enumerate(zip(cues, claim.clauses, strict=True))
        ]
        if not (
            any(negated)
            and any(c is not None and not n for c, n in zip(cues, negated, strict=True))
        ):
            return None
    for idx, clause in enumerate(claim.clauses):
        cue = clause_direction(clause)
        if cue and _NEGATION.fullmatch(cue):
            return (idx, trigger_is_concrete(_NEGATION.sub(clause)))
        if idx == 0 and cue is None and _forbids_thing(clause):
            return (idx, trigger_is_concrete(_FIRST_WORD_RE.sub("", clause)))
    return None


def _forbids_thing(clause: str) -> bool:
    """ "No silent catch blocks — log or re-throw": a verbless "no X" leading the line
    forbids the thing it names, as "never write X" does."""
    ws = words(clause)
    return len(ws) > 1 and ws[0] == "no" and clause_direction(clause) is None


def trigger_clause(claim: Claim) -> int | None:
    """Index of the clause that carries the claim's trigger, or None."""
    found = find_trigger(claim)
    return None if found is None else found[0]


def trigger_is_concrete(clause: str) -> bool:
    """True when a trigger clause names something beyond generic chat situations."""
    spaced = [
        w
        for w in words(_SPACED_TRIGGER.sub(clause))
        if w not in STOP and w not in GENERIC and len(w) > 1
    ]
    if spaced:
        return True
    rest = _GENERIC_PHRASE.sub(_UNSPACED_TRIGGER.sub(clause))
    return len(CJK_RE.findall(rest)) >= 2
