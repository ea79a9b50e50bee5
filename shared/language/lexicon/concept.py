"""The lexicon's data type: per language, a tuple of phrases for each concept.

A language module declares, for each concept it knows ("negation", "trigger",
"imperative" ...), the phrases that say it, in the order a regex should try them. Where a
phrase alone cannot say it (a lookaround that keeps "当前" from reading as "当", an
optional suffix, a sentence shape such as "prefer X over Y"), the entry is a
:class:`Pattern`: a regex piece with the reason it is one. Nothing is compiled at
import: :meth:`Language.regex` builds and caches one regex per concept at first use.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pattern:
    """A regex piece for what a phrase cannot say; ``why`` says what it matches.

    ``bounded`` pieces sit inside the language's word boundaries, in entry order, like a
    phrase; an unbounded one (anchored, or bounded by its own shape) is tried after them.
    """

    regex: str
    why: str
    bounded: bool = True


@dataclass(frozen=True)
class Marker:
    """A labelled pattern of an ordered marker table (:mod:`shared.language.markers`):
    the first marker whose pattern matches names what a text is, by its ``label``.
    ``rank`` places it among every language's markers of the concept (lower first,
    then registry order), where a reader's order interleaves the languages."""

    label: str
    regex: str
    rank: int = 0


Entry = str | Pattern | Marker


def words(text: str) -> tuple[str, ...]:
    """A word list written as lines of prose: the whitespace-separated words."""
    return tuple(text.split())


def phrases(text: str) -> tuple[str, ...]:
    """A phrase list written as lines of prose: the ``|``-separated phrases."""
    return tuple(p.strip() for p in text.split("|"))


def alone(why: str, names: str) -> dict[str, str]:
    """Concepts one language alone has, for one reason ``why``: ``names`` written as
    lines of prose, the whitespace-separated concept names."""
    return dict.fromkeys(names.split(), why)


def _phrase(text: str) -> str:
    # A phrase is literal text; spaces need no escape and stay readable in the source.
    return re.escape(text).replace("\\ ", " ")


@dataclass(frozen=True, eq=False)
class Language:
    """One language's lexicon.

    ``spaced`` languages separate words with spaces: their phrases match at word
    boundaries (``\\b``), rules split them into words, and text a rule removes leaves a
    space behind; unspaced ones (Chinese) match phrases anywhere and removal joins.
    """

    code: str
    spaced: bool
    concepts: Mapping[str, tuple[Entry, ...]]
    # How a board line is worded in this language when the updater composes one from a
    # situation and a direction (``{trigger}``, ``{direction}``).
    line_shape: str = "{trigger}: {direction}"
    # The characters that mark a text as this language's (None: the default language).
    script: re.Pattern[str] | None = None
    # The concepts this language alone has, each with why the others lack it (a grammar,
    # a word form or a mark theirs do not have); every other concept is in every
    # registered language (``tests/language/test_concepts_in_every_language.py``).
    alone: Mapping[str, str] = field(default_factory=dict)
    _compiled: dict[str, re.Pattern[str]] = field(default_factory=dict, repr=False)
    _word_sets: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    @property
    def joiner(self) -> str:
        """What a removed phrase leaves behind."""
        return " " if self.spaced else ""

    def source(self, concept: str) -> str | None:
        """The regex source for ``concept``, or None when this language lacks it."""
        entries = self.concepts.get(concept)
        if entries is None:
            return None
        inner = [_phrase(e) if isinstance(e, str) else e.regex for e in entries if _inside(e)]
        outer = [e.regex for e in entries if isinstance(e, Pattern) and not e.bounded]
        parts = []
        if inner:
            parts.append(rf"\b(?:{'|'.join(inner)})\b" if self.spaced else "|".join(inner))
        return "|".join(parts + outer)

    def regex(self, concept: str) -> re.Pattern[str] | None:
        """``concept`` compiled (once), or None when this language lacks it."""
        compiled = self._compiled.get(concept)
        if compiled is None:
            source = self.source(concept)
            if source is None:
                return None
            compiled = self._compiled[concept] = re.compile(source)
        return compiled

    def words(self, concept: str) -> frozenset[str]:
        """``concept``'s phrases as a set (for whole-word membership tests)."""
        found = self._word_sets.get(concept)
        if found is None:
            entries = self.concepts.get(concept, ())
            if not all(isinstance(e, str) for e in entries):
                raise TypeError(f"{self.code}:{concept} has patterns, not only words")
            found = self._word_sets[concept] = frozenset(e for e in entries if isinstance(e, str))
        return found


def _inside(entry: Entry) -> bool:
    return not isinstance(entry, Pattern) or entry.bounded


def merged(*tables: Mapping[str, tuple[Entry, ...]]) -> dict[str, tuple[Entry, ...]]:
    """One language's concept tables as one; a concept may be defined only once."""
    out: dict[str, tuple[Entry, ...]] = {}
    for table in tables:
        for name, entries in table.items():
            if name in out:
                raise ValueError(f"concept {name!r} is defined twice")
            out[name] = entries
    return out
