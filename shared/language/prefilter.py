"""Literal prefilters for ordered regex lexicons.

A marker lexicon is a list of (label, pattern) pairs and a detector returns the first
label, in list order, whose pattern matches anywhere in the text. Running every
pattern over every event was the scanner's main cost, yet most texts match few or
none. So each pattern is analysed once into literals at least one of which occurs in
any text it matches (``r"\\b(?:wrong|incorrect)\\b"`` -> {"wrong", "incorrect"}); one
pass (:class:`LiteralScanner`) finds which literals of every table a text holds,
and only the patterns owning one of them run, in list order (:class:`MarkerTable`).
The literals are derived from the parsed pattern, never written by hand, and the
analysis is conservative: whatever it does not understand yields no literals, and
that pattern always runs. A pattern that is only a finite set of literals without
assertions needs no regex at all. A single pattern searched on its own (a lexicon
concept the review gates ask for) is guarded the same way (:func:`guarded`).
"""

from __future__ import annotations

import importlib
import re
import threading
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import ahocorasick_rs

# The stdlib's own regex parser (``re._parser``; ``sre_parse`` before 3.11). It is
# private, so it is reached dynamically and any surprise falls back to "no literals".
_PARSER: Any
try:
    _PARSER = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - Python < 3.11
    _PARSER = importlib.import_module("sre_parse")

# Bounds on enumeration: literal sets beyond these are cut (a weaker, still valid
# requirement) rather than grown.
_MAX_SET = 32
_MAX_CLASS = 8
_MAX_REPEAT_ENUM = 3
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
_ASSERTS = frozenset({"ASSERT", "ASSERT_NOT"})


class _Unsupported(Exception):
    """The pattern uses something the analysis does not model (e.g. IGNORECASE)."""


@dataclass(frozen=True)
class _Info:
    """What a sub-pattern can match: ``exact`` is the finite set of strings it can
    consume (None when unbounded or too many); ``need`` is a set of literals one of
    which every match contains (None when none is known); ``pure`` is False when a
    zero-width assertion takes part, so ``exact`` alone does not decide a match."""

    exact: frozenset[str] | None
    need: frozenset[str] | None
    pure: bool = True


_EMPTY = frozenset({""})


def _product(a: frozenset[str], b: frozenset[str]) -> frozenset[str] | None:
    if len(a) * len(b) > _MAX_SET:
        return None
    return frozenset(x + y for x in a for y in b)


def _useful(lits: frozenset[str] | None) -> frozenset[str] | None:
    """``lits`` as a requirement: None when it is empty or admits the empty string."""
    return lits if lits and all(lits) else None


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """The more selective of two requirements: longer shortest literal, then fewer."""
    if a is None or b is None:
        return a or b
    key_a, key_b = (min(map(len, a)), -len(a)), (min(map(len, b)), -len(b))
    return a if key_a >= key_b else b


def _requirement(info: _Info) -> frozenset[str] | None:
    return _better(_useful(info.exact), info.need)


def _sequence(items: Any) -> _Info:
    run: frozenset[str] = _EMPTY
    closed = False
    pure = True
    need: frozenset[str] | None = None
    for op, av in items:
        info = _item(str(op), av)
        pure = pure and info.pure
        joined = _product(run, info.exact) if info.exact is not None else None
        if joined is not None:
            run = joined
            continue
        closed = True
        need = _better(need, _useful(run))
        if info.exact is not None:
            run = info.exact
        else:
            need = _better(need, info.need)
            run = _EMPTY
    need = _better(need, _useful(run))
    return _Info(None if closed else run, need, pure)


def _branch(alternatives: Any) -> _Info:
    infos = [_sequence(alt) for alt in alternatives]
    pure = all(i.pure for i in infos)
    exact: frozenset[str] | None = None
    if all(i.exact is not None for i in infos):
        exact = frozenset().union(*(i.exact for i in infos if i.exact is not None))
        if len(exact) > _MAX_SET:
            exact = None
    need: frozenset[str] | None = frozenset()
    for info in infos:
        one = _requirement(info)
        need = None if one is None or need is None else need | one
    return _Info(exact, need or None, pure)


def _repeat(lo: int, hi: int, sub: Any, possessive: bool) -> _Info:
    info = _sequence(sub)
    need = _requirement(info) if lo >= 1 else None
    exact: frozenset[str] | None = None
    if info.exact is not None and hi <= _MAX_REPEAT_ENUM:
        power: frozenset[str] | None = _EMPTY
        options: set[str] = set()
        for count in range(hi + 1):
            if power is None:
                break
            if count >= lo:
                options |= power
            power = _product(power, info.exact) if count < hi else power
        if power is not None and len(options) <= _MAX_SET:
            exact = frozenset(options)
    # A possessive repeat does not give back, so its language over-states the match.
    return _Info(exact, need, info.pure and not possessive)


def _char_class(items: Any) -> _Info:
    chars = []
    for op, av in items:
        if str(op) != "LITERAL":
            return _Info(None, None)
        chars.append(chr(av))
    if len(chars) > _MAX_CLASS:
        return _Info(None, None)
    return _Info(frozenset(chars), None)


def _item(name: str, av: Any) -> _Info:
    if name == "LITERAL":
        return _Info(frozenset({chr(av)}), None)
    if name == "IN":
        return _char_class(av)
    if name == "AT":
        return _Info(_EMPTY, None, pure=False)
    if name in _ASSERTS:
        return _Info(_EMPTY, None, pure=False)
    if name == "SUBPATTERN":
        _group, add_flags, _del_flags, sub = av
        if add_flags & re.IGNORECASE:
            raise _Unsupported("inline IGNORECASE")
        return _sequence(sub)
    if name == "ATOMIC_GROUP":
        inner = _sequence(av)
        return _Info(inner.exact, inner.need, pure=False)
    if name == "BRANCH":
        return _branch(av[1])
    if name in _REPEATS:
        lo, hi, sub = av
        return _repeat(lo, hi, sub, name == "POSSESSIVE_REPEAT")
    # ANY, NOT_LITERAL, CATEGORY, GROUPREF*, ...: consumes something unknown.
    return _Info(None, None, pure=False)


def analyse(pattern: str) -> tuple[frozenset[str] | None, bool]:
    """(literals one of which every match of ``pattern`` contains, or None when no
    such set is known; True when a match is exactly "one of the literals occurs")."""
    try:
        parsed = _PARSER.parse(pattern, 0)
        if parsed.state.flags & re.IGNORECASE:
            raise _Unsupported("IGNORECASE")
        info = _sequence(parsed)
    except (_Unsupported, re.error, AttributeError, TypeError, ValueError):
        return None, False
    need = _requirement(info)
    decisive = info.pure and info.exact is not None and need is not None and need == info.exact
    return need, decisive


class MarkerTable:
    """An ordered lexicon of (label, pattern). :meth:`first` returns the first label
    whose pattern matches, exactly as trying every ``re.search`` in order would, but
    runs only the patterns one of whose literals a :class:`LiteralScanner` found."""

    def __init__(self, patterns: tuple[tuple[str, str], ...]) -> None:
        self.patterns = patterns
        self.literals: list[frozenset[str] | None] = []
        self.regexes = [re.compile(pattern) for _label, pattern in patterns]
        self._decisive: list[bool] = []
        self._by_literal: dict[str, list[int]] = {}
        always: list[int] = []
        for i, (_label, pattern) in enumerate(patterns):
            need, decisive = analyse(pattern)
            need = _minimal(need) if need is not None else None
            self.literals.append(need)
            self._decisive.append(decisive)
            for lit in need or ():
                self._by_literal.setdefault(lit, []).append(i)
            if need is None:
                always.append(i)
        self._always = frozenset(always)
        self._literal_set = frozenset(self._by_literal)

    def all_literals(self) -> frozenset[str]:
        """Every literal the table's patterns are filtered on."""
        return self._literal_set

    def candidates(self, present: frozenset[str]) -> list[int]:
        """Indices, in order, of the patterns that can match a text in which exactly
        the literals ``present`` (:meth:`LiteralScanner.present`) occur."""
        found = set(self._always)
        for lit in self._literal_set.intersection(present):
            found.update(self._by_literal[lit])
        return sorted(found)

    def first(self, norm: str, present: frozenset[str]) -> str | None:
        """The first label whose pattern matches ``norm``; ``present`` holds every
        literal of this table that occurs in ``norm``."""
        if not self._always and self._literal_set.isdisjoint(present):
            return None
        for i in self.candidates(present):
            if self._decisive[i] or self.regexes[i].search(norm):
                return self.patterns[i][0]
        return None


def guarded(exact: re.Pattern[str]) -> Callable[[str], re.Match[str] | None]:
    """``exact.search`` that runs only where one of the literals every match of it
    contains occurs (:func:`analyse`, one :class:`LiteralScanner` search); plain
    ``exact.search`` when the pattern yields no such literals."""
    need, _decisive = analyse(exact.pattern)
    if need is None or exact.flags & re.IGNORECASE:
        return exact.search
    scanner = LiteralScanner(_minimal(need))
    occurs, search = scanner.occurs, exact.search

    def find(text: str) -> re.Match[str] | None:
        return search(text) if occurs(text) else None

    return find


_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


def top_level_branches(pattern: str) -> list[str] | None:
    """``pattern``'s top-level alternatives (``a|b(c|d)|[|]`` -> ``a``, ``b(c|d)``,
    ``[|]``), or None when a global inline flag would not carry over to each part."""
    if _GLOBAL_FLAGS.search(pattern):
        return None
    parts: list[str] = []
    depth = start = i = 0
    in_class = False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += 1
            # "]" right after "[" or "[^" is a literal member, not the class's end
            if pattern.startswith("^", i):
                i += 1
            if pattern.startswith("]", i):
                i += 1
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


# What makes a branch of a valid regex fail to compile alone: a reference to a group
# (by number or name) or a conditional on one, possibly defined in another branch.
_CROSS_BRANCH = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")


def any_branch(patterns: Iterable[str], fewest: int = 2) -> Callable[[str], bool] | None:
    """Whether ``"|".join(patterns)`` matches anywhere in a text, answered by running
    only the top-level alternatives one of whose literals the text holds.

    A large alternation searched whole tries every branch at every position even where
    a literal prefilter lets the text through; whether it matches at all is the same as
    whether any one branch does, so each branch is filtered on its own literals, a
    branch that is only literals needs no regex, and the others are compiled at their
    first use. None when a pattern can not be split, a branch might not compile alone,
    or there are fewer than ``fewest`` branches (one regex is quicker than a scan then).
    """
    branches: list[str] = []
    for pattern in patterns:
        parts = top_level_branches(pattern)
        if parts is None or _CROSS_BRANCH.search(pattern):
            return None
        branches.extend(parts)
    if len(branches) < fewest:
        return None
    return _Branches(branches).found


class _Branches:
    def __init__(self, branches: list[str]) -> None:
        self._sources = branches
        self._regexes: list[re.Pattern[str] | None] = [None] * len(branches)
        self._decisive: list[bool] = []
        self._by_literal: dict[str, list[int]] = {}
        always: list[int] = []
        for i, branch in enumerate(branches):
            need, decisive = analyse(branch)
            self._decisive.append(decisive)
            if need is None:
                always.append(i)
            for lit in _minimal(need) if need is not None else ():
                self._by_literal.setdefault(lit, []).append(i)
        self._always = tuple(always)
        self.literals = frozenset(self._by_literal)
        self._own = LiteralScanner(self._by_literal).present
        self._present: Callable[[str], frozenset[str]] = self._own_present
        self._uses = 0
        _SHARED.wait(self)

    def _own_present(self, text: str) -> frozenset[str]:
        self._uses += 1
        if self._uses == _SharedScan.JOIN_AFTER:
            _SHARED.join()
        return self._own(text)

    def pooled(self, shared: _SharedScan) -> None:
        """From now on the literals present are read from ``shared``'s one scan."""
        literals = self.literals
        present = shared.present

        def pooled_present(text: str) -> frozenset[str]:
            return present(text) & literals

        self._present = pooled_present

    def _search(self, i: int, text: str) -> bool:
        if self._decisive[i]:
            return True
        rx = self._regexes[i]
        if rx is None:
            rx = self._regexes[i] = re.compile(self._sources[i])
        return rx.search(text) is not None

    def found(self, text: str) -> bool:
        if self._always and any(self._search(i, text) for i in self._always):
            return True
        present = self._present(text)
        if not present:
            return False
        seen: set[int] = set()
        for lit in present:
            for i in self._by_literal[lit]:
                if i not in seen:
                    seen.add(i)
                    if self._search(i, text):
                        return True
        return False


class _SharedScan:
    """One scan of a text for the literals of every branch set in use.

    The review gates ask two dozen concepts about the same few texts of each line (the
    claim, its lower-cased form); each set scanning the text on its own was a fifth of a
    review. A set waits from its construction and is pooled once one set has been asked
    ``JOIN_AFTER`` times: the automaton is rebuilt then for every set waiting, so a
    review pays a rebuild or two, not one per concept, and a set built for one text (a
    property test's) is never pooled. A text's literals are kept for the next sets that
    ask, beside the automaton they came from.
    """

    JOIN_AFTER = 8
    _TEXTS = 64

    def __init__(self) -> None:
        self._literals: frozenset[str] = frozenset()
        self._waiting: list[weakref.ref[_Branches]] = []
        self._lock = threading.Lock()
        # (scanner, its texts' literals): replaced whole, so a reader never mixes two
        self._state: tuple[LiteralScanner, dict[str, frozenset[str]]] | None = None

    def wait(self, member: _Branches) -> None:
        with self._lock:
            self._waiting.append(weakref.ref(member))

    def join(self) -> None:
        """Pool every set waiting (the one asking among them) in one rebuild."""
        with self._lock:
            members = [m for ref in self._waiting if (m := ref()) is not None]
            self._waiting = []
            if not members:
                return
            self._literals = self._literals.union(*(m.literals for m in members))
            self._state = (LiteralScanner(self._literals), {})
            for member in members:
                member.pooled(self)

    def present(self, text: str) -> frozenset[str]:
        """Every pooled literal in ``text``."""
        state = self._state
        assert state is not None  # a set is pooled only once a scanner holds it
        scanner, texts = state
        found = texts.get(text)
        if found is None:
            if len(texts) >= self._TEXTS:
                texts.clear()
            found = texts[text] = scanner.present(text)
        return found


_SHARED = _SharedScan()


def _minimal(lits: frozenset[str]) -> frozenset[str]:
    """``lits`` without those containing another: they occur only where it does."""
    return frozenset(s for s in lits if not any(t != s and t in s for t in lits))


class LiteralScanner:
    """Finds, in one pass, which of a fixed set of literals occur in a text.

    The literals are the keywords of an Aho-Corasick automaton (``ahocorasick-rs``, a
    maintained Rust extension, about three times quicker per character than the C one
    we used first): one scan of the text reports every occurrence of every literal,
    overlapping ones and those inside longer ones included, so the result is exactly
    ``{lit for lit in literals if lit in text}``. The review gates ask a dozen such sets
    about every line, and most lines hold none of their literals: a trie-shaped regex
    (tried at every position, then once more after each match) cost several times the
    automaton's scan.
    """

    def __init__(self, literals: Iterable[str]) -> None:
        lits = set(literals)
        # The empty literal occurs in every text; the automaton holds only the others.
        self._always = frozenset(lits & {""})
        words = lits - {""}
        self._automaton = (
            ahocorasick_rs.AhoCorasick(sorted(words), matchkind=ahocorasick_rs.MatchKind.Standard)
            if words
            else None
        )

    def occurs(self, text: str) -> bool:
        """Whether any literal occurs in ``text`` (no set built)."""
        if self._always:
            return True
        automaton = self._automaton
        if automaton is None:
            return False
        try:
            return bool(automaton.find_matches_as_indexes(text))
        except UnicodeEncodeError:  # a lone surrogate: see _valid
            return bool(automaton.find_matches_as_indexes(_valid(text)))

    def present(self, text: str) -> frozenset[str]:
        """Every literal that occurs in ``text``."""
        automaton = self._automaton
        if automaton is None:
            return self._always
        try:
            found = frozenset(automaton.find_matches_as_strings(text, overlapping=True))
        except UnicodeEncodeError:  # a lone surrogate: see _valid
            found = frozenset(automaton.find_matches_as_strings(_valid(text), overlapping=True))
        return found | self._always if self._always else found


_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid(text: str) -> str:
    """``text`` as the Rust extension takes it (valid UTF-8): a lone surrogate, which
    spine JSON may carry (JSON.stringify writes them), becomes U+FFFD. One character for
    one, and no literal holds a surrogate, so every literal is found where it was."""
    return _SURROGATE.sub("\ufffd", text)
