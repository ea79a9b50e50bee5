"""One instruction in English and Chinese recurs; different instructions do not merge."""

from __future__ import annotations

import pytest

from shared.weaver.concepts import concepts, same_instruction


@pytest.mark.parametrize(
    ("en", "zh"),
    [
        ("attach the raw CSV to the weekly report", "周报都要附上原始的CSV数据"),
        ("reply with a short summary first", "先回复一句话的摘要"),
        ("send the recording link to the group after every meeting", "开完会议把录音链接发到群里"),
    ],
)
def test_same_instruction_across_languages(en: str, zh: str) -> None:
    assert same_instruction(en, zh) and same_instruction(zh, en)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("attach the raw CSV to the weekly report", "先回复一句话的摘要"),
        ("use bullet points", "开完会议把录音链接发到群里"),
        ("check the figures first", "先确认时区"),
    ],
)
def test_different_instructions_stay_apart(a: str, b: str) -> None:
    assert not same_instruction(a, b)


def test_concepts_name_the_key_terms_in_both_scripts() -> None:
    assert {"report", "attach", "table"} <= concepts("Attach the CSV table to the report")
    assert {"report", "attach", "table"} <= concepts("报告要附上CSV表格")
