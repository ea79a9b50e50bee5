"""The clause split's leading lookahead only turns positions down faster: without it the
same text splits into the same clauses."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.language.claims.claim import _CLAUSE_SPLIT_RE

ROOT = Path(__file__).resolve().parents[2]
# The pattern is "(?=[...])(?:<the split>)": the split alone is what the lookahead guards.
_GUARD, _BODY = _CLAUSE_SPLIT_RE.pattern.split("])(?:", 1)
_PLAIN = re.compile(_BODY[:-1])


def test_the_plain_split_is_the_guarded_body() -> None:
    assert _GUARD.startswith("(?=[") and _BODY.endswith(")")
    assert _CLAUSE_SPLIT_RE.pattern == f"{_GUARD}])(?:{_BODY}"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab. \t-—–>→=,，;；:：。!！?？(（)）中文", max_size=30))
def test_lookahead_keeps_every_split(text: str) -> None:
    assert _CLAUSE_SPLIT_RE.split(text) == _PLAIN.split(text)


def test_corpus_lines_split_alike() -> None:
    corpus = ROOT / "tests" / "corpora" / "gates" / "lines.jsonl"
    for line in corpus.read_text("utf-8").splitlines():
        text = json.loads(line)["text"].lower()
        assert _CLAUSE_SPLIT_RE.split(text) == _PLAIN.split(text), text
