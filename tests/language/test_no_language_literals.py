"""No gate or claim rule names a language's words or marks in its code.

The rule: a string literal in ``shared/review/gates`` or ``shared/language/claims`` (a
regex source, an f-string's text, a ``\\uXXXX`` escape in one) holds no character of a
language's own script: CJK ideographs, kana, hangul, CJK punctuation and full-width
forms. Such a literal is a concept of the lexicon (``shared/language/lexicon/<code>/``),
asked for by name (``lexicon.matcher``, ``lexicon.source``, ``lexicon.chars``, the marks
of ``shared.language.punct``). Docstrings and comments are documentation: the examples
a rule decides stay beside it in any language. The script ranges of
``shared.language.lexicon.script`` (``CJK``) name a script, not a language's words, and
are used by name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

from shared.language import lexicon

ROOT = Path(__file__).resolve().parents[2]
RULE_CODE = (
    *sorted((ROOT / "shared" / "review" / "gates").glob("*.py")),
    *sorted((ROOT / "shared" / "language" / "claims").glob("*.py")),
    ROOT / "shared" / "language" / "punct.py",
)
_SCRIPT = (
    "\u3000-\u303f"  # CJK symbols and punctuation
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\uff00-\uffef"  # half- and full-width forms
)
_SCRIPT_RE = re.compile(f"[{_SCRIPT}]")
_ESCAPE_RE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})")


def _language_characters(text: str) -> list[str]:
    found = _SCRIPT_RE.findall(text)
    for match in _ESCAPE_RE.finditer(text):
        char = chr(int(match.group(1) or match.group(2), 16))
        if _SCRIPT_RE.match(char):
            found.append(match.group(0))
    return found


def language_literals(source: str) -> list[tuple[int, str]]:
    """(line, literal) of every string literal of ``source`` outside its docstrings (a
    string standing alone as a statement) that holds a language's script."""
    tree = ast.parse(source)
    docs = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and _language_characters(node.value)
    ]


def _offences(scan: Callable[[str], list[tuple[int, str]]]) -> list[str]:
    """``path:line: what`` of every finding of ``scan`` over the rule code."""
    return [
        f"{path.relative_to(ROOT)}:{line}: {what[:60]!r}"
        for path in RULE_CODE
        for line, what in scan(path.read_text(encoding="utf-8"))
    ]


def test_rule_code_names_no_language_literal() -> None:
    found = _offences(language_literals)
    assert not found, "move these literals into the lexicon as concepts:\n" + "\n".join(found)


def test_the_scan_keeps_documentation_and_finds_code() -> None:
    documented = '''
"""A module docstring: "保持代码简洁" is vague."""
# a comment: "禁止：…"
def rule(text: str) -> bool:
    """ "不要过度设计": a docstring example."""
    return "(" in text
'''
    assert language_literals(documented) == []
    for code in (
        'WORD = "的"',
        'COLON_RE = re.compile(r"[:\uff1a]")',
        'LABEL = f"^{x}\u3001"',
        'RANGE_RE = re.compile(r"[\\u4e00-\\u9fff]{2,6}")',
        "def f(text):\n    return text.endswith(('\uff09',))",
    ):
        assert language_literals(code), code


# The names a rule may spell in its code because they are names, not a language's words:
# file names and extensions, the memory files' stems, and the kernel format's modal tags
# (``docs/formats.md``). An alternation of any other words is a sentence shape
# of one language and lives in the lexicon.
def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


FORMAT_NAMES = _names(
    """py pyi js jsx mjs ts tsx rb go rs java kt swift cc cpp hpp cs php mq4 mq5 groovy
    scala vue svelte sh sql lua dart ex exs md mdc json jsonl txt yml yaml toml claude
    agents memory gemini lessons learnings soul identity scratchpad activecontext
    productcontext techcontext systempatterns projectbrief progress agent copilot cursor
    codex notes project user cursorrules windsurfrules clinerules observation inference
    instruction conditional hypothesis superseded"""
)
_ALTERNATION_RE = re.compile(r"\(\?:((?:[A-Za-z-]+\|)+[A-Za-z-]+)\)")


def word_alternations(source: str) -> list[tuple[int, str]]:
    """(line, words) of every regex alternation of two or more words in a string literal
    of ``source`` (docstrings aside) that are not format names."""
    tree = ast.parse(source)
    docs = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if id(node) in docs:
            continue
        for match in _ALTERNATION_RE.finditer(node.value):
            words = [w.lower() for w in match.group(1).split("|") if len(w) >= 3]
            if len(words) >= 2 and any(w not in FORMAT_NAMES for w in words):
                found.append((node.lineno, match.group(0)))
    # A set or tuple of two or more lower-case words ({"when", "if", "until"}) is a word
    # list of one language too (names of gates and files aside).
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Set, ast.Tuple, ast.List)):
            continue
        items = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        words = [w for w in items if isinstance(w, str) and _WORD_RE.fullmatch(w)]
        if (
            len(words) >= 2
            and len(words) == len(node.elts)
            and any(w not in FORMAT_NAMES and w not in IDENTIFIERS for w in words)
        ):
            found.append((node.lineno, ", ".join(words)))
    return found


_WORD_RE = re.compile(r"[a-z]+")
# Names the code uses as identifiers: gates, language codes, and the lexicon's concepts
# (a rule record lists the concepts it reads by name).
IDENTIFIERS = frozenset(
    {"secret", "dossier", "gradient", "summoning"}
    | {lang.code for lang in lexicon.LANGUAGES}
    | {name for lang in lexicon.LANGUAGES for name in lang.concepts}
)


def test_rule_code_spells_no_sentence_shape_of_a_language() -> None:
    found = _offences(word_alternations)
    assert not found, "move these word lists into the lexicon as concepts:\n" + "\n".join(found)


def test_the_word_scan_finds_a_shape_and_passes_names() -> None:
    shape = 'X = re.compile(r"\\b(?:using|with|via)\\s+(?P<means>.+)$")\n'
    names = 'Y = re.compile(r"\\.(?:md|json|yaml)\\b")\n'
    assert word_alternations(shape) == [(1, "(?:using|with|via)")]
    assert word_alternations(names) == []
    assert word_alternations('W = frozenset({"when", "if", "until"})\n') == [(1, "when, if, until")]
    assert word_alternations('G = ("secret", "dossier")\n') == []
