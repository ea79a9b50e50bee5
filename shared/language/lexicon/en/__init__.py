"""English: one module of phrases per area of the rules, merged into one language."""

from __future__ import annotations

from shared.language.lexicon.concept import Language, merged
from shared.language.lexicon.en import claims, domain, gates

LANGUAGE = Language(
    code="en", spaced=True, concepts=merged(claims.CONCEPTS, domain.CONCEPTS, gates.CONCEPTS)
)
