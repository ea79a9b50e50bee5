"""The word classes most clause rules share, read once from the lexicon.

Stop words, generic nouns, imperative and vague verbs, artefact, evaluative, abstract and
event nouns: every analysis module asks the same questions of them, so they are looked up
here once rather than in each module.
"""

from __future__ import annotations

from shared.language import lexicon

STOP = lexicon.words("stop", spaced=True)
GENERIC = lexicon.words("generic", spaced=True)
IMPERATIVE = lexicon.words("imperative", spaced=True)
VAGUE_VERB = lexicon.words("vague_verb", spaced=True)
# A tool named by its lowercase name is an artefact a direction acts on ("Apply rustfmt").
TOOL = lexicon.words("tool_name", spaced=True)
ARTEFACT = lexicon.words("artefact", spaced=True) | TOOL
EVALUATIVE = lexicon.words("evaluative", spaced=True)
ABSTRACT = lexicon.words("abstract", spaced=True)
EVENT_NOUNS = lexicon.words("event_noun", spaced=True)
