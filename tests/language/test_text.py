"""Tokenising, clause splitting and marker lexicons on English and Chinese text."""

from __future__ import annotations

import pytest

from shared.language.markers import (
    candidate_rule,
    correction_marker,
    instruction_marker,
    is_greeting_or_receipt,
    is_transient_question,
    preference_marker,
    wanted_behaviour,
)
from shared.language.text import split_trigger, tokens


def test_tokens_fold_case_plurals_synonyms_and_cjk_bigrams() -> None:
    assert tokens("Replies") == tokens("reply") == tokens("ANSWER")
    assert "deploy" in tokens("releasing the build")
    assert tokens("周报数字") == ["周报", "报数", "数字"]
    assert "the" not in tokens("the answer")


@pytest.mark.parametrize(
    ("line", "trigger", "direction"),
    [
        (
            "- When a reply opens with filler, lead with the answer [[lesson-x]]",
            "a reply opens with filler",
            "lead with the answer",
        ),
        ("- Before deploying, run the smoke tests", "deploying", "run the smoke tests"),
        ("- 当用户问价格时，先给出具体数字 [[lesson-p]]", "用户问价格", "先给出具体数字"),
        ("- 每次写周报都先列数字", "写周报", "先列数字"),
        ("- Keep replies short", "", "Keep replies short"),
    ],
)
def test_split_trigger(line: str, trigger: str, direction: str) -> None:
    assert split_trigger(line) == (trigger, direction)


@pytest.mark.parametrize(
    ("text", "marker"),
    [
        ("No, that's not what I asked", "no,"),
        ("That's wrong.", "that's wrong"),
        ("I told you to keep it short", "I told you"),
        ("Stop adding emojis", "stop"),
        ("Actually the date is Monday", "actually"),
        ("不对，应该先给数字", "不对"),
        ("我说过不要这样", "我说过"),
        ("别再用英文回复了", "别再"),
        ("你又忘了时区", "又"),
        ("why didn't you run the tests first", "why didn't you"),
        ("In what world is that DRY?", "in what world"),
        ("是根据 vue 的也就是说vue才是标准", "才是"),
        ("为什么没有先跑测试", "为什么没"),
    ],
)
def test_correction_markers(text: str, marker: str) -> None:
    assert correction_marker(text) == marker


def test_no_correction_in_plain_requests() -> None:
    for text in (
        "Please draft the release notes",
        "是不是明天开会？",
        "写一份周报",
        "why don't you try the cache first",
        "这才是我想要的",
    ):
        assert correction_marker(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "Always cite sources",
        "From now on use UTC",
        "Going forward, tag me",
        "以后都用中文",
        "每次发邮件都抄送我",
        "记住这个格式",
        "务必先确认时区",
    ],
)
def test_instruction_markers(text: str) -> None:
    assert instruction_marker(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "TrackCommandDetached returns early and never executes the defaulting logic",
        "the parser always returns an empty list here",
        "it never was thread-safe",
    ],
)
def test_always_and_never_before_a_third_person_verb_describe(text: str) -> None:
    # Pasted review comments describe code; "always run", "never push" instruct.
    assert instruction_marker(text) is None
    assert instruction_marker("never push to main") == "never"
    assert instruction_marker("always pass the flag") == "always"


def test_preference_markers() -> None:
    assert preference_marker("I prefer tables") == "I prefer"
    assert preference_marker("我更喜欢表格") == "我喜欢"
    assert preference_marker("The table is fine") is None


@pytest.mark.parametrize(
    "text", ["hi", "Thanks!", "ok", "got it, thanks", "你好", "谢谢！", "收到", "好的"]
)
def test_greetings_and_receipts(text: str) -> None:
    assert is_greeting_or_receipt(text)


@pytest.mark.parametrize(
    "text", ["ok deploy it now", "thanks, but the date is wrong", "好的，以后都用中文"]
)
def test_not_greetings(text: str) -> None:
    assert not is_greeting_or_receipt(text)


def test_transient_questions() -> None:
    assert is_transient_question("What time is it in Tokyo?")
    assert is_transient_question("今天几点开会？")
    assert not is_transient_question("Why did you skip the tests again?")
    assert not is_transient_question("Please always answer in Chinese")


def test_wanted_behaviour_and_candidate_rule() -> None:
    assert wanted_behaviour("No, instead put the number first.") == "put the number first"
    assert wanted_behaviour("不对，应该先给数字") == "先给数字"
    assert candidate_rule("From now on, when I ask for a summary, use bullet points.") == (
        "I ask for a summary",
        "use bullet points",
    )
    assert candidate_rule("以后每次写周报都先列出关键数字") == ("写周报", "先列出关键数字")


@pytest.mark.parametrize(
    "text",
    [
        "Add src/main_window.py to the chat and make these exact changes. Do not change any logic.",
        "Replace the entire contents of src/chunker.py with the following:\nimport os",
        "Change ONLY the numerical values listed below. Don't touch anything else.",
        "请做以下修改：不要改动其他逻辑",
    ],
)
def test_a_request_scoped_to_the_edits_it_lists_is_one_off(text: str) -> None:
    from shared.language.markers import one_off_marker

    assert one_off_marker(text) is not None
    # A standing instruction stays one, whatever it lists.
    assert one_off_marker("Don't use npm; always use pnpm for installs") is None
