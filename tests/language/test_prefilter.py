"""Literal prefilters never change which marker a lexicon returns.

Every table the lexicon judges with is checked against the plain definition (the
first pattern, in list order, that ``re.search`` matches) on random English/Chinese
text built to hit the patterns' own words; the literal analysis and the one-pass
literal scanner are checked against brute force.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.language import lexicon, markers
from shared.language.prefilter import (
    LiteralScanner,
    MarkerTable,
    _SharedScan,
    analyse,
    any_branch,
    guarded,
    top_level_branches,
)
from shared.language.text import normalise

ROOT = Path(__file__).resolve().parents[2]
_BUILT = markers._tables()
_SCANNED = (
    _BUILT.corrections,
    _BUILT.instructions,
    _BUILT.preferences,
    _BUILT.approvals,
    _BUILT.wanted,
    _BUILT.one_off,
)
TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "corrections": lexicon.markers("correction_marker"),
    "instructions": lexicon.markers("instruction_marker"),
    "preferences": lexicon.markers("preference_marker"),
    "approvals": lexicon.markers("approval_marker"),
    "wanted": _BUILT.wanted.patterns,
    "one-off": _BUILT.one_off.patterns,
}

# Words the patterns are made of (their literals, whole and cut), so random text
# often matches a pattern, nearly matches one, or matches several.
_VOCAB = sorted(
    {lit for t in _SCANNED for lit in t.all_literals()}
    | {lit[: len(lit) // 2] for t in _SCANNED for lit in t.all_literals()}
    | {"you", "again", "i", "it", "no", "not", "by", "that", "what", "me", "the"}
)
_PIECES = st.one_of(
    st.sampled_from(_VOCAB),
    st.sampled_from(_VOCAB).map(str.upper),
    st.text(alphabet=" ,.;:!?'’-—\n\t，。！？：；是吗了的你我不要别又ｎｏＡ１", max_size=3),
    st.text(max_size=3),
)
TEXT = st.lists(_PIECES, max_size=12).map("".join) | st.lists(_PIECES, max_size=12).map(" ".join)


def _plain_first(patterns: tuple[tuple[str, str], ...], norm: str) -> str | None:
    return next((label for label, pattern in patterns if re.search(pattern, norm)), None)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_every_table_returns_the_first_matching_label(text: str) -> None:
    norm = normalise(text)
    present = _BUILT.scanner.present(norm)
    for name, table in zip(TABLES, _SCANNED, strict=True):
        assert table.first(norm, present) == _plain_first(TABLES[name], norm), name


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_detectors_equal_their_plain_definitions(text: str) -> None:
    norm = normalise(text)
    assert markers.correction_marker(text) == _plain_first(TABLES["corrections"], norm)
    assert markers.instruction_marker(text) == _plain_first(TABLES["instructions"], norm)
    assert markers.preference_marker(text) == _plain_first(TABLES["preferences"], norm)
    # an approval opens the reply: only its opening words are read
    opening = normalise(markers.opening(text))
    assert markers.approval_marker(text) == _plain_first(TABLES["approvals"], opening)
    assert markers.markers(text) == (
        markers.correction_marker(text),
        markers.instruction_marker(text),
        markers.preference_marker(text),
    )


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_pattern_candidates_include_every_matching_pattern(text: str) -> None:
    norm = normalise(text)
    present = _BUILT.scanner.present(norm)
    for table in _SCANNED:
        matching = [i for i, rx in enumerate(table.regexes) if rx.search(norm)]
        assert set(matching) <= set(table.candidates(present))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="abcab的了", min_size=0, max_size=4), min_size=1, max_size=12),
    st.text(alphabet="abcab的了 x", max_size=30),
)
def test_scanner_finds_exactly_the_literals_that_occur(literals: list[str], text: str) -> None:
    # Literals that are prefixes of one another, overlap or repeat are the hard cases.
    scanner = LiteralScanner(literals)
    assert scanner.present(text) == {lit for lit in literals if lit in text}


TRICKY = [
    r"\bthat'?s (?:wrong|not right)\b",
    r"^\s*no\b\s*[,.!]",
    r"(?<!是)不是(?!吗)",
    r"a(?:b|c)?d",
    r"x{2,3}y",
    r"(?:ab)+c",
    r"a*b",
    r"[abc]d|e",
    r"[^x]yz",
    r"(?=ab)a",
    r"(?>ab|a)c",
    r"a*+a",
    r"(ab)\1",
    r"a.b",
    r"(?i)ab",
    r"ab|",
    r"别再|别",
    r"(?:abc|abd|abe)f",
    r"a(?:bc){0,2}d",
]


@pytest.mark.parametrize("pattern", TRICKY)
@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="abcdefxyz是不吗别再 ,.!", max_size=14))
def test_literals_are_necessary_and_decisive_when_claimed(pattern: str, text: str) -> None:
    need, decisive = analyse(pattern)
    matched = re.search(pattern, text) is not None
    if need is not None and matched:
        assert any(lit in text for lit in need)
    if decisive:
        assert need is not None
        assert matched == any(lit in text for lit in need)


def test_analysis_of_known_patterns() -> None:
    assert analyse(r"\b(?:wrong|incorrect)\b") == (frozenset({"wrong", "incorrect"}), False)
    assert analyse(r"错了|搞错") == (frozenset({"错了", "搞错"}), True)
    assert analyse(r"\bi (?:said|told you)\b")[0] == frozenset({"i said", "i told you"})
    # Case-insensitive, unbounded or empty-admitting patterns give no literal to filter on.
    assert analyse(r"(?i)wrong") == (None, False)
    assert analyse(r".*") == (None, False)
    assert analyse(r"ab|") == (None, False)
    # Assertions do not consume text, so they join the literal around them.
    assert analyse(r"(?<!是)不是(?!吗)") == (frozenset({"不是"}), False)


def test_table_without_literals_still_runs_its_regex() -> None:
    table = MarkerTable((("any", r"\w+\d"), ("lit", "abc")))
    scanner = LiteralScanner(table.all_literals())
    for text in ("x1", "abc", "abc9", "", "zz"):
        assert table.first(text, scanner.present(text)) == _plain_first(table.patterns, text)


def test_scanner_handles_long_and_deeply_nested_literal_sets() -> None:
    # A long literal, and a thousand literals each a prefix of the next (which a
    # trie-shaped regex could not even compile), are found like any others.
    long = LiteralScanner(["x" * 5000, "y"])
    assert long.present("x" * 5000 + "y") == {"x" * 5000, "y"}
    nested = ["a" * k for k in range(1, 1000)]
    scanner = LiteralScanner(nested)
    assert scanner.present("baaab") == {"a", "aa", "aaa"}


_GUARDED = [
    re.compile(lexicon.source(name))
    for name in ("internal_state", "memory_artefact", "run_state", "changelog", "external")
] + [re.compile(pattern) for table in TABLES.values() for _label, pattern in table]
_GUARDED_SEARCH = [(rx, guarded(rx)) for rx in _GUARDED]


@settings(max_examples=300, deadline=None)
@given(TEXT | st.sampled_from(["the kernel lock is held", "memory board", "本轮完成", "user"]))
def test_a_guarded_search_finds_what_the_exact_pattern_finds(text: str) -> None:
    norm = normalise(text)
    for rx, search in _GUARDED_SEARCH:
        plain, fast = rx.search(norm), search(norm)
        assert (plain and plain.span()) == (fast and fast.span()), rx.pattern[:60]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="abcab的了", min_size=0, max_size=4), min_size=1, max_size=12),
    st.text(alphabet="abcab的了 x", max_size=30),
)
def test_occurs_says_whether_any_literal_occurs(literals: list[str], text: str) -> None:
    assert LiteralScanner(literals).occurs(text) == any(lit in text for lit in literals)


def test_top_level_branches_split_only_outside_groups_classes_and_escapes() -> None:
    assert top_level_branches(r"a|b(c|d)|[|]|\||[]|x]") == ["a", "b(c|d)", "[|]", r"\|", "[]|x]"]
    assert top_level_branches(r"(?i:a|b)|c") == ["(?i:a|b)", "c"]
    assert top_level_branches(r"[^]|]y|z") == ["[^]|]y", "z"]
    assert top_level_branches("ab|") == ["ab", ""]
    # a global flag would not reach the parts it was split from
    assert top_level_branches(r"(?i)a|b") is None


@pytest.mark.parametrize("pattern", [*TRICKY, r"\bab\b|(?<!x)cd|[ef]+g|别再|是(?!吗)"])
@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="abcdefgxyz是不吗别再 ,.!", max_size=14))
def test_any_branch_matches_exactly_where_the_whole_alternation_does(
    pattern: str, text: str
) -> None:
    found = any_branch([pattern], fewest=1)
    if found is None:  # a global flag or a back-reference: the caller keeps one regex
        assert top_level_branches(pattern) is None or re.search(r"\\[1-9]", pattern)
        return
    assert found(text) == (re.search(pattern, text) is not None)


def test_branch_sets_pooled_into_one_scan_answer_as_their_own_scans() -> None:
    # Sets asked past JOIN_AFTER read their literals from the shared scan; sets built
    # later wait and are pooled at the next rebuild; every answer stays the regex's.
    patterns = [
        r"\bab\b|(?<!x)cd|[ef]+g",
        r"别再|是(?!吗)|xyz",
        r"ab|cd|ef|gh",
        r"(?:abc|abd)f|不是",
    ]
    texts = ["ab cd", "xcd", "effg", "别再", "是吗", "是", "xyz", "abdf", "不是吗", "", "gh", "zz"]
    early = [any_branch([p], fewest=1) for p in patterns[:2]]
    for round_ in range(3 * _SharedScan.JOIN_AFTER):
        if round_ == _SharedScan.JOIN_AFTER + 1:
            early += [any_branch([p], fewest=1) for p in patterns[2:]]
        for found, pattern in zip(early, patterns, strict=False):
            assert found is not None
            for text in texts:
                assert found(text) == (re.search(pattern, text) is not None), (pattern, text)
    # every set ended up pooled (its own scan no longer asked)
    members: list[Any] = [cast(Any, f).__self__ for f in early]
    assert all(m._present != m._own_present for m in members)


def _concepts() -> list[str]:
    return sorted({name for lang in lexicon.LANGUAGES for name in lang.concepts})


_LINES = [
    json.loads(line)["text"]
    for line in (ROOT / "tests/corpora/gates/lines.jsonl").read_text("utf-8").splitlines()
    if '"split": "tune"' in line
]


@pytest.mark.slow  # every concept against every tune line of the gates corpus
@pytest.mark.parametrize("prefilter", [False, True])
def test_every_concept_is_found_exactly_where_one_of_its_regexes_matches(
    prefilter: bool,
) -> None:
    # Real memory lines of both languages, lower-cased as the gates read them and raw;
    # found() must agree with searching each language's own regex, line by line.
    texts = [*_LINES, *(t.lower() for t in _LINES)]
    checked = 0
    for concept in _concepts():
        try:
            m = lexicon.matcher(concept, prefilter=prefilter)
        except (KeyError, TypeError):
            continue
        regexes = [lang.regex(concept) for lang in lexicon.LANGUAGES]
        plain = [rx for rx in regexes if rx is not None]
        for text in texts:
            assert m.found(text) == any(rx.search(text) for rx in plain), (concept, text)
        checked += 1
    assert checked > 100


def test_a_lone_surrogate_is_scanned_and_loses_no_literal() -> None:
    # Spine JSON may carry a lone surrogate (JSON.stringify writes one); the automaton
    # takes valid UTF-8 only.
    scanner = LiteralScanner(["wrong", "told you", "先"])
    text = "No, that is wrong \udc00 — I told you: 先"
    assert scanner.present(text) == {"wrong", "told you", "先"}
    assert scanner.occurs("\ud83d only") is False
    assert markers.correction_marker("No, that is wrong \udc00 — I told you") is not None
