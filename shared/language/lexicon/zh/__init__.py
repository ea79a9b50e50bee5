"""Chinese: one module of phrases per area of the rules, merged into one language."""

from __future__ import annotations

from shared.language.lexicon.concept import Language, merged
from shared.language.lexicon.zh import claims, gates

LANGUAGE = Language(code="zh", spaced=False, concepts=merged(claims.CONCEPTS, gates.CONCEPTS))
