"""Chinese: one module of phrases per area of the rules, merged into one language."""

from __future__ import annotations

from shared.language.lexicon.concept import Language, merged
from shared.language.lexicon.zh import claims, events, gates, terms, tokens

LANGUAGE = Language(
    code="zh",
    spaced=False,
    concepts=merged(
        claims.CONCEPTS, gates.CONCEPTS, events.CONCEPTS, terms.CONCEPTS, tokens.CONCEPTS
    ),
)
