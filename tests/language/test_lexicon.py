"""The lexicon: per-language phrase data, compiled at first use, searched in registry order."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shared.language import lexicon
from shared.language.lexicon.concept import Language, Pattern, merged, phrases
from shared.language.lexicon.matcher import Matcher
from shared.language.lexicon.script import CJK_RE

_SPACED = Language(
    code="xx",
    spaced=True,
    concepts={"greeting": ("good day", "hi"), "farewell": (Pattern(r"bye\w*", "bye, byebye"),)},
)
_UNSPACED = Language(code="yy", spaced=False, concepts={"greeting": ("你好",)})


def test_phrases_match_at_word_boundaries_only_in_a_spaced_language() -> None:
    assert _SPACED.regex("greeting").search("oh hi there")  # type: ignore[union-attr]
    assert not _SPACED.regex("greeting").search("this")  # type: ignore[union-attr]
    assert Matcher("greeting", [_UNSPACED]).search("说你好吗")


def test_the_first_registered_language_that_matches_answers() -> None:
    both = Matcher("greeting", [_SPACED, _UNSPACED])
    # the unspaced phrase comes first in the text, but the spaced language is asked first
    match = both.search("你好 and hi")
    assert match is not None and match.group(0) == "hi"
    reverse = Matcher("greeting", [_UNSPACED, _SPACED]).search("你好 and hi")
    assert reverse is not None and reverse.group(0) == "你好"


def test_removal_leaves_each_languages_joiner() -> None:
    both = Matcher("greeting", [_SPACED, _UNSPACED])
    # "hi" glued to CJK has no word boundary (CJK is \w), so only 你好 goes, joining
    assert both.sub("hi你好there") == "hithere"
    assert both.sub("say hi,你好吗") == "say  ,吗"
    assert both.sub("say hi", repl="_") == "say _"


def test_a_language_without_the_concept_is_skipped_and_none_raises() -> None:
    assert Matcher("farewell", [_UNSPACED, _SPACED]).search("byebye") is not None
    with pytest.raises(KeyError):
        Matcher("farewell", [_UNSPACED])


def test_word_sets_refuse_patterns_and_duplicate_concepts_refuse_to_merge() -> None:
    assert _SPACED.words("greeting") == {"good day", "hi"}
    with pytest.raises(TypeError):
        _SPACED.words("farewell")
    with pytest.raises(ValueError, match="greeting"):
        merged({"greeting": ("a",)}, {"greeting": ("b",)})
    assert phrases("""a b|
        c""") == ("a b", "c")


def test_every_registered_concept_compiles_and_every_pattern_says_why() -> None:
    for lang in lexicon.LANGUAGES:
        for name, entries in lang.concepts.items():
            assert lang.regex(name) is not None, (lang.code, name)
            for entry in entries:
                assert not isinstance(entry, Pattern) or entry.why.strip(), (lang.code, name)


def test_prefiltered_search_finds_what_the_exact_pattern_finds() -> None:
    plain, fast = lexicon.matcher("external"), lexicon.matcher("external", prefilter=True)
    for text in ("the user asked", "users", "superuser", "reuser of", "用户说", "nothing here"):
        a, b = plain.search(text), fast.search(text)
        assert (a and a.span()) == (b and b.span()), text


def test_the_cjk_range_covers_extension_a_and_compatibility_ideographs() -> None:
    for char in ("㐀", "䶵", "中", "鿿", "豈", "﫿"):
        assert CJK_RE.fullmatch(char), hex(ord(char))
    assert not CJK_RE.search("abc、。")


def test_importing_the_rules_compiles_no_lexicon_regex() -> None:
    code = (
        "import shared.review.gates.registry, shared.language.lexicon as l;"
        "print(sum(len(x._compiled) for x in l.LANGUAGES))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_a_text_is_in_the_language_whose_script_it_holds() -> None:
    assert lexicon.language_of("部署前先跑测试").code == "zh"
    assert lexicon.language_of("run the tests before deploying").code == "en"
    assert lexicon.language_of("").code == "en"  # the default: the language without a script
    assert lexicon.language_of("deploy 之前").code == "zh"


def test_every_language_words_a_composed_line_with_both_parts() -> None:
    for lang in lexicon.LANGUAGES:
        shaped = lang.line_shape.format(trigger="<T>", direction="<D>")
        assert shaped.index("<T>") < shaped.index("<D>"), lang.code


def test_composed_lines_follow_the_language_of_the_line_they_replace() -> None:
    from shared.weaver.update.line_judge import compose_line

    assert compose_line("部署", "先跑测试", "m", "- 旧的") == "- 当部署时，先跑测试 [[m]]"
    assert compose_line("deploying", "run the tests", None, "  - old") == (
        "  - When deploying, run the tests"
    )
    # A trigger in another language than the line keeps the default wording.
    assert compose_line("deploying", "先跑测试", None, "- 旧的") == "- When deploying, 先跑测试"
    assert compose_line("", "先跑测试", None, "- 旧的") == "- 先跑测试"
