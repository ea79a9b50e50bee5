"""Vagueness: a direction clause that names no concrete action (a value, a vague verb).

"Write clean code", "Keep functions small and focused", "保持代码简洁": the object is a
generic part of any code base and everything said about it is a quality, so the line
is a value, not an action.
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims.claim import words
from shared.language.lexicon.script import CJK_RE

_STOP = lexicon.words("stop", spaced=True)
_SKIP_LEAD = lexicon.words("skip_lead", spaced=True)
_IMPERATIVE = lexicon.words("imperative", spaced=True)
_VAGUE_VERB = lexicon.words("vague_verb", spaced=True)
_EVALUATIVE = lexicon.words("evaluative", spaced=True)
_GENERIC_CODE = lexicon.words("generic_code", spaced=True)
_QUALITY_CUES = lexicon.words("quality_cue", spaced=True)
_RANKING_CUES = lexicon.words("ranking_cue", spaced=True)
_OBLIGATIONS = lexicon.words("obligation", spaced=False)
_ADVERB_CUES = lexicon.words("adverb_cue", spaced=False)
_JUDGEMENT = lexicon.matcher("judgement")
_VAGUE_PHRASE = lexicon.matcher("vague_phrase")
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
    tail = rest[len(lead) :]
    ws = words(clause)
    after = [w for w in ws[ws.index(lead[-1]) + 1 :] if w != "and"] if lead[-1] in ws else []
    if len(after) > 3 or any(w in _STOP for w in after):
        return False
    return 0 < len(tail) <= 3 and all(
        w not in _EVALUATIVE and not w.endswith(("ly", "ing")) for w in tail
    )


def _only_qualities(content: list[str], cue: str, clause: str = "") -> bool:
    if cue not in _QUALITY_CUES and cue not in _QUALITY_OBJECT_CUES:
        return False
    rest = [w for w in content if w != cue and w not in _QUALITY_CUES]
    ranking = cue in _RANKING_CUES
    if not rest or not (ranking or any(w in _EVALUATIVE for w in rest)):
        return False
    if all(w in _EVALUATIVE or w in _GENERIC_CODE for w in rest):
        return cue in _QUALITY_CUES
    return bool(clause) and _quality_then_artefact(rest, clause)


def _unspaced_only_qualities(clause: str, cue: str) -> bool:
    if cue in _OBLIGATIONS and cue in clause:
        rest = clause[clause.index(cue) + len(cue) :]  # "做事要认真": only a quality follows
    elif _UNSPACED_QUALITY_CUE.search(clause):
        rest = _UNSPACED_QUALITY_CUE.sub(clause)  # anchored: removes the opening only
    elif cue in clause and cue not in _ADVERB_CUES:
        rest = clause.replace(cue, "", 1)  # "简单优先", "用常见的库和方法"
    else:
        return False
    rest = _UNSPACED_EVALUATIVE.sub(_UNSPACED_GENERIC_CODE.sub(_UNSPACED_GENERIC.sub(rest)))
    return len(CJK_RE.findall(rest)) < 2 and not _LATIN_OR_CODE_RE.search(rest)


def object_follows(raw: str, clause: str, cue: str) -> bool:
    """ "Before committing, run:": a concrete verb that ends the line on a colon takes the
    list on the following lines as its object, so it is not vague for lacking one."""
    tail = raw.rstrip(" *_")
    if not tail.endswith((":", "：")) or cue in _VAGUE_VERB or cue not in _IMPERATIVE:
        return False
    content = [w for w in words(clause) if w not in _STOP and w not in _SKIP_LEAD]
    return content[-1:] == [cue]


def is_vague(clause: str, cue: str) -> bool:
    """True when a direction clause names no concrete action (a value or a vague verb)."""
    if _hedged(clause):
        return True
    if _VAGUE_OPENING.search(clause) and not _SEQUENCE.search(clause):
        return True  # "先做好设计再构建代码框架": a sequence of steps is not vague
    if CJK_RE.search(clause):
        return _unspaced_only_qualities(clause, cue)
    content = [w for w in words(clause) if w not in _STOP and w not in _SKIP_LEAD]
    if " " not in cue and cue not in content:
        # A labelled value ("Components: PascalCase") carries its verb in the label.
        content = [cue, *content]
    concrete = [w for w in content if w in _IMPERATIVE and w not in _VAGUE_VERB]
    if cue in _VAGUE_VERB and not concrete:
        return True
    if _JUDGEMENT.search(clause):
        return True
    if _only_qualities(content, cue, clause):
        return True
    if _VAGUE_PHRASE.search(clause) and len(concrete) <= 1 and len(content) <= 4:
        return True
    return len(content) < 2
