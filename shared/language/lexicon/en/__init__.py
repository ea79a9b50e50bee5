"""English: one module of phrases per area of the rules, merged into one language."""

from __future__ import annotations

from shared.language.lexicon.concept import Language, merged
from shared.language.lexicon.en import claims, domain, events, gates, terms, tokens

LANGUAGE = Language(
    code="en",
    spaced=True,
    concepts=merged(
        claims.CONCEPTS,
        domain.CONCEPTS,
        gates.CONCEPTS,
        events.CONCEPTS,
        terms.CONCEPTS,
        tokens.CONCEPTS,
    ),
)
