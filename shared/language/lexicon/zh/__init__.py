"""Chinese: one module of phrases per area of the rules, merged into one language."""

from __future__ import annotations

from shared.language.lexicon.concept import Language, merged
from shared.language.lexicon.script import CJK_RE
from shared.language.lexicon.zh import alone, cadence, claims, events, gates, marks, terms, tokens

LANGUAGE = Language(
    code="zh",
    spaced=False,
    line_shape="当{trigger}时，{direction}",
    script=CJK_RE,
    concepts=merged(
        claims.CONCEPTS,
        gates.CONCEPTS,
        cadence.CONCEPTS,
        events.CONCEPTS,
        terms.CONCEPTS,
        tokens.CONCEPTS,
        marks.CONCEPTS,
    ),
    alone=alone.ALONE,
)
