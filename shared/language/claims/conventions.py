"""Conventions: present-tense and verbless lines that set how an artefact is shaped.

"Handlers return `Result<T, E>`", "Imports sorted with isort", "Google Style
docstrings", "No default exports; named exports only": each names an artefact and the
convention it follows, so the situation is implicit in the artefact's domain and the
line directs the next edit without an imperative.
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims.claim import CODE_TOKEN_RE, Claim, words
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
from shared.language.punct import CLOSE, NUMBER_MARK

_PLURAL_QUANTIFIER = lexicon.words("plural_quantifier", spaced=True)
_NAMING_COPULA = lexicon.words("naming_copula", spaced=True)
_NEGATION = lexicon.matcher("negation")
_BARE_NEGATOR = lexicon.words("bare_negator", spaced=True)
_QUANTIFIER = lexicon.words("quantifier", spaced=True)
_ARRANGED = lexicon.matcher("arranged")
_ORDERING = lexicon.words("ordering", spaced=True)
_STYLED = lexicon.matcher("styled")
_ADJECTIVE_SUFFIXES = tuple(lexicon.words("adjective_suffix", spaced=True))
_GENERIC_OBJECT = lexicon.words("generic_object", spaced=True)
_AGENT_PERSON = lexicon.words("agent_person", spaced=True)
_DEFINITE_LEAD = lexicon.words("definite_lead", spaced=True)
_COPULA = lexicon.words("copula", spaced=True)
_RELATION_VERB = lexicon.words("relation_verb", spaced=True)
_CODED_RELATION = lexicon.words("coded_relation_verb", spaced=True)
_SKIP_LEAD = lexicon.words("skip_lead", spaced=True)
_ARTICLE = lexicon.words("article", spaced=True)
_RESTRICTIVE = lexicon.words("restrictive", spaced=True)
_SETTING_VERB = lexicon.words("setting_verb", spaced=True)
_MASS = lexicon.words("mass_artefact", spaced=True)
_NEED_VERB = lexicon.words("need_verb", spaced=True)
_SUBJECT_MAX = 4
_FORBID_USE = lexicon.matcher("forbid_use")
_UNSPACED_ARTEFACT = lexicon.matcher("artefact", spaced=False)
_UNSPACED_SETTING_MAX = 10  # characters of an unspaced language in a verbless setting
_CONCRETE_RE = re.compile(r"[A-Za-z0-9`]")
_LIST_MARK_RE = re.compile(rf"^\W*\d*\s*[{NUMBER_MARK}{CLOSE}]?\s*")
_DESCRIPTIVE_END = lexicon.phrases("descriptive_end")
_NAMING_STYLE = lexicon.matcher("naming_style")
_NAMING_NOUN = lexicon.words("naming_noun", spaced=True)
_UNSPACED_EVALUATIVE = lexicon.matcher("evaluative", spaced=False)
_NAMING_REST_MAX = 2  # words beside the style: the artefact it names ("for" aside)
_NAMING_REST_MAX_UNSPACED = 4  # characters of an unspaced language beside the style


def _present_verb(word: str, plural: bool, quantified: bool) -> str | None:
    """The verb ``word`` is in a convention's present tense, agreeing with its subject,
    or None: a relation verb, its base form after a plural subject ("Handlers return"),
    its -s form after a singular one ("`core/` imports"); under a quantified subject also
    a copula ("Each scenario is …", "Every module has …"). Agreement keeps compound nouns ("git
    reset", "memory sync") from reading as a subject and its verb."""
    if word in _COPULA:
        return word if quantified else None
    if plural:
        base = word
    elif word.endswith("es") and word[:-2] in _RELATION_VERB:
        base = word[:-2]
    else:
        base = word[:-1] if word.endswith("s") and not word.endswith("ss") else ""
    return base if base in _RELATION_VERB else None


def present_norm(clause: str, spanned: bool = False, replaces: bool = False) -> str | None:
    """ "Handlers return `Result<T, E>`", "`application/` imports domain only", "Every
    module has a docstring": a present-tense convention whose subject is a generic
    artefact (a code token, an artefact word, or anything universally quantified), not a
    particular thing ("The build is slow"). The subject is at most four words with no
    function word; its first verb decides. A relation verb needs a quantified subject, a
    code span (``spanned``) or a restriction ("only", "nothing"): "Tests depend on the
    database" describes. A copula needs a noun phrase or a name after it. Returns the
    verb. With ``replaces`` the rest of the line forbids the alternatives ("Tests are
    inline `test {}` blocks — no separate `test/` directory"), so a copula after an
    artefact subject sets the convention as a quantifier would."""
    tokens = clause.split()
    if len(tokens) < 3 or tokens[0] in _DEFINITE_LEAD or CJK_RE.search(clause):
        return None
    quantified = tokens[0] in _QUANTIFIER
    for k in range(1, min(_SUBJECT_MAX, len(tokens) - 1) + 1):
        last = tokens[k - 1]
        if k > 1 and last in STOP:
            return None  # "claude" in commit messages": a phrase, not a subject
        plural = tokens[0] in _PLURAL_QUANTIFIER or (last.endswith("s") and not last.endswith("ss"))
        at = k + 1 if tokens[k] in _SKIP_LEAD and k + 2 < len(tokens) else k
        verb = _present_verb(tokens[at], plural, quantified or replaces)
        if verb is None:
            continue
        if verb in _NEED_VERB and tokens[at + 1 : at + 2] == ["to"]:
            return None  # "Each change needs to be reviewed": a modal, judged as one
        if verb in _CODED_RELATION and not (spanned or CODE_TOKEN_RE.search(clause)):
            return None  # "Each session starts fresh": only a code span makes it a shape
        subject = " ".join(tokens[:k])
        artefact = CODE_TOKEN_RE.search(subject) or any(
            w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(subject)
        )
        if not (quantified or artefact):
            return None
        rest = tokens[at + 1 :]
        coded = spanned or bool(CODE_TOKEN_RE.search(clause))
        if verb in _NAMING_COPULA:
            # "Each scenario is a separate class": a noun phrase naming an artefact, or a
            # name; "Every bug is a lesson" names none.
            if replaces and not quantified:
                # "Tests are inline `test {}` blocks": the complement itself names the
                # artefact ("Tests are slow — no `sleep`" names a quality).
                said = " ".join(rest)
                named_here = CODE_TOKEN_RE.search(said) or any(
                    w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(said)
                )
                return verb if named_here else None
            named = coded or any(ch.isdigit() for ch in "".join(rest))
            thing = rest[0] in _ARTICLE and any(
                w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(" ".join(rest))
            )
            return verb if thing or named else None
        if verb in _COPULA or verb in _SETTING_VERB or quantified or coded:
            return verb
        restricted = any(w in _RESTRICTIVE for w in words(" ".join(tokens[k:])))
        return verb if restricted else None
    return None


def styled(clause: str) -> bool:
    """ "Google Style docstrings", "4-space indentation": a named style or a measure of
    one artefact (the last word) is the convention to use for it."""
    match = _STYLED.match(clause.strip().rstrip("."))
    if not match:
        return False
    noun = match["artefact"] or match["measured"] or ""
    name = match["name"] or ""
    # "Modern style components", "Python style code": no style named ("PascalCase" is
    # one word, a style's own name)
    adjective = bool(match["sep"]) and name.endswith(_ADJECTIVE_SUFFIXES)
    if name in EVALUATIVE or adjective or noun in _GENERIC_OBJECT:
        return False
    return noun in ARTEFACT or noun.rstrip("s") in ARTEFACT


def arranged(clause: str, line: str = "", spanned: bool = False) -> bool:
    """ "Imports sorted with isort", "Dates formatted as ISO 8601", "…, then findings sorted
    by confidence": a reduced passive that arranges or formats an artefact, or orders
    anything by a key in a ``line`` that names an artefact (or has a code span,
    ``spanned``), is a convention for it
    ("Content organized in chapters", "Tasks sorted by priority" arrange nothing
    concrete)."""
    match = _ARRANGED.match(clause)
    if not match:
        return False
    named = words(match["subject"]) + words(clause[match.end() :])
    if spanned:
        return True  # "Dates formatted with `date-fns`": the code span names the tool
    if any(w in ARTEFACT or w.rstrip("s") in ARTEFACT or w.isdigit() for w in named):
        return True
    ordering = match["participle"] in _ORDERING and match["how"] == "by"
    return ordering and any(w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(line))


def named_phrase(clause: str) -> bool:
    """ "Strict TypeScript", "plain-text commit bodies": a short verbless noun phrase that
    names an artefact and no quality; with the alternatives it forbids beside it ("…, no
    `any`") it is the setting to use."""
    ws = words(clause)
    if not ws or len(ws) > 4 or ws[0] in STOP or ws[0] in IMPERATIVE or ws[0] in VAGUE_VERB:
        return False
    if any(w in EVALUATIVE or w in ABSTRACT or w in GENERIC or w in EVENT_NOUNS for w in ws):
        return False
    return any(
        (w in ARTEFACT or w.rstrip("s") in ARTEFACT) and w not in _GENERIC_OBJECT for w in ws
    )


def rest_forbids(claim: Claim, idx: int) -> bool:
    """Every clause but ``idx`` forbids something ("No default exports; named exports
    only", "Secrets via environment variables, never in code"): the line is one
    convention and the alternatives it replaces."""
    if len(claim.clauses) > 3:
        return False  # at most two alternatives; checked first, it runs once per clause
    if any(c.count('"') % 2 for c in claim.clauses):
        return False  # a clause cut inside a quotation is no convention of its own
    others = [c for i, c in enumerate(claim.clauses) if i != idx]
    return len(others) <= 2 and all(
        _NEGATION.match(c) or (words(c)[:1] and words(c)[0] in _BARE_NEGATOR) for c in others
    )


def unspaced_setting(claim: Claim, idx: int) -> bool:
    """ "函数组件 + Hooks，不使用 class 组件", "文件缩进都是4个空格，不能使用tab": a short verbless
    Chinese clause that names an artefact and a concrete value (a Latin name, a number, a
    code span), beside clauses that forbid using the alternatives, is the setting to use
    instead of them ("`main` 分支为生产环境代码，不得直接提交" forbids an act, not an
    alternative)."""
    clause = _LIST_MARK_RE.sub("", claim.clauses[idx])
    if not CJK_RE.search(clause) or len(CJK_RE.findall(clause)) > _UNSPACED_SETTING_MAX:
        return False
    if _NEGATION.search(clause) or not _CONCRETE_RE.search(clause):
        return False
    if not _UNSPACED_ARTEFACT.search(clause) and not any(
        w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(clause)
    ):
        return False
    others = [c for i, c in enumerate(claim.clauses) if i != idx]
    return bool(others) and all(_FORBID_USE.match(_LIST_MARK_RE.sub("", c)) for c in others)


_QUANTIFIED_COPULA = lexicon.matcher("quantified_copula")
_SETTING_VALUE_MAX_UNSPACED = 6  # characters of an unspaced language in the value


def quantified_copula(clause: str) -> bool:
    """ "namespace 都是 ljt", "缩进一律为 4 个空格": an artefact that every instance of is set
    to a concrete value (a Latin name, a number, a code span) is the convention to use;
    "代码都是可读的" sets a quality."""
    match = _QUANTIFIED_COPULA.match(_LIST_MARK_RE.sub("", clause))
    if match is None:
        return False
    subject, value = match["subject"], match["value"]
    if not _CONCRETE_RE.search(value) or len(CJK_RE.findall(value)) > _SETTING_VALUE_MAX_UNSPACED:
        return False
    if _NEGATION.search(value) or value.rstrip().endswith(_DESCRIPTIVE_END):
        return False  # "项目都是 Vue 写的": a 的-complement describes how things are
    return bool(_UNSPACED_ARTEFACT.search(subject)) or any(
        w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(subject)
    )


# "Feature branches are squash-merged into `main`", "Docker images are built with
# `buildx`", "Each PR gets reviewed by a code owner": a present passive said of every
# thing of a kind (a bare plural, or a quantified subject; no "the"/"this"), and how or
# where it is done, is a standing convention; "The bug was fixed" and "The login page is
# fixed" report one thing's state.
_STANDING_PASSIVE_RE = re.compile(lexicon.source("standing_passive"))


def _kind_of_mass(subject: str) -> bool:
    """ "Shared code", "Generated config": a kind of a mass artefact names every piece of
    that kind, as a plural does; bare "Code is organized …" describes the whole project."""
    ws = subject.split()
    return len(ws) >= 2 and ws[-1] in _MASS


def standing_passive(clause: str) -> bool:
    """True when ``clause`` opens with a standing passive convention (see above)."""
    match = _STANDING_PASSIVE_RE.match(clause)
    if match is None:
        return False
    subject = match["subject"]
    if not match["quantifier"] and not subject.endswith("s") and not _kind_of_mass(subject):
        return False  # "The build is run …", "Login is fixed in …": one thing
    # "… handled with care", "… reviewed by the team", "… written in a clean way": how
    # must name a thing, not a quality, a value or people
    how = clause[match.end() :]
    if not CODE_TOKEN_RE.search(how) and not any(
        w not in STOP
        and w not in ABSTRACT
        and w not in EVALUATIVE
        and w not in GENERIC
        and w not in _GENERIC_OBJECT
        and w not in _AGENT_PERSON
        for w in words(how)
    ):
        return False
    return bool(CODE_TOKEN_RE.search(subject)) or any(
        w in ARTEFACT or w.rstrip("s") in ARTEFACT for w in words(subject)
    )


def naming_convention(clause: str) -> bool:
    """ "snake_case for columns", "小驼峰命名", "(PascalCase)": a short verbless clause
    that names a naming style sets how the artefact it is about is named; a sentence
    around the style ("the old module mixes camelCase and snake_case") describes, and a
    negated style is what not to write."""
    found = _NAMING_STYLE.search(clause)
    if found is None or _NEGATION.search(clause):
        return False
    rest = _NAMING_STYLE.sub(clause)
    if CJK_RE.search(rest):
        # "小驼峰命名", "常量全大写"; "小驼峰很好" grades the style
        short = len(CJK_RE.findall(rest)) <= _NAMING_REST_MAX_UNSPACED
        return short and not _UNSPACED_EVALUATIVE.search(rest)
    # "snake_case for database columns"; "Our team likes camelCase" says who likes it
    named = [w for w in words(rest) if w not in STOP]
    return len(named) <= _NAMING_REST_MAX and all(
        w in ARTEFACT or w.rstrip("s") in ARTEFACT or w in _NAMING_NOUN for w in named
    )


_OBJECT_CUES = lexicon.words("object_cue", spaced=True)
_CHOICE_SUBJECT_MAX = 3


def present_choice(clause: str) -> str | None:
    """ "Small projects use monolith architecture" beside "no microservices": what every
    thing of a kind (a bare plural) uses, chosen over the alternatives the line forbids,
    is the convention for that kind. Only beside a prohibition (the caller's test): alone
    it may describe. People are no kind of artefact ("Users use the app daily"), and a
    quality or an abstract value is nothing chosen ("Projects use good judgement").
    Returns the verb."""
    tokens = clause.split()
    if len(tokens) < 3 or tokens[0] in _DEFINITE_LEAD or CJK_RE.search(clause):
        return None
    for k in range(1, min(_CHOICE_SUBJECT_MAX, len(tokens) - 1) + 1):
        if tokens[k] not in _OBJECT_CUES:
            continue
        subject = tokens[:k]
        last = subject[-1]
        if any(w in STOP or w in _AGENT_PERSON for w in subject):
            return None
        if not last.endswith("s") or last.endswith("ss"):
            return None
        obj = words(" ".join(tokens[k + 1 :]))
        if obj and all(
            w in STOP or w in EVALUATIVE or w in ABSTRACT or w in GENERIC or w in _GENERIC_OBJECT
            for w in obj
        ):
            return None
        if any(w in EVALUATIVE or w in ABSTRACT for w in obj):
            return None
        return tokens[k] if obj else None
    return None
