"""The text and judge shortcuts equal the plain definitions they replace.

Each fast path (set tokenising, NFKC, whitespace collapsing, greeting and question
detection, pointer and dossier-read lookups) is compared, on random English/Chinese
text, with the straightforward code it stands for.
"""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.formats.board import parse_board
from shared.language import markers as lexicon
from shared.language.text import (
    _SYNONYMS,
    CJK_RUN_RE,
    normalise,
    one_line,
    strip_pointers,
    token_set,
    token_witnesses,
    tokens,
)
from shared.weaver.scan.matching import (
    READ_TOOLS,
    TOOL_ROWS,
    BoardIndex,
    LineCues,
    PointerScan,
    pointer_forms,
)
from shared.weaver.scan.turns import Turn

_WORDS = [
    "ok", "thanks", "got it", "hi", "it", "no", "deploy", "replies", "don't", "i'd",
    "lesson-a1", "[[lesson-a1]]", "a1.md", "Read", "open", "groove-b", "pattern-long-one",
    "long one", "谢谢", "好的", "你好", "感谢谢谢", "收到", "吗", "什么", "周报数字", "的了",
    "，", "。", "？", "?", "！", "ＡＢＣ", "ｌｅｓｓｏｎ-a1.ｍｄ", "［［groove-b］］", "\u3000",
    "Σ", "ﬁ", "①", "\u0301", "\n", "\t", "\0", "  ",
    "A1.MD", ".Md", "flies", "replied", "Brief", "ｒｅｐｌｙ", "it's", "logs", "价格", "数字",
]  # fmt: skip
TEXT = st.lists(st.one_of(st.sampled_from(_WORDS), st.text(max_size=3)), max_size=10).map(
    " ".join
) | st.lists(st.sampled_from(_WORDS), max_size=10).map("".join)


@settings(max_examples=500, deadline=None)
@given(TEXT)
def test_token_set_is_the_set_of_tokens(text: str) -> None:
    assert token_set(text) == frozenset(tokens(text))


@settings(max_examples=500, deadline=None)
@given(TEXT | st.text())
def test_normalise_applies_nfkc(text: str) -> None:
    folded = unicodedata.normalize("NFKC", text).lower()
    assert normalise(text) == folded.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")


@settings(max_examples=500, deadline=None)
@given(TEXT | st.text(), st.integers(min_value=2, max_value=40))
def test_one_line_and_strip_pointers_collapse_like_the_regex(text: str, limit: int) -> None:
    flat = re.sub(r"\s+", " ", text).strip().replace("\0", "")
    assert one_line(text, limit) == (
        flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
    )
    line = "- " + text + " [[lesson-a1]]" + text
    body = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", line)
    plain = re.sub(r"\s+", " ", re.sub(r"\[\[([^\]\n]+)\]\]", "", body)).strip()
    assert strip_pointers(line) == plain


def _plain_greeting(text: str) -> bool:
    norm = normalise(text)
    zh = norm
    for word in sorted(lexicon._GREETING_ZH, key=len, reverse=True):
        zh = zh.replace(word, " ")
    if CJK_RUN_RE.search(zh):
        return False
    words = re.findall(r"[a-z0-9']+", zh)
    if len(words) > 8:
        return False
    return all(w.replace("'", "") in lexicon._GREETING_WORDS or w == "it" for w in words) and (
        bool(words) or zh != norm
    )


def _plain_question(text: str) -> bool:
    norm = normalise(text).strip()
    return norm.endswith(("?", "？")) or bool(
        lexicon._QUESTION_START_RE.match(norm) or lexicon._ZH_QUESTION_RE.search(norm)
    )


# Runs of greeting words around the eight-word limit.
_GREETINGS = st.lists(
    st.sampled_from(["ok", "thanks", "hi", "it", "yes"]), min_size=6, max_size=11
).map(" ".join) | st.lists(
    st.sampled_from(["ok", "thanks", "谢谢", "好的", "!", ",", "deploy", "吗", "好"]), max_size=12
).map("".join)


@settings(max_examples=500, deadline=None)
@given(TEXT | _GREETINGS)
def test_greeting_and_question_equal_their_plain_definitions(text: str) -> None:
    assert lexicon.is_greeting_or_receipt(text) == _plain_greeting(text)
    assert lexicon.is_question(text) == _plain_question(text)


def _plain_wanted(text: str) -> str | None:
    norm = normalise(text).strip()
    for pattern in lexicon._WANTED_PATTERNS:
        match = re.search(pattern, norm)
        if match:
            clause = re.split(r"[.!。！\n]", match.group(1).strip())[0].strip(" ,，;；")
            if len(tokens(clause)) >= 1 and len(clause) >= 2:
                return clause
    return None


_ASKS = st.lists(
    st.sampled_from(
        ["please", "stop", "don't", "never", "instead,", "you should", "i want", "always",
         "应该是", "而是", "请", "别再", "不要", "this time", "这次", "yet", "for now", ",",
         "。", "!", "x", "reply", "先给数字", "use bullets", " "]
    ),
    max_size=8,
).map(" ".join)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(_ASKS | TEXT)
def test_wanted_and_one_off_equal_their_plain_definitions(text: str) -> None:
    assert lexicon.wanted_behaviour(text) == _plain_wanted(text)
    match = re.search(lexicon._ONE_OFF_PATTERN, normalise(text))
    assert lexicon.one_off_marker(text) == (match.group(0) if match else None)


TOOL_RESULT = "agent.tool_result"
BOARD = parse_board(
    "# Board\n\n"
    "- When asked for a deploy, check the logs [[lesson-a1]] [[topic-x]]\n"
    "- 当用户问价格时，先给数字 [[groove-b]]\n"
    "- Keep replies short [[pattern-long-one]] [[lesson-a1]]\n"
    "- No pointer here\n"
    "- Odd pointers [[Lesson-A1]] [[a1]] [[ ]]\n"
)


def _naive_forms(low: str, pointer: str) -> bool:
    return any(form in low for form in pointer_forms(pointer))


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_mentioned_lines_equal_a_scan_of_every_pointer(text: str) -> None:
    index = BoardIndex(BOARD)
    low = normalise(text)
    expected = {
        i for i, line in enumerate(BOARD.lines) if any(_naive_forms(low, p) for p in line.pointers)
    }
    assert index.mentioned(low) == expected


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([*sorted(TOOL_ROWS), "agent.result"]), TEXT)))
def test_read_lines_equal_a_scan_of_every_row(rows: list[tuple[str, str]]) -> None:
    turn: Turn = {
        "date": "",
        "line": 1,
        "id": "t",
        "ts": "",
        "kind": "feishu",
        "session_key": "s",
        "type": "message",
        "rows": [{"type": kind, "text": text} for kind, text in rows],
    }

    def reads(pointer: str) -> bool:
        name = pointer.lower()
        for kind, text in rows:
            low = normalise(text)
            named = f"{name}.md" in low or f"[[{name}]]" in low
            if kind in TOOL_ROWS and named and (READ_TOOLS.search(low) or kind == TOOL_RESULT):
                return True
        return False

    expected = {i for i, line in enumerate(BOARD.lines) if any(map(reads, line.pointers))}
    assert BoardIndex(BOARD).read(turn) == expected


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_entity_scan_equals_a_scan_of_every_entity(text: str) -> None:
    entities = {"acme-corp", "a1", "lesson-a1", "Groove-B", "谢谢", "long-one"}
    low = normalise(text)
    expected = {e for e in entities if _naive_forms(low, e) or f"[[{e}]]" in text}
    assert PointerScan(entities, bracketed=True).named(low, text) == expected


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_triggered_lines_equal_each_lines_trigger_rule(text: str) -> None:
    index = BoardIndex(BOARD)
    words = token_set(text)
    expected = {
        i for i, cues in enumerate(index.cues) if cues.trigger_hit(words, index.distinctive)
    }
    assert index.triggered(words) == expected


_STEMMED = ["flies", "fly", "tried", "classes", "running", "it's", "don't", "价格", "数字", "v2"]
_CUE_WORDS = st.sampled_from([*sorted({*_SYNONYMS, *_SYNONYMS.values()}), *_STEMMED])
CUE_TEXT = st.lists(st.one_of(_CUE_WORDS, st.sampled_from(_WORDS)), max_size=12).map(" ".join)


@settings(max_examples=600, deadline=None)
@given(CUE_TEXT | TEXT, CUE_TEXT | TEXT)
def test_witness_precheck_never_rejects_a_direction_hit(line_text: str, reply: str) -> None:
    # Direction cues as a board line gets them; the reply is tokenised the same way.
    direction = token_set(line_text)
    cues = LineCues.of(frozenset(), direction)
    reply_tokens = token_set(reply)
    folded = normalise(reply).replace("'", "")
    for token in reply_tokens:
        assert any(w in folded for w in token_witnesses(token)), (token, reply)
    if cues.direction_hit(reply_tokens):
        assert cues.direction_may_hit(folded)
