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
from pathlib import Path

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


def test_rule_code_names_no_language_literal() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {literal[:60]!r}"
        for path in RULE_CODE
        for line, literal in language_literals(path.read_text(encoding="utf-8"))
    ]
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
