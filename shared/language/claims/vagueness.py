"""Vagueness: a direction clause that names no concrete action (a value, a vague verb).

"Write clean code", "Keep functions small and focused", "保持代码简洁": the object is a
generic part of any code base and everything said about it is a quality, so the line
is a value, not an action.
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims.claim import words
from shared.language.claims.vocabulary import (
    ARTEFACT,
    EVALUATIVE,
    GENERIC,
    IMPERATIVE,
    STOP,
    VAGUE_VERB,
)
from shared.language.lexicon.script import CJK_RE

_ADVERB_OR_GERUND_ENDINGS = tuple(sorted(lexicon.words("adverb_or_gerund_ending", spaced=True)))
_SKIP_LEAD = lexicon.words("skip_lead", spaced=True)
_GENERIC_CODE = lexicon.words("generic_code", spaced=True)
_QUALITY_CUES = lexicon.words("quality_cue", spaced=True)
_RANKING_CUES = lexicon.words("ranking_cue", spaced=True)
_OBLIGATIONS = lexicon.words("obligation", spaced=False)
_ADVERB_CUES = lexicon.words("adverb_cue", spaced=False)
_JUDGEMENT = lexicon.matcher("judgement")
_GOAL = lexicon.matcher("goal")
_VAGUE_PHRASE = lexicon.matcher("vague_phrase")
_OWN_WORK_CHECK = lexicon.matcher("own_work_check")
_VAGUE_OPENING = lexicon.matcher("vague_opening")
_SEQUENCE = lexicon.matcher("sequence")
_UNSPACED_QUALITY_CUE = lexicon.matcher("quality_cue", spaced=False)
_UNSPACED_GENERIC = lexicon.matcher("generic", spaced=False)
_UNSPACED_GENERIC_CODE = lexicon.matcher("generic_code", spaced=False)
_UNSPACED_EVALUATIVE = lexicon.matcher("evaluative", spaced=False)
_LATIN_OR_CODE_RE = re.compile(r"[A-Za-z0-9`]")
_VAGUE_HEDGE = lexicon.matcher("vague_hedge")
_APPROPRIATE = lexicon.matcher("appropriate")
_MEANS_BEFORE = lexicon.matcher("means_before")
_QUALITY_LEADS = lexicon.words("quality_lead", spaced=True)
_QUALITY_OBJECT_CUES = lexicon.words("quality_object_cue", spaced=True)
_COMPLEMENT_CUES = lexicon.words("complement_cue", spaced=True)
_COMPLEMENT_MODALS = lexicon.words("complement_modal", spaced=True)
_COMPLEMENT_LINKS = lexicon.words("complement_link", spaced=True)
_KEPT_CURRENT = lexicon.matcher("kept_current", spaced=True)
_ENSURE_PHRASE = lexicon.matcher("ensure_phrase", spaced=True)
_QUALITY_PHRASE = lexicon.matcher("quality_phrase", spaced=True)
_QUALITY_WORD = " readable "  # what a quality said in several words is read as
_COMPLEMENT_OBJECT_MAX = 3  # words of the artefact before its qualities
_UNSPACED_COMPLEMENT_CUE = lexicon.matcher("complement_cue", spaced=False)
_UNSPACED_COMPLEMENT_QUALITY = lexicon.matcher("complement_quality", spaced=False)
_QUALITY_FINDS = (_UNSPACED_EVALUATIVE.search, _UNSPACED_COMPLEMENT_QUALITY.search)
_UNSPACED_COMPLEMENT_OBJECT_MAX = 4  # characters of the kept artefact ("组件功能")
_QUALITY_NOUNS = lexicon.words("quality_noun", spaced=True)
_SPACED_TRIGGER = lexicon.matcher("trigger", spaced=True, prefilter=True)
_UNSPACED_DIRECTION = lexicon.matcher("direction", spaced=False, prefilter=True)
_UNSPACED_QUALITY_OBJECT_CUE = lexicon.matcher("quality_object_cue", spaced=False)
_UNSPACED_QUALITY_LEAD = lexicon.matcher("quality_lead", spaced=False)
_UNSPACED_ARTEFACT_MAX = 4  # characters of the qualified artefact ("错误提示")
_UNSPACED_QUALITY_NOUN = lexicon.matcher("quality_noun", spaced=False)
_UNSPACED_TRAILING_TIME = lexicon.matcher("trailing_time", spaced=False)
_UNSPACED_MAKING = lexicon.matcher("making_verb", spaced=False)
_SPACED_STANDARD = lexicon.words("unnamed_standard", spaced=True)
_UNSPACED_STANDARD = lexicon.matcher("unnamed_standard", spaced=False)
_ARTICLES = lexicon.words("bare_article", spaced=True)
_PREFERENCE_CUES = lexicon.words("preference_cue", spaced=True)
_WEIGHED_OVER = lexicon.matcher("weighed_over", spaced=True)
_UNSPACED_WEIGHED_OVER = lexicon.matcher("weighed_over", spaced=False)
_ABSTRACT_SUFFIXES = tuple(lexicon.words("abstract_suffix", spaced=True))
_UNSPACED_ABSTRACT = lexicon.matcher("abstract_suffix", spaced=False)
_COLONS = tuple(lexicon.chars("punct:colon"))


def _hedged(clause: str) -> bool:
    """The clause leaves its action to judgement ("where appropriate", "合理使用"), or
    leaves open which thing fits ("under appropriate workspaces"); "appropriate" as the
    means of a concrete action ("using the appropriate pnpm scripts") only points at a
    tool."""
    if _VAGUE_HEDGE.search(clause):
        return True
    return any(not _MEANS_BEFORE.search(clause[: m.start()]) for m in _APPROPRIATE.finditer(clause))


def _quality_then_artefact(rest: list[str], clause: str) -> bool:
    """ "Write descriptive commit messages", "Use meaningful variable names": a quality,
    then the artefact it qualifies and nothing else; what makes a name descriptive is not
    said. Anything after the noun ("descriptive filenames with hyphens") says how."""
    lead = [w for w in rest if w in _QUALITY_LEADS]
    if not lead or rest[: len(lead)] != lead:
        return False
    # Generic parts ("error handling and logging mechanisms") neither add nor say how.
    tail = [w for w in rest[len(lead) :] if w not in _GENERIC_CODE]
    ws = words(clause)
    after = [w for w in ws[ws.index(lead[-1]) + 1 :] if w != "and"] if lead[-1] in ws else []
    if any(w in STOP for w in after) or len([w for w in after if w not in _GENERIC_CODE]) > 3:
        return False
    return 0 < len(tail) <= 3 and all(
        w not in EVALUATIVE and (w in ARTEFACT or not w.endswith(_ADVERB_OR_GERUND_ENDINGS))
        for w in tail
    )


def _only_qualities(content: list[str], cue: str, clause: str = "") -> bool:
    if cue not in _QUALITY_CUES and cue not in _QUALITY_OBJECT_CUES:
        return False
    rest = [w for w in content if w != cue and w not in _QUALITY_CUES]
    ranking = cue in _RANKING_CUES
    if not rest or not (ranking or any(w in EVALUATIVE for w in rest)):
        return False
    # "Ensure your code is clean": the reader's own work is no named thing
    if cue in _QUALITY_CUES and all(
        w in EVALUATIVE or w in _GENERIC_CODE or w in GENERIC for w in rest
    ):
        return True
    if all(w in EVALUATIVE or w in _GENERIC_CODE for w in rest):
        return False
    return bool(clause) and _quality_then_artefact(rest, clause)


def complement_only(clause: str, cue: str) -> bool:
    """ "Keep commit messages concise but descriptive": a bare artefact, then only
    qualities it should have; what makes a message concise is not said ("Keep functions
    under 50 lines" names a bound). The caller checks that nothing after the clause says
    how ("**Keep commands simple** - single file operations, …")."""
    if CJK_RE.search(clause):
        return _unspaced_complement_only(clause)
    clause = _QUALITY_PHRASE.sub(clause, _QUALITY_WORD)
    if cue in _COMPLEMENT_MODALS:
        return _modal_complement_only(clause, cue)
    if cue not in _COMPLEMENT_CUES:
        return False
    current = _KEPT_CURRENT.search(clause)
    content = [w for w in words(_KEPT_CURRENT.sub(clause)) if w not in STOP and w not in _SKIP_LEAD]
    rest = [w for w in content if w != cue]
    if current:
        # "Keep docs up to date": only a generic part of the work may be what is kept
        # current; "Keep the `CHANGELOG.md` up to date" names the file to edit.
        return bool(rest) and all(w in _GENERIC_CODE or w in EVALUATIVE for w in rest)
    return _artefact_then_qualities(rest)


def _artefact_then_qualities(rest: list[str]) -> bool:
    at = next((i for i, w in enumerate(rest) if w in EVALUATIVE), 0)
    head, tail = rest[:at], rest[at:]
    return (
        0 < len(head) <= _COMPLEMENT_OBJECT_MAX
        and all(w not in EVALUATIVE and not w.isdigit() for w in head)
        and all(w in EVALUATIVE for w in tail)
    )


def _modal_complement_only(clause: str, cue: str) -> bool:
    """ "Functions should be small and focused", "Naming must stay consistent": a bare
    artefact, a modal and a linking verb, then only qualities ("Functions should be
    under 50 lines" names a bound, "Commit messages must be in English" a value)."""
    at = clause.find(cue)
    if at <= 0:
        return False
    head = [w for w in words(clause[:at]) if w not in STOP and w not in _SKIP_LEAD]
    tail = [w for w in words(clause[at + len(cue) :]) if w not in STOP]
    tail = [w for w in tail if w not in _COMPLEMENT_LINKS]
    # "Classes should have a single responsibility": a quality named as a noun is one too
    if not tail:
        return False
    return _artefact_then_qualities(head + tail) or (
        0 < len(head) <= _COMPLEMENT_OBJECT_MAX
        and all(w not in EVALUATIVE and not w.isdigit() for w in head)
        and any(w in EVALUATIVE or w in _QUALITY_NOUNS for w in tail)
        and all(w in EVALUATIVE or w in _QUALITY_NOUNS or w in _GENERIC_CODE for w in tail)
    )


def _unspaced_complement_only(clause: str) -> bool:
    """ "保持组件功能单一且聚焦": 保持, a short artefact, then only qualities it should
    have; a value ("保持对话语言为中文"), a bound ("保持函数不超过 50 行") or a named
    thing ("保持与 `main` 一致") is left in what follows the artefact."""
    cue = _UNSPACED_COMPLEMENT_CUE.match(clause)
    if cue is None or _LATIN_OR_CODE_RE.search(clause):
        return False
    rest = clause[cue.end() :]
    found = [m.start() for f in _QUALITY_FINDS if (m := f(rest)) is not None]
    first = min(found, default=0)
    head, tail = rest[:first], rest[first:]
    # the kept qualities first: "与代码同步" goes whole before 与 alone would
    tail = _UNSPACED_EVALUATIVE.sub(_UNSPACED_COMPLEMENT_QUALITY.sub(tail))
    size = len(CJK_RE.findall(head))
    return 0 < size <= _UNSPACED_COMPLEMENT_OBJECT_MAX and not CJK_RE.search(tail)


def _quality_object(content: list[str], cue: str) -> bool:
    """ "Review for correctness", "Check code quality", "Improve performance": a verb whose
    object is only a quality of the work (what to look at or change is not named)."""
    rest = [w for w in content if w != cue and w not in _QUALITY_CUES]
    # "Double-check your work for accuracy": the reader's own work is no named thing
    return any(w in _QUALITY_NOUNS for w in rest) and all(
        w in _QUALITY_NOUNS or w in EVALUATIVE or w in _GENERIC_CODE or w in GENERIC for w in rest
    )


def _quality_over_quality(content: list[str], clause: str, cue: str) -> bool:
    """ "Favor readability over cleverness": one quality preferred to another, nothing
    named on either side ("Prefer clarity over brevity in error messages" names where)."""
    if cue not in _PREFERENCE_CUES:
        return False
    found = _WEIGHED_OVER.search(clause)
    if found is None:
        return False
    before, after = set(words(clause[: found.start()])), words(clause[found.end() :])
    head = [w for w in content if w in before]
    # "Prefer explicit over implicit": a bare quality on the preferred side too
    bare = [w for w in head if w != cue]
    quality = _quality_object(head, cue) or (bool(bare) and all(w in EVALUATIVE for w in bare))
    if _ones_by_quality(bare, after, clause):
        return True
    return quality and all(
        w in STOP or w in EVALUATIVE or w in _QUALITY_NOUNS or w.endswith(_ABSTRACT_SUFFIXES)
        for w in after
    )


def _ones_by_quality(bare: list[str], after: list[str], clause: str) -> bool:
    """ "Prefer simple solutions over complex ones": an unnamed kind of artefact on the
    preferred side, "ones" of the same kind on the other, so only their qualities are
    weighed ("Prefer small functions over classes" weighs two kinds)."""
    if "`" in clause or not any(w in _ONES for w in after):
        return False
    return any(w in EVALUATIVE for w in bare) and all(
        w in EVALUATIVE or w in _GENERIC_CODE for w in bare
    )


_ONES = lexicon.words("pro_one", spaced=True)


def _unspaced_quality_over_quality(clause: str) -> bool:
    """ "可读性优先于灵活性": one quality set above another, nothing else in the clause."""
    found = _UNSPACED_WEIGHED_OVER.search(clause)
    if found is None or _LATIN_OR_CODE_RE.search(clause):
        return False
    sides = (clause[: found.start()], clause[found.end() :])
    return all(
        s
        and not CJK_RE.search(
            _UNSPACED_ABSTRACT.sub(_UNSPACED_EVALUATIVE.sub(_UNSPACED_QUALITY_NOUN.sub(s)))
        )
        for s in sides
    )


def _before_trigger(clause: str, cue: str) -> str:
    """ "Prioritize readability when suggesting changes": what follows a trailing trigger
    word says when, not what; the action is the part before it."""
    found = _SPACED_TRIGGER.search(clause)
    if found is None or cue not in words(clause[: found.start()]):
        return clause
    return clause[: found.start()]


def _unspaced_only_qualities(clause: str, cue: str) -> bool:
    at = clause.find(cue)
    if (
        at > 0
        and _UNSPACED_TRAILING_TIME.search(clause[:at])
        and _UNSPACED_QUALITY_CUE.match(clause[at:])
    ):
        clause = clause[at:]  # "重构时保持代码整洁": the moment is the trigger's, not the object
    if cue in _OBLIGATIONS and cue in clause:
        rest = clause[clause.index(cue) + len(cue) :]  # "做事要认真": only a quality follows
        making = _UNSPACED_MAKING.match(rest)
        if making and any(len(m.group(0)) > 1 for m in _UNSPACED_EVALUATIVE.finditer(rest)):
            rest = rest[making.end() :]  # "要写出高质量的代码": writing what is only a quality
    elif _UNSPACED_QUALITY_CUE.search(clause):
        rest = _UNSPACED_QUALITY_CUE.sub(clause)  # anchored: removes the opening only
    elif cue in clause and cue not in _ADVERB_CUES:
        rest = clause.replace(cue, "", 1)  # "简单优先", "用常见的库和方法"
    else:
        return False
    rest = _UNSPACED_EVALUATIVE.sub(_UNSPACED_GENERIC_CODE.sub(_UNSPACED_GENERIC.sub(rest)))
    # "组件应具备良好的复用性": a quality of the work, named as a noun, is no object either
    rest = _UNSPACED_QUALITY_NOUN.sub(rest)
    return len(CJK_RE.findall(rest)) < 2 and not _LATIN_OR_CODE_RE.search(rest)


def _unspaced_quality_then_artefact(clause: str) -> bool:
    """ "提供清晰的错误提示", "返回明确的错误信息": a verb of producing, a quality, then the
    short artefact it qualifies and nothing else (anything more says how)."""
    cue = _UNSPACED_QUALITY_OBJECT_CUE.match(clause)
    tail = clause[cue.end() :] if cue else ""
    lead = _UNSPACED_QUALITY_LEAD.match(tail)
    if lead is None:
        return False
    rest = _UNSPACED_EVALUATIVE.sub(tail[lead.end() :])
    size = len(CJK_RE.findall(rest))
    return 0 < size <= _UNSPACED_ARTEFACT_MAX and not _LATIN_OR_CODE_RE.search(rest)


def _unspaced_quality_object(clause: str) -> bool:
    """ "提交前检查代码质量", "优化性能": the last action's object is only a quality of the
    work (an earlier verb, "提交前", names the moment), and nothing in the clause is named."""
    ends = [m.end() for m in _UNSPACED_DIRECTION.finditer(clause)]
    rest = clause[ends[-1] :] if ends else clause
    if not _UNSPACED_QUALITY_NOUN.search(rest) or _LATIN_OR_CODE_RE.search(clause):
        return False  # "运行 `pnpm lint` 检查代码质量": a named tool is the action
    rest = _UNSPACED_GENERIC.sub(_UNSPACED_QUALITY_NOUN.sub(rest))
    rest = _UNSPACED_EVALUATIVE.sub(_UNSPACED_GENERIC_CODE.sub(rest))
    return not CJK_RE.search(rest) and not _LATIN_OR_CODE_RE.search(rest)


def unnamed_standard(clause: str, cue: str) -> bool:
    """ "Use the correct UID/GID for …", "Implement comprehensive monitoring", "实现全面的监控":
    the verb's object opens with a standard it does not name, so what to do is still
    to be found out ("added … in the correct position" qualifies a place, not the
    object)."""
    if CJK_RE.search(clause):
        at = clause.find(cue)
        if at < 0:
            return False
        if _UNSPACED_STANDARD.match(clause[at + len(cue) :]):
            return True
        # "确保有完善的错误捕获和处理机制": the cue sits inside the object an unnamed
        # standard qualifies, a kind of mechanism named by its verb, not the act asked for
        return any(
            len(between := clause[m.end() : at]) <= _UNSPACED_ARTEFACT_MAX
            and len(CJK_RE.findall(between)) == len(between)
            for m in _UNSPACED_STANDARD.finditer(clause[:at])
        )
    ws = words(clause)
    if cue not in ws:
        return False
    rest = ws[ws.index(cue) + 1 :]
    if rest[:1] and rest[0] in _ARTICLES:
        rest = rest[1:]
    return bool(rest) and rest[0] in _SPACED_STANDARD


def hedged_after(clauses: tuple[str, ...], idx: int, others: set[int]) -> bool:
    """ "Mock external services (Google Apps Script, HTTP calls) using `test-utils/`
    helpers where appropriate": a hedge in a clause that only continues direction ``idx``
    (no direction or trigger of its own, ``others``, before it) leaves that action to
    judgement too, wherever a bracket split the sentence."""
    for at in range(idx + 1, len(clauses)):
        if at in others:
            return False
        if _hedged(clauses[at]):
            return True
    return False


def object_follows(raw: str, clause: str, cue: str) -> bool:
    """ "Before committing, run:": a concrete verb that ends the line on a colon takes the
    list on the following lines as its object, so it is not vague for lacking one."""
    tail = raw.rstrip(" *_")
    if not tail.endswith(_COLONS) or cue in VAGUE_VERB or cue not in IMPERATIVE:
        return False
    content = [w for w in words(clause) if w not in STOP and w not in _SKIP_LEAD]
    return content[-1:] == [cue]


_IN_NAMED_FILE_RE = re.compile(lexicon.source("in_named_file"))
_HANDLING_VERBS = lexicon.words("handling_verb", spaced=True)


def _placed_handling(clause: str, cue: str) -> bool:
    """ "Handle errors in `middleware/errors.ts`": handling done in a named file or
    directory is an act placed where it is to be done ("Handle errors gracefully" places
    nothing; thinking or caring stays vague wherever it happens)."""
    return cue in _HANDLING_VERBS and bool(_IN_NAMED_FILE_RE.search(clause))


def is_vague(clause: str, cue: str) -> bool:
    """True when a direction clause names no concrete action (a value or a vague verb)."""
    if _hedged(clause):
        return True
    if _VAGUE_OPENING.search(clause) and not _SEQUENCE.search(clause):
        return True  # "先做好设计再构建代码框架": a sequence of steps is not vague
    if _GOAL.search(clause):
        return True
    if _OWN_WORK_CHECK.search(clause):
        return True  # "review your changes": what to look for, or with what, is not said
    if CJK_RE.search(clause):
        return (
            _unspaced_only_qualities(clause, cue)
            or _unspaced_quality_object(clause)
            or _unspaced_quality_then_artefact(clause)
            or _unspaced_quality_over_quality(clause)
        )
    clause = _QUALITY_PHRASE.sub(clause, _QUALITY_WORD)
    content = [w for w in words(clause) if w not in STOP and w not in _SKIP_LEAD]
    if _ENSURE_PHRASE.match(clause):
        # "Make sure the code is documented" asks what "ensure" asks
        cue, content = "ensure", ["ensure", *content[2:]]
    elif cue in _COMPLEMENT_MODALS and clause.startswith(cue) and content[:1]:
        # "MUST write testable": the verb after the modal is the cue
        cue = content[0] if content[0] in _QUALITY_CUES else cue
    if " " not in cue and cue not in content:
        # A labelled value ("Components: PascalCase") carries its verb in the label.
        content = [cue, *content]
    if cue in EVALUATIVE and len(content) > 1 and all(w in _GENERIC_CODE for w in content[1:]):
        return True  # "Clean code", "Simple functions": the cue reads as a quality
    concrete = [w for w in content if w in IMPERATIVE and w not in VAGUE_VERB]
    if cue in VAGUE_VERB and not concrete and not _placed_handling(clause, cue):
        return True
    if _JUDGEMENT.search(clause):
        return True
    if _only_qualities(content, cue, clause):
        return True
    head = _before_trigger(clause, cue)
    head_content = [w for w in content if w in words(head)] if head != clause else content
    if _quality_object(head_content, cue) or (
        head != clause and _only_qualities(head_content, cue, head)
    ):
        return True
    if _quality_over_quality(content, clause, cue):
        return True
    if _VAGUE_PHRASE.search(clause) and len(concrete) <= 1 and len(content) <= 4:
        return True
    return len(content) < 2
