"""The lexicon: one module of data per language, read by rules that name none.

A rule asks for a concept (``matcher("negation")``, ``words("imperative")``) and gets it
across every registered language; ``spaced=True``/``False`` narrows to the languages
that do or do not separate words by spaces, for rules whose shape depends on that
(word lists versus character counts), never on a language's name. Adding a language
means adding one package beside ``en/`` and ``zh/`` and listing it in ``LANGUAGES``.
"""

from __future__ import annotations

import functools
import re

from shared.language.lexicon import en, zh
from shared.language.lexicon.concept import Language, Marker, Pattern
from shared.language.lexicon.matcher import Matcher

# Registry order is search order: the first language whose pattern matches answers.
LANGUAGES: tuple[Language, ...] = (en.LANGUAGE, zh.LANGUAGE)

__all__ = [
    "LANGUAGES",
    "Language",
    "Marker",
    "Matcher",
    "Pattern",
    "chars",
    "charset",
    "language_of",
    "markers",
    "matcher",
    "names",
    "phrases",
    "source",
    "words",
]


def _languages(spaced: bool | None) -> list[Language]:
    return [lang for lang in LANGUAGES if spaced is None or lang.spaced is spaced]


def language_of(text: str) -> Language:
    """The registered language whose script ``text`` holds, else the first language
    without a script of its own (the default)."""
    for lang in LANGUAGES:
        if lang.script is not None and lang.script.search(text):
            return lang
    return next(lang for lang in LANGUAGES if lang.script is None)


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


@functools.cache
def chars(*concepts: str, spaced: bool | None = None) -> str:
    """The marks of ``concepts`` (phrases of one character: ``punct:colon`` is ":" in one
    language, "\uff1a" in another) over the registered languages, each once: for a
    character test (``in``, ``rstrip``) of a mark in whatever language it is written.
    ``spaced=False`` keeps the marks of the languages that write no spaces (a full stop
    that ends a sentence with nothing after it)."""
    found: dict[str, None] = {}
    for concept in concepts:
        marks = phrases(concept, spaced=spaced)
        if not marks:
            raise KeyError(f"no registered language has the marks {concept!r}")
        for mark in marks:
            if len(mark) != 1:
                raise TypeError(f"{concept}: {mark!r} is not one character")
            found[mark] = None
    return "".join(found)


@functools.cache
def charset(*concepts: str, spaced: bool | None = None) -> str:
    """:func:`chars` escaped for the inside of a regex character class (``[...]``)."""
    return "".join(re.escape(mark) for mark in chars(*concepts, spaced=spaced))


@functools.cache
def phrases(concept: str, *, spaced: bool | None = None) -> tuple[str, ...]:
    """``concept``'s phrases in registry, then written, order (for rules that try them
    in turn); patterns and markers are left out."""
    return tuple(
        e
        for lang in _languages(spaced)
        for e in lang.concepts.get(concept, ())
        if isinstance(e, str)
    )


@functools.cache
def markers(concept: str) -> tuple[tuple[str, str], ...]:
    """``concept``'s (label, regex) markers over the registered languages: by rank, then
    registry order, then as written (an ordered marker table)."""
    found = [
        (e.rank, order, e.label, e.regex)
        for order, e in enumerate(e for lang in LANGUAGES for e in lang.concepts.get(concept, ()))
        if isinstance(e, Marker)
    ]
    if not found:
        raise KeyError(f"no registered language has markers for {concept!r}")
    return tuple((label, regex) for _, _, label, regex in sorted(found))


@functools.cache
def names(prefix: str) -> tuple[str, ...]:
    """The concepts whose name starts with ``prefix`` ("term:" ...), over the registered
    languages in registry, then written, order: a family of concepts a rule iterates."""
    found = (name for lang in LANGUAGES for name in lang.concepts if name.startswith(prefix))
    return tuple(dict.fromkeys(found))
