"""One concept's regexes across the registered languages, used like one regex.

Languages are tried in registry order and the first that matches answers, exactly as
``first.search(text) or second.search(text)`` did when each rule named its languages.
Nothing is compiled until the first call; then ``search``/``match``/``fullmatch`` are
rebound to the compiled regex's own methods (one language) or a short loop (several).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from shared.language.lexicon.concept import Language
from shared.language.prefilter import any_branch, guarded

Find = Callable[[str], "re.Match[str] | None"]


def _first(finds: Sequence[Find]) -> Find:
    if len(finds) == 1:
        return finds[0]  # one language: the bound regex method itself, no wrapper

    def find(text: str) -> re.Match[str] | None:
        for one in finds:
            match = one(text)
            if match is not None:
                return match
        return None

    return find


class Matcher:
    """``search``/``match``/``fullmatch``/``finditer``/``split``/``sub`` over every
    language that has the concept; ``sub`` leaves each language's joiner (or ``repl``);
    ``found`` answers only whether any language matches, in one pass (a prefiltered
    matcher's alternatives each filtered on their own literals, :func:`any_branch`).

    ``prefilter`` guards ``search`` and ``found`` with the literals every match contains
    (:func:`shared.language.prefilter.guarded`): worth it for long phrase lists searched
    over whole lines, where most lines hold none of them. ``neutral`` is a
    shape that reads the same in every language ("100%", a date): ``found`` answers it too.
    """

    __slots__ = (
        "_languages",
        "_neutral",
        "_prefilter",
        "_regexes",
        "concept",
        "finditer",
        "found",
        "fullmatch",
        "match",
        "search",
    )

    def __init__(
        self,
        concept: str,
        languages: Sequence[Language],
        prefilter: bool = False,
        neutral: str = "",
    ) -> None:
        self.concept = concept
        self._neutral = neutral
        self._languages = tuple(lang for lang in languages if concept in lang.concepts)
        if not self._languages:
            raise KeyError(f"no registered language has the concept {concept!r}")
        self._prefilter = prefilter
        self._regexes: list[tuple[re.Pattern[str], str]] = []
        # whether any language (or the ``neutral`` shape) matches, in one pass of one
        # alternation over them all (where their group names allow it); rebound at the
        # first call, like ``search``
        self.found: Callable[[str], bool] = self._first_found
        self.search: Find = self._first_use("search")
        self.match: Find = self._first_use("match")
        self.fullmatch: Find = self._first_use("fullmatch")
        # every language's matches in turn; one language's own ``finditer`` once compiled
        self.finditer: Callable[[str], Iterator[re.Match[str]]] = self._finditer

    def _first_use(self, name: str) -> Find:
        def find(text: str) -> re.Match[str] | None:
            self._compile()
            found: Find = getattr(self, name)
            return found(text)

        return find

    def _compile(self) -> list[tuple[re.Pattern[str], str]]:
        if not self._regexes:
            for lang in self._languages:
                rx = lang.regex(self.concept)
                assert rx is not None  # _languages holds only languages with the concept
                self._regexes.append((rx, lang.joiner))
            rxs = [rx for rx, _ in self._regexes]
            searches = [guarded(rx) if self._prefilter else rx.search for rx in rxs]
            self.search = _first(searches)
            self.match = _first([rx.match for rx in rxs])
            self.fullmatch = _first([rx.fullmatch for rx in rxs])
            if len(rxs) == 1:
                self.finditer = rxs[0].finditer
        return self._regexes

    def _first_found(self, text: str) -> bool:
        self.found = self._one_pass()
        return self.found(text)

    def _one_pass(self) -> Callable[[str], bool]:
        # the languages' sources, not their compiled regexes: found() may never need them
        sources = [
            src for lang in self._languages if (src := lang.source(self.concept)) is not None
        ]
        # Even one branch is worth filtering on its literals: the gates' branch sets share
        # one scan of each text (shared.language.prefilter), cheaper than one regex pass.
        branches = any_branch([self._neutral, *sources] if self._neutral else sources, 1)
        if branches is not None:
            return branches  # already a bool: called with no wrapper, two dozen times a line
        find = self._joined([rx.pattern for rx, _ in self._compile()])
        return lambda text: find(text) is not None

    def _joined(self, sources: list[str]) -> Find:
        if len(sources) > 1 or self._neutral:
            try:
                joined = re.compile(
                    "|".join([self._neutral, *sources] if self._neutral else sources)
                )
            except re.error:  # a group name repeated across languages: search in turn
                return self.search
            return guarded(joined) if self._prefilter else joined.search
        return self.search

    def _finditer(self, text: str) -> Iterator[re.Match[str]]:
        for rx, _ in self._compile():
            yield from rx.finditer(text)

    def split(self, text: str, maxsplit: int = 0) -> list[str]:
        """``text`` split at the first language's matches (as ``re.split``)."""
        for rx, _ in self._compile():
            if rx.search(text):
                return rx.split(text, maxsplit=maxsplit)
        return [text]

    def sub(self, text: str, repl: str | None = None) -> str:
        for rx, joiner in self._compile():
            text = rx.sub(joiner if repl is None else repl, text)
        return text
