"""A concept is in every registered language, or each language that has it declares it
its own (``Language.alone``, with why the others lack it)."""

from __future__ import annotations

from shared.language import lexicon


def test_every_concept_is_in_every_language_or_declared_alone() -> None:
    missing = []
    for lang in lexicon.LANGUAGES:
        for name in lang.concepts:
            lacking = [o.code for o in lexicon.LANGUAGES if name not in o.concepts]
            if lacking and name not in lang.alone:
                missing.append(f"{lang.code}:{name} (not in {', '.join(lacking)})")
    assert not missing, (
        "add these concepts to the other languages, or declare them in the language's "
        f"alone.py with why the others lack them: {missing}"
    )


def test_a_declaration_names_a_concept_of_its_language_that_another_lacks() -> None:
    stale = []
    for lang in lexicon.LANGUAGES:
        for name, why in lang.alone.items():
            assert why.strip(), (lang.code, name)
            if name not in lang.concepts:
                stale.append(f"{lang.code}:{name} (no such concept)")
            elif all(name in other.concepts for other in lexicon.LANGUAGES):
                stale.append(f"{lang.code}:{name} (every language has it now)")
    assert not stale, stale


def test_the_marks_of_a_concept_are_single_characters_of_every_language() -> None:
    marks = lexicon.names("punct:")
    assert "punct:colon" in marks
    for name in marks:
        assert lexicon.chars(name)  # raises TypeError on a mark of more than one character
    assert lexicon.chars("punct:colon", spaced=True) == ":"
    assert lexicon.chars("punct:colon", spaced=False) == "\uff1a"
    assert lexicon.charset("punct:open", "punct:close") == "\\(\uff08\\)\uff09"
