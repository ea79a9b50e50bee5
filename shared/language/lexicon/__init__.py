"""The lexicon: one module of data per language, read by rules that name none.

A rule asks for a concept (``matcher("negation")``, ``words("imperative")``) and gets it
across every registered language; ``spaced=True``/``False`` narrows to the languages
that do or do not separate words by spaces, for rules whose shape depends on that
(word lists versus character counts), never on a language's name. Adding a language
means adding one module beside ``en.py`` and ``zh.py`` and listing it in ``LANGUAGES``.
"""

from __future__ import annotations

import functools

from shared.language.lexicon import en, zh
from shared.language.lexicon.concept import Language, Pattern
from shared.language.lexicon.matcher import Matcher

# Registry order is search order: the first language whose pattern matches answers.
LANGUAGES: tuple[Language, ...] = (en.LANGUAGE, zh.LANGUAGE)

__all__ = ["LANGUAGES", "Language", "Matcher", "Pattern", "matcher", "source", "words"]


def _languages(spaced: bool | None) -> list[Language]:
    return [lang for lang in LANGUAGES if spaced is None or lang.spaced is spaced]


@functools.cache
def matcher(
    concept: str, *, spaced: bool | None = None, prefilter: bool = False, neutral: str = ""
) -> Matcher:
    """``concept`` across the registered languages (compiled at first use)."""
    return Matcher(concept, _languages(spaced), prefilter, neutral)


@functools.cache
def words(concept: str, *, spaced: bool | None = None) -> frozenset[str]:
    """The union of ``concept``'s words over the registered languages."""
    found: frozenset[str] = frozenset()
    for lang in _languages(spaced):
        if concept in lang.concepts:
            found |= lang.words(concept)
    return found


def source(concept: str, *, spaced: bool | None = None) -> str:
    """``concept``'s regex sources over the registered languages as one alternation, for
    a rule that embeds the concept in a larger shape."""
    found = [s for lang in _languages(spaced) if (s := lang.source(concept)) is not None]
    if not found:
        raise KeyError(f"no registered language has the concept {concept!r}")
    return "|".join(found)
