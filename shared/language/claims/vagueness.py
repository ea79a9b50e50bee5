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


def _only_qualities(content: list[str], cue: str) -> bool:
    if cue not in _QUALITY_CUES:
        return False
    rest = [w for w in content if w != cue and w not in _QUALITY_CUES]
    ranking = cue in _RANKING_CUES
    if not rest or not (ranking or any(w in _EVALUATIVE for w in rest)):
        return False
    return all(w in _EVALUATIVE or w in _GENERIC_CODE for w in rest)


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


def is_vague(clause: str, cue: str) -> bool:
    """True when a direction clause names no concrete action (a value or a vague verb)."""
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
    if _only_qualities(content, cue):
        return True
    if _VAGUE_PHRASE.search(clause) and len(concrete) <= 1 and len(content) <= 4:
        return True
    return len(content) < 2
