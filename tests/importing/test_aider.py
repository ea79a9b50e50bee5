"""The aider chat history reader on real and format-exact synthetic histories.

The fixtures and where their shapes come from are described in
``tests/fixtures/transcripts/aider/SOURCES.md``. Expected texts and line numbers below
are read off those files, not output captured from the reader.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from shared.importing.formats.aider import AIDER_TOOL, READER, UNDID
from shared.importing.records import FormatReader, Problem, ReadState, Role, Utterance
from tests.importing.readers import of, read_all

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts" / "aider"
NAME = ".aider.chat.history.md"
CURRENT = FIXTURES / "current" / NAME  # synthetic v0.86, two sessions
V047 = FIXTURES / "v0.47" / NAME  # real, aider's own history
V049 = FIXTURES / "v0.49" / NAME  # real
STRIPPED = FIXTURES / "stripped" / NAME
NON_UTF8 = FIXTURES / "non-utf8" / NAME
NO_HEADER = FIXTURES / "no-header" / NAME
EMPTY = FIXTURES / "empty" / NAME
ALL = (CURRENT, V047, V049, STRIPPED, NON_UTF8, NO_HEADER, EMPTY)

FIRST = "2025-07-02 16:39:47"
SECOND = "2025-07-03 09:00:01"


def read_bytes(
    data: bytes, name: str, state: ReadState | None = None, *, final: bool = True
) -> tuple[list[Utterance], list[Problem], ReadState]:
    return read_all(READER, data, name, state, final)


def read(
    path: Path, state: ReadState | None = None, *, final: bool = True
) -> tuple[list[Utterance], list[Problem], ReadState]:
    return read_bytes(path.read_bytes(), str(path), state, final=final)


def test_reader_is_a_format_reader() -> None:
    reader: FormatReader = READER
    assert reader.name == "aider"


def test_matches_the_history_file_only() -> None:
    assert READER.matches(Path("/p/.aider.chat.history.md"))
    assert not READER.matches(Path("/p/.aider.input.history"))
    assert not READER.matches(Path("/p/aider.chat.history.md"))
    assert not READER.matches(Path("/p/.aider.llm.history"))


# --------------------------------------------------------------------------- mapping


def test_user_messages_join_their_lines_and_drop_the_prefix() -> None:
    said, problems, _ = read(CURRENT)
    assert not problems
    users = of(said, Role.USER)
    assert [(u.record_id, u.text) for u in users] == [
        ("l13", "add retries to fetch()\nuse exponential backoff\nand log each retry"),
        ("l52", "why did the test fail?"),
        ("l71", "make the retry count configurable"),
        ("l111", "document the retry setting"),
        ("l130", "用中文解释一下 fetch() 的重试逻辑"),
    ]


def test_sessions_ids_and_times_come_from_the_start_lines() -> None:
    said, _, state = read(CURRENT)
    assert {(u.session_id, u.ts) for u in said if u.line < 126} == {(FIRST, "2025-07-02T16:39:47Z")}
    assert {(u.session_id, u.ts) for u in said if u.line > 126} == {
        (SECOND, "2025-07-03T09:00:01Z")
    }
    assert state.session_id == SECOND


def test_agent_replies_keep_their_own_markdown_and_lose_reasoning() -> None:
    said, _, _ = read(CURRENT)
    first = of(said, Role.AGENT)[0]
    assert first.record_id == "l17"
    assert first.text.startswith("I'll add a retry loop to `fetch()`.\n\n#### Plan\n> Note:")
    assert "thinking-content" not in first.text
    assert "The user wants retries." not in first.text
    assert first.text.endswith(">>>>>>> REPLACE\n```")


def test_applied_edits_and_commits_are_aider_tool_results() -> None:
    said, _, _ = read(CURRENT)
    results = of(said, Role.TOOL_RESULT)
    assert [(u.record_id, u.text) for u in results] == [
        ("l38", "Applied edit to app.py"),
        (
            "l39",
            "Commit 1a2b3c4 feat: Add retries with exponential backoff to fetch\n"
            "description: retries three times, doubling the delay.",
        ),
        ("l90", "Applied edit to app.py"),
        ("l91", "Commit 5e6f7a8 feat: Make retry count configurable"),
    ]
    assert {u.tool_name for u in results} == {AIDER_TOOL}


def test_a_shell_command_the_person_accepted_is_a_run_the_declined_one_a_rejection() -> None:
    # The shape of a real history (tests/corpora/real_sessions/aider, metronome): aider
    # shows the suggested command, asks, and logs "Running" only after a yes.
    data = (
        b"\n# aider chat started at 2025-01-03 09:06:34\n\n#### run it  \n\n"
        b"Run it with:\n\n```bash\ncargo run -- --start-bpm 60\n```\n\n"
        b"> cargo run -- --start-bpm 60  \n"
        b"> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n"
        b"> Running cargo run -- --start-bpm 60  \n\n"
        b"#### and again  \n\n"
        b"```bash\ncargo test\n```\n\n"
        b"> cargo test  \n"
        b"> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: n  \n"
    )
    said, problems, _ = read_bytes(data, NAME)
    assert not problems
    assert [(u.role, u.text) for u in said if u.role is not Role.AGENT] == [
        (Role.USER, "run it"),
        (Role.TOOL_RESULT, "Running cargo run -- --start-bpm 60"),
        (Role.USER, "and again"),
        (Role.USER_ACTION, "rejected: Run shell command? (cargo test)"),
    ]


def test_rejections_undo_and_nothing_else_are_user_actions() -> None:
    said, _, _ = read(CURRENT)
    assert [(u.record_id, u.text) for u in of(said, Role.USER_ACTION)] == [
        ("l42", "rejected: Run shell command? (pytest -q)"),
        ("l45", UNDID),
        ("l58", "rejected: Add file to the chat? (tests/test_app.py)"),
        ("l62", "rejected: Add file to the chat? (tests/conftest.py)"),
        ("l123", "rejected: Create new file? (docs/retries.md)"),
    ]


def test_commands_prompts_and_aider_output_are_never_user_text() -> None:
    for path in ALL:
        said, _, _ = read(path)
        for utterance in of(said, Role.USER):
            text = utterance.text
            assert not text.startswith(("/", "!", "#", ">", "<blank>")), (path, text)
            assert "(Y)es/(N)o" not in text
            assert "Relevant docs" not in text and "Fix any errors below" not in text


def test_ask_and_architect_words_are_read_once() -> None:
    said, _, _ = read(CURRENT)
    texts = [u.text for u in said]
    assert texts.count("why did the test fail?") == 1
    assert texts.count("make the retry count configurable") == 1
    # The architect's reply, logged again as the editor model's "user" message.
    handoff = "Add a `retries` setting read from the environment and pass it to `fetch()`."
    assert [(u.role, u.record_id) for u in said if u.text == handoff] == [(Role.AGENT, "l73")]


def test_help_prompt_is_dropped_and_its_answer_kept() -> None:
    said, _, _ = read(CURRENT)
    assert (Role.AGENT, "Use `/model <name>` to switch models inside a chat.") in [
        (u.role, u.text) for u in said
    ]
    assert not any("Question:" in u.text for u in said)


def test_yes_answers_and_housekeeping_questions_are_nothing() -> None:
    said, _, _ = read(CURRENT)
    texts = "\n".join(u.text for u in said)
    assert "command output" not in texts
    assert "Edit the files?" not in texts


def test_real_v047_history() -> None:
    said, problems, _ = read(V047)
    assert [str(p) for p in problems] == [
        f"{V047}:1: no '# aider chat started at' line before this"
    ]
    assert [(u.record_id, u.text) for u in of(said, Role.USER)] == [
        ("l24", "Use the Spinner instead of the inlined custom spinner"),
        ("l75", "is there a portable way to know the user's preferred language?"),
    ]
    assert [(u.record_id, u.text) for u in of(said, Role.USER_ACTION)] == [
        ("l56", UNDID),
        ("l60", UNDID),
        ("l82", "rejected: Add these files to the chat?"),
    ]
    results = of(said, Role.TOOL_RESULT)
    assert results[0].text == "Commit d0ffbf1 fix: Reorder imports in repomap.py"
    assert results[0].session_id == "2024-08-05 19:33:02"
    assert [u.text for u in results[1:3]] == [
        "Applied edit to aider/utils.py",
        "Commit fd43cd4 feat: Use the Spinner instead of the inlined custom spinner",
    ]
    assert not any(u.text in ("/diff", "/ex") for u in said)


def test_real_v049_help_and_lint_prompts_are_dropped() -> None:
    said, problems, _ = read(V049)
    assert not problems
    assert of(said, Role.USER) == []
    assert [u.role for u in said] == [Role.TOOL_RESULT, Role.AGENT]
    assert said[0].text == "Commit 2a9d181 fix: Add output messages for scraping process"
    assert said[1].text.startswith("To fix the F541 flake8 error")


def test_stripped_trailing_spaces() -> None:
    said, problems, _ = read(STRIPPED)
    assert not problems
    assert [(u.role, u.text) for u in said] == [
        (Role.USER_ACTION, UNDID),
        (Role.USER, "explain the error"),
        (Role.AGENT, "The error comes from a missing protobuf package."),
    ]


# ----------------------------------------------------------------- incremental reads


@pytest.mark.parametrize("path", (CURRENT, V047, V049), ids=lambda p: p.parent.name)
def test_ids_are_stable_across_reads(path: Path) -> None:
    first, _, _ = read(path)
    again, _, _ = read(path)
    assert first == again
    keys = [(u.session_id, u.record_id) for u in first]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("path", (CURRENT, V047, NON_UTF8), ids=lambda p: p.parent.name)
def test_appended_reads_give_the_same_utterances_as_one_read(path: Path) -> None:
    data = path.read_bytes()
    whole, whole_problems, _ = read(path)
    cuts = sorted(random.Random(7).sample(range(1, len(data)), 25))
    state = ReadState()
    said: list[Utterance] = []
    problems: list[Problem] = []
    for cut in [*cuts, len(data)]:
        more, found, state = read_bytes(data[:cut], str(path), state, final=cut == len(data))
        said += more
        problems += found
    assert said == whole
    assert problems == whole_problems
    assert state.emitted == len(whole)
    assert state.offset == len(data)


def test_incremental_read_yields_only_new_utterances_and_keeps_the_session() -> None:
    data = CURRENT.read_bytes()
    cut = data.index(b"#### /undo")
    first, _, state = read_bytes(data[:cut], str(CURRENT), final=True)
    # Past the last complete record (aider's line before the blank one), in the session.
    assert data[state.offset : cut] == b"\n" and state.session_id == FIRST
    rest, _, state = read_bytes(data, str(CURRENT), state, final=True)
    assert rest[0].text == UNDID and rest[0].session_id == FIRST
    whole, _, _ = read(CURRENT)
    assert first + rest == whole


def test_the_last_record_waits_for_final() -> None:
    data = CURRENT.read_bytes()
    end = data.index(b"#### and log each retry") + len(b"#### and log each retry  \n")
    said, _, state = read_bytes(data[:end], str(CURRENT), final=False)
    assert of(said, Role.USER) == []  # more "#### " lines may follow
    assert state.line == 11
    said, _, state = read_bytes(data[:end], str(CURRENT), state, final=True)
    assert [u.text for u in said] == [
        "add retries to fetch()\nuse exponential backoff\nand log each retry"
    ]
    cut_line = data.index(b"#### and log each retry") + len(b"#### and log")
    partial, _, _ = read_bytes(data[:cut_line], str(CURRENT), final=False)
    assert partial == []


def test_rejection_subject_survives_an_incremental_read() -> None:
    data = CURRENT.read_bytes()
    cut = data.index(b"> Run shell command?")
    _, _, state = read_bytes(data[:cut], str(CURRENT), final=True)
    said, _, _ = read_bytes(data, str(CURRENT), state, final=True)
    assert said[0].text == "rejected: Run shell command? (pytest -q)"


# --------------------------------------------------------------------------- problems


def test_empty_file_yields_nothing() -> None:
    said, problems, state = read(EMPTY)
    assert said == [] and problems == [] and state.offset == 0


def test_file_without_a_session_line_is_one_problem() -> None:
    said, problems, state = read(NO_HEADER)
    assert said == []
    assert [str(p) for p in problems] == [
        f"{NO_HEADER}:1: no '# aider chat started at' line before this"
    ]
    _, again, _ = read_bytes(NO_HEADER.read_bytes() + b"\nmore text\n", str(NO_HEADER), state)
    assert again == []


def test_invalid_utf8_is_replaced_and_reported_once_with_its_line() -> None:
    said, problems, state = read(NON_UTF8)
    assert [str(p) for p in problems] == [
        f"{NON_UTF8}:6:17: not valid UTF-8 (decoded with replacement)"
    ]
    assert of(said, Role.USER)[0].text == "fix the caf\ufffd menu"
    more = NON_UTF8.read_bytes() + b"\n#### and the caf\xe9 footer  \n\nDone.\n\n"
    said, problems, _ = read_bytes(more, str(NON_UTF8), state)
    assert problems == []
    assert [u.text for u in said] == ["and the caf\ufffd footer", "Done."]
