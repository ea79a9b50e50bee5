"""Domain: whether a direction acts on a concrete artefact (an implicit trigger).

"Prefer pnpm over npm for installs": the situation is implicit in the line's own
domain when its direction acts on a concrete artefact (a code span, a path, a named
tool, a file, a commit ...). Values and slogans ("be thoughtful", "treat access with
respect") name none, so they still lack a trigger.
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims.claim import CODE_TOKEN_RE, Claim, strip_label, words
from shared.language.claims.conventions import arranged, naming_convention
from shared.language.claims.norms import (
    MODEL_NAME_RE,
    arrow_mapping,
    has_limit,
    labelled_setting,
    labelled_value,
)
from shared.language.claims.vocabulary import (
    ABSTRACT,
    ARTEFACT,
    EVALUATIVE,
    EVENT_NOUNS,
    GENERIC,
    IMPERATIVE,
    STOP,
    VAGUE_VERB,
)
from shared.language.lexicon.script import CJK_RE
from shared.language.punct import EXCLAIM, FULL_STOP

_ADVERB_OR_PAST_ENDINGS = lexicon.words("adverb_or_past_ending", spaced=True)
_SKIP_LEAD = lexicon.words("skip_lead", spaced=True)
_SHOUT = lexicon.words("shout", spaced=True)
_OBJECT_CUES = lexicon.words("object_cue", spaced=True)
_ABSTRACT_TAKING = lexicon.words("abstract_taking", spaced=True)
_ABSTRACT_SUFFIXES = tuple(lexicon.words("abstract_suffix", spaced=True))
_NOT_PRODUCT = lexicon.words("not_product", spaced=True)
_GENERIC_OBJECT = lexicon.words("generic_object", spaced=True)
_DETERMINERS = lexicon.words("determiner", spaced=True)
_JUDGEMENT = lexicon.matcher("judgement")
_HEDGE = lexicon.matcher("hedge")
_SPACED_MODAL = lexicon.matcher("modal", spaced=True)
_ARTEFACT_PHRASE = lexicon.matcher("artefact_phrase")
_PRODUCT = lexicon.matcher("product")
_CHOICE = lexicon.matcher("choice")
_UNSPACED_ARTEFACT = lexicon.matcher("artefact", spaced=False)
_UNSPACED_PREFERENCE = lexicon.matcher("preference", spaced=False)
_UNSPACED_EVALUATIVE = lexicon.matcher("evaluative", spaced=False)
_UNSPACED_GENERIC = lexicon.matcher("generic", spaced=False)
_UNSPACED_DIRECTION = lexicon.matcher("direction", spaced=False, prefilter=True)
_REDUPLICATION = lexicon.matcher("reduplication")
_PERSON = lexicon.matcher("person")
_RANKING = lexicon.words("ranking_cue")
_NEEDLESS = lexicon.matcher("needless")
_TREATED_PERSON = lexicon.matcher("treated_person", spaced=False)
_QUALITY_VERBS = lexicon.words("quality_verb", spaced=True)
_QUALITY_SCOPE = lexicon.words("quality_scope", spaced=True)
_QUALITY_NOUNS = lexicon.words("quality_noun", spaced=True)
_UNSPACED_QUALITY_VERB = lexicon.matcher("quality_verb", spaced=False)
_UNSPACED_QUALITY_NOUN_END = re.compile(
    f"(?:{lexicon.source('quality_noun', spaced=False)})[\\s{FULL_STOP}{EXCLAIM}]*$"
)


def domain_concrete(claim: Claim, directions: list[tuple[int, str]]) -> bool:
    """True when the line acts on a concrete artefact: a code token anywhere in its
    body, or, in one of its direction clauses, an artefact word, a product or tool name
    (capitalised inside the clause: "Use Pydantic ..."), or a choice between named
    things ("Prefer list comprehensions for simple transformations", "Prefer A over
    B"). The direction cues themselves ("build", "test" as verbs) are not the artefact."""
    if labelled_value(claim) or labelled_setting(claim) or arrow_mapping(claim):
        return True
    body = strip_label(claim.raw)
    for match in CODE_TOKEN_RE.finditer(body):
        token = match.group(0).strip("`")
        if token.rstrip("s") not in _SHOUT and token not in _SHOUT:
            return True
    if any(has_limit(claim.clauses[idx]) for idx, _ in directions):
        return True  # "abstract only at 3+ reuses", "函数不超过 50 行": a bound on the edit
    cues = {cue for _, cue in directions}
    whole_seen: set[str] = set()
    for idx, cue in directions:
        clause = claim.clauses[idx]
        if not claim.cjk and clause.startswith(cue) and _SPACED_MODAL.fullmatch(cue):
            # "Computed metadata (bbox, …) should be calculated at runtime, not stored in
            # collections table": a modal with no subject of its own acts on what the
            # rest of the line names. The whole line is read once per modal, however many
            # of its clauses open with that modal (a long line would read it again each).
            if cue in whole_seen:
                continue
            whole_seen.add(cue)
            clause = " ".join(claim.clauses)
        # "Prioritize Unity's ecosystem", "优先最小化修改": a ranking verb says what comes
        # first, not what to do with it; only a named artefact or a choice gives its domain.
        ranking = cue in _RANKING
        if _upholds_quality(clause, cue, claim.cjk) or _NEEDLESS.search(clause):
            continue
        if claim.cjk and (
            _unspaced_artefact(clause) or (not ranking and _unspaced_object(clause, cue))
        ):
            return True
        for word in words(clause):
            for part in word.split("-"):
                if part not in cues and (part in ARTEFACT or part.rstrip("s") in ARTEFACT):
                    return True
        if _ARTEFACT_PHRASE.search(clause) or (
            not claim.cjk and arranged(clause, claim.lower, "`" in claim.raw)
        ):
            return True
        if _choice_shape(clause) or (
            not ranking and (_names_product(claim, clause) or _uses_thing(clause, cue))
        ):
            return True
        if naming_convention(clause) or MODEL_NAME_RE.search(clause):
            # "constants in SCREAMING_SNAKE_CASE", "ESP32-S3 exclusively": the style, or the
            # model named by letters run into digits, is the thing acted on
            return True
    return False


def _uses_thing(clause: str, cue: str) -> bool:
    """ "Use early returns", "Enable strict mode", "Pin dependency versions": a verb of
    choosing or setting up whose object is a thing, not a quality ("use good judgement")
    or an abstract value ("use empathy"). Verbs that mostly take an abstract object
    ("follow instructions", "keep changes minimal") need an artefact word instead."""
    ws = words(clause)
    if cue not in ws or not (
        cue in _OBJECT_CUES
        or (cue in IMPERATIVE and cue not in VAGUE_VERB and cue not in _ABSTRACT_TAKING)
    ):
        return False
    if _HEDGE.search(clause) or _JUDGEMENT.search(clause):
        return False  # "Use strong typing where available", "use good judgement": nothing chosen
    obj = ws[ws.index(cue) + 1 :]
    return any(
        w not in STOP
        and w not in _SKIP_LEAD
        and w not in GENERIC
        and w not in EVALUATIVE
        and w not in _GENERIC_OBJECT
        and w not in VAGUE_VERB
        and w not in ABSTRACT
        and w not in _DETERMINERS
        and (
            cue in _OBJECT_CUES
            or (
                w not in IMPERATIVE
                and w not in EVENT_NOUNS
                and not w.endswith(_ABSTRACT_SUFFIXES)
                and w[-2:] not in _ADVERB_OR_PAST_ENDINGS
            )
        )
        and len(w) > 2
        for w in obj
    )


def _unspaced_artefact(clause: str) -> bool:
    """An artefact phrase, or a Latin name that is not an emphasis or a slogan
    ("遵循 SOLID 原则" names a principle, not a thing)."""
    for match in _UNSPACED_ARTEFACT.finditer(clause):
        token = match.group(0)
        if not token.isascii() or token.upper() not in _SHOUT:
            return True
    return False


def _names_product(claim: Claim, clause: str) -> bool:
    """ "Use Pydantic for ...", "Follow Conventional Commits": a capitalised word that
    does not open its sentence names a product, tool or standard."""
    at = claim.lower.find(clause)
    if at < 0 or len(claim.lower) != len(claim.text):
        return False
    span = claim.text[at : at + len(clause)]
    return any(
        m.group(0).upper() not in _SHOUT and m.group(0) not in _NOT_PRODUCT
        for m in _PRODUCT.finditer(span)
    )


def _choice_shape(clause: str) -> bool:
    """ "Prefer A over B", "Use X for Y", "Choose X rather than Y": the direction names
    what to pick and for what (or instead of what), so the situation is the choice."""
    match = _CHOICE.match(clause)
    if not match:
        return False
    obj = [
        w
        for w in words(match["obj"])
        if w not in STOP
        and w not in GENERIC
        and w not in EVALUATIVE
        and w not in _GENERIC_OBJECT
        and w not in VAGUE_VERB
    ]
    return bool(obj)


def _unspaced_object(clause: str, cue: str) -> bool:
    """An unspaced direction's object, like a trigger (``trigger_is_concrete``), is
    concrete when at least two characters remain once the cue, generic and evaluative
    words go."""
    if _UNSPACED_PREFERENCE.search(clause) or _TREATED_PERSON.search(clause):
        return False  # "用户喜欢简洁的回答": a preference described, not a direction
    rest = _UNSPACED_EVALUATIVE.sub(_UNSPACED_GENERIC.sub(clause.replace(cue, "", 1)))
    rest = _REDUPLICATION.sub(rest)  # "步步验证": a reduplicated adverb, no object
    # "请询问我": once the other verbs and the people addressed go, nothing is acted on.
    rest = _PERSON.sub(_UNSPACED_DIRECTION.sub(rest))
    return len(CJK_RE.findall(rest)) >= 2


def _upholds_quality(clause: str, cue: str, cjk: bool) -> bool:
    """ "Ensure type safety across the project", "必须维护移动端兼容性": a verb of upholding
    or raising whose object ends on a quality; the artefact before it ("type", "移动端")
    only says whose quality, so the clause acts on nothing concrete."""
    if cjk:
        at = clause.find(cue)
        rest = clause[at:] if at >= 0 else clause
        if not any(_UNSPACED_QUALITY_VERB.match(s) for s in (rest, rest[len(cue) :])):
            return False  # the cue is the verb, or a modal before it ("必须维护")
        return _UNSPACED_QUALITY_NOUN_END.search(clause) is not None
    ws = words(clause)
    if cue not in ws:
        return False
    at = ws.index(cue)
    if cue not in _QUALITY_VERBS:
        at += 1  # "must maintain ...": the verb after the modal
        if at >= len(ws) or ws[at] not in _QUALITY_VERBS:
            return False
    obj = ws[at + 1 :]
    for i, w in enumerate(obj):
        if w in _QUALITY_SCOPE:
            obj = obj[:i]
            break
    return bool(obj) and obj[-1] in _QUALITY_NOUNS
