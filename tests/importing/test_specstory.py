"""The SpecStory history reader on real and format-exact synthetic histories.

The fixtures and where their shapes come from are described in
``tests/fixtures/transcripts/specstory/SOURCES.md``. Expected texts below are the words
written into those fixtures, read off the files, not output captured from the reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.importing.formats.specstory import CANCELLED, IMAGE, INTERRUPTED, READER
from shared.importing.records import FormatReader, Problem, ReadState, Role, Utterance
from tests.importing.readers import of, read_all

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts" / "specstory"
PROGRESS = FIXTURES / "2025-08-09_10-34Z-progress-tests.md"  # 2025 extension, Chinese
TOAST = FIXTURES / "2025-10-13_08-29Z-toast-error.md"  # Oct 2025, Assistant (model)
TSDOWN = FIXTURES / "2025-11-13_14-12Z-tsdown-hash.md"  # Markdown v2.0.0
TOOLTIP = FIXTURES / "2025-11-27_05-48Z-tooltip-cleanup.md"  # v2.1.0 Copilot tools
CURSOR = FIXTURES / "2025-11-15_06-33Z-check-and-fix-tag-format-in-config.md"  # v2.1.0
CLAUDE = FIXTURES / "2026-01-16_16-26-02Z-code-review.md"  # CLI, Claude Code
EXIT = FIXTURES / "2026-01-16_16-46-41Z-command-name-exit-command.md"
LEGACY_CURSOR = FIXTURES / "2025-04-28_18-34-legacy-cursor.md"
CURSOR_TOOLS = FIXTURES / "2025-10-01_23-30Z-cursor-legacy-tools.md"
CLI_LEGACY = FIXTURES / "2025-07-10_09-00-00Z-claude-cli-legacy.md"
INJECTED = FIXTURES / "2025-12-03_05-21Z-injected-context.md"
EARLY = FIXTURES / "early-format.md"
GROWING = FIXTURES / "2025-09-01_10-00Z-growing.md"
BEFORE = FIXTURES / "2025-09-02_11-00Z-rewrite.before.md"
AFTER = FIXTURES / "2025-09-02_11-00Z-rewrite.after.md"
EMPTY = FIXTURES / "2025-09-03_12-00Z-empty.md"
NO_HEADER = FIXTURES / "2025-09-04_12-00Z-no-header.md"
REAL = (PROGRESS, TOAST, TSDOWN, TOOLTIP, CURSOR, CLAUDE, EXIT)
ALL = sorted(FIXTURES.glob("*.md"))

# What harnesses and SpecStory write that must never be filed as the person's words.
INJECTED_MARKERS = (
    "<",
    "_**",
    "Caveat:",
    "Below are some potentially helpful",
    "export function login",
    "Use pnpm",
    "## Context",
    "Goodbye",
    "base64",
    "Search the repository for xcuserdata",  # a sub-agent's prompt
)


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
    assert reader.name == "specstory"


def test_matches_markdown_directly_in_a_specstory_history_directory() -> None:
    assert READER.matches(Path("/p/.specstory/history/2025-08-06_09-10Z-fix.md"))
    assert READER.matches(Path(".specstory/history/untitled.md"))
    assert not READER.matches(Path("/p/.specstory/history/notes.txt"))
    assert not READER.matches(Path("/p/.specstory/.what-is-this.md"))
    assert not READER.matches(Path("/p/history/2025-08-06_09-10Z-fix.md"))
    assert not READER.matches(Path("/p/.specstory/history/old/2025-08-06_09-10Z-fix.md"))
    assert not READER.matches(Path("/p/docs/README.md"))


# ------------------------------------------------------------------------ user words


def test_older_header_user_text_is_verbatim_chinese() -> None:
    said, problems, state = read(PROGRESS)
    assert not problems
    users = of(said, Role.USER)
    assert [u.record_id for u in users] == ["m1", "m3"]
    assert users[0].text.startswith("我想你帮我实现最丰富最完善的测试案例，在 progress之前")
    assert users[0].text.endswith("但是你只能修改 progress 的测试代码")
    assert users[1].text.startswith("我使用的 是 vitest 的 browser mode 进行测试")
    assert state.session_id == PROGRESS.stem
    assert all(u.session_id == PROGRESS.stem for u in said)


def test_agent_prose_is_agent_and_separators_are_not_text() -> None:
    said, _, _ = read(PROGRESS)
    agents = of(said, Role.AGENT)
    assert [u.record_id for u in agents] == ["m2#1", "m4#1"]
    assert agents[0].text.startswith("明白你的需求：")
    assert agents[0].text.endswith("风格与 color-picker 完全一致。")
    assert not any(u.text.strip().endswith("---") for u in said)


def test_copilot_agent_mention_is_user_text() -> None:
    said, _, _ = read(TOAST)
    users = of(said, Role.USER)
    assert users[1].text == "@agent 重试"
    assert (users[1].record_id, users[1].line) == ("m3", 34)  # the message's header line
    assert users[0].text.startswith("我现在在使用 [index.ts](packages/components/toast/index.ts)")


def test_injected_context_is_cut_and_user_query_kept() -> None:
    said, _, _ = read(INJECTED)
    users = of(said, Role.USER)
    assert [u.text for u in users] == [
        "the login redirect loops forever, fix it",
        f"dont change changelog by hand {IMAGE}",
        "@no-manual-changelog.mdc",
    ]


def test_bare_rule_mention_is_user_text() -> None:
    said, _, _ = read(LEGACY_CURSOR)
    assert [u.text for u in of(said, Role.USER)] == [
        "what tasks are available?",
        "@user-preferences.mdc",
    ]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_no_injected_or_markup_text_is_user_text(path: Path) -> None:
    said, _, _ = read(path)
    for utterance in of(said, Role.USER):
        for marker in INJECTED_MARKERS:
            assert marker not in utterance.text, (path.name, utterance.record_id, marker)


def test_slash_command_echo_and_expansion_and_local_output_are_dropped() -> None:
    said, _, _ = read(CLAUDE)
    assert [u.record_id for u in of(said, Role.USER)] == ["m6", "m9"]
    assert of(said, Role.USER)[1].text == "yup"
    exit_said, problems, _ = read(EXIT)
    assert exit_said == [] and problems == []


def test_interrupt_is_a_user_action_and_sidechains_are_dropped() -> None:
    said, _, _ = read(CLI_LEGACY)
    actions = of(said, Role.USER_ACTION)
    assert [(u.record_id, u.text) for u in actions] == [("m4", INTERRUPTED)]
    assert not any(u.record_id.startswith(("m5", "m6")) for u in said)
    assert "Found none." not in [u.text for u in said]


def test_a_cancelled_step_is_a_user_action() -> None:
    # A real early 2025 history (twardoch/twat-search, MIT, in the real-session corpus):
    # the person cancelled the install and, later, an edit; each shows as "_****_" then
    # "Cancelled" inside the agent's message.
    path = (
        FIXTURES.parents[2]
        / "corpora/real_sessions/fresh/twardoch-twat-search"
        / "2025-02-25_05-36-implementing-duckduckgo-search-engine.md"
    )
    said, problems, _ = read(path)
    assert problems == []
    actions = of(said, Role.USER_ACTION)
    assert [(u.record_id, u.line, u.text) for u in actions] == [
        ("m2#9", 112, CANCELLED),
        ("m4#7", 216, CANCELLED),
    ]
    assert not any(u.text.strip("_*\n ") == "Cancelled" for u in of(said, Role.AGENT))
    # what the person typed next is their own turn, after the action
    after = said[said.index(actions[0]) + 1 :]
    assert next(u for u in after if u.role is Role.USER).text == "Use uv pip"


# ------------------------------------------------------------------------ agent parts


def test_thinking_is_dropped() -> None:
    for path in (CURSOR, CLAUDE, CURSOR_TOOLS):
        said, _, _ = read(path)
        texts = "\n".join(u.text for u in said)
        assert "Thought Process" not in texts
        assert "<think>" not in texts
    said, _, _ = read(CURSOR)
    assert not any("The user is pointing out" in u.text for u in said)


def test_cursor_tool_use_blocks_name_the_tool_and_summarise_the_input() -> None:
    said, _, _ = read(CURSOR)
    uses = of(said, Role.TOOL_USE)
    assert [(u.tool_name, u.text) for u in uses] == [
        ("read_file", "Read file: .github/workflows/release.yml"),
        ("search_replace", "Edit file: .github/workflows/release.yml"),
        ("read_lints", "Read lints for 1 file"),
        ("read_file", "Read file: .release-please-config.json"),
    ]
    assert [u.record_id for u in uses] == ["m2#1", "m2#2", "m2#3", "m4#1"]
    # An edit's diff is the call's input, not something a tool returned.
    assert of(said, Role.TOOL_RESULT) == []
    agents = of(said, Role.AGENT)
    assert agents[0].text.startswith("Perfect! I've fixed the tag format issues")
    assert agents[0].record_id == "m2#4"


def test_claude_code_tool_blocks_have_results() -> None:
    said, _, _ = read(CLAUDE)
    uses = of(said, Role.TOOL_USE)
    results = of(said, Role.TOOL_RESULT)
    assert [(u.tool_name, u.text) for u in uses] == [
        ("Read", "`./pkg/providers/claudecode/agent_session.go`"),
        (
            "Bash",
            "Run inverted tests to verify they fail "
            '`go test -v -run "TestFormatAskUserQuestionTool|TestParseAskUserQuestionAnswer" '
            "./pkg/providers/claudecode/`",
        ),
    ]
    assert [u.tool_name for u in results] == ["Read", "Bash"]
    assert results[0].text.startswith("500→\t} else {")
    assert results[1].text.startswith("Exit code 1\n=== RUN   TestFormatAskUserQuestionTool")
    assert [u.record_id for u in results] == ["m4#2", "m5#2"]


def test_copilot_generic_tool_blocks() -> None:
    said, _, _ = read(TOOLTIP)
    uses = of(said, Role.TOOL_USE)
    assert uses[0].tool_name == "copilot_readFile"
    assert uses[0].text.startswith("正在读取 [](file:///Users/dev/Developer/destyler-dev/")
    assert uses[1].tool_name == "copilot_getErrors"
    assert uses[1].text.startswith('{ "file_path": "Users/dev/Developer/destyler-dev/')
    results = of(said, Role.TOOL_RESULT)
    assert len(results) == 1
    assert results[0].tool_name == "copilot_getErrors"
    assert '"pastTenseMessage": "已检查' in results[0].text
    assert "vscodeToolId" not in uses[1].text  # VS Code's bookkeeping is not the input


def test_legacy_tool_lines_and_bare_details_blocks() -> None:
    said, _, _ = read(CURSOR_TOOLS)
    assert [(u.role, u.tool_name, u.text) for u in said[1:]] == [
        (Role.AGENT, None, "Let me look at the code."),
        (Role.TOOL_USE, "read_file", "Read file: /home/dev/mastowall/script.js"),
        (
            Role.TOOL_USE,
            "grep",
            'Grep for "representativeNode" in "/home/dev/mastowall/script.js" • 5 matches',
        ),
        (
            Role.TOOL_USE,
            "run_terminal_cmd",
            'cd /home/dev/mastowall && grep -n "avatar-img" script.js',
        ),
        (Role.TOOL_RESULT, "run_terminal_cmd", '145: <img class="avatar-img">'),
        (Role.AGENT, None, "The avatar images lost their animation class; I put it back."),
    ]
    said, _, _ = read(LEGACY_CURSOR)
    assert [(u.role, u.tool_name, u.text) for u in said if u.role == Role.TOOL_USE] == [
        (Role.TOOL_USE, "Searched codebase", 'Searched codebase "available tasks" • 2 results'),
        (Role.TOOL_USE, "read_file", "Read file: process/tasks.md"),
    ]


def test_cli_legacy_result_section() -> None:
    said, _, _ = read(CLI_LEGACY)
    assert [(u.role, u.tool_name, u.text) for u in said[1:3]] == [
        (Role.TOOL_USE, "Bash", "Remove xcuserdata from git tracking"),
        (
            Role.TOOL_RESULT,
            "Bash",
            "fatal: pathspec 'BearApp.xcodeproj/xcuserdata/' did not match any files",
        ),
    ]


def test_empty_replies_yield_nothing() -> None:
    said, _, _ = read(LEGACY_CURSOR)
    assert not any(u.record_id.startswith("m4") for u in said)
    assert all(u.text.strip() for u in said)


# ----------------------------------------------------------------------------- times


def test_header_times_carry_over_to_messages_without_one() -> None:
    said, _, _ = read(TOAST)
    assert [(u.record_id, u.ts) for u in said] == [
        ("m1", "2025-10-13T08:31:00Z"),
        ("m2#1", "2025-10-13T08:31:00Z"),
        ("m3", "2025-10-13T08:33:00Z"),
        ("m4#1", "2025-10-13T08:33:00Z"),
    ]


def test_agent_header_time_with_seconds() -> None:
    said, _, _ = read(CLAUDE)
    assert said[0].record_id == "m3#1"
    assert said[0].ts == "2026-01-16T16:26:05Z"
    assert of(said, Role.USER)[0].ts == "2026-01-16T16:29:58Z"


def test_time_falls_back_to_the_file_name_then_the_title() -> None:
    said, _, _ = read(LEGACY_CURSOR)  # title 14:34:13 is local time; the name is UTC
    assert {u.ts for u in said} == {"2025-04-28T18:34:00Z"}
    said, _, _ = read(EARLY)  # no time in the name: the title's
    assert {u.ts for u in said} == {"2025-01-15T09:33:05Z"}
    said, _, _ = read_bytes(EARLY.read_bytes().replace(b"(2025/1/15 09:33:05)", b""), "x.md")
    assert {u.ts for u in said} == {None}


def test_session_comment_time_with_underscores() -> None:
    said, _, _ = read_bytes(CLI_LEGACY.read_bytes(), "/h/untitled.md")
    assert {u.ts for u in said} == {"2025-07-10T09:00:00Z"}
    assert {u.session_id for u in said} == {"untitled"}


def test_local_time_with_offset_is_converted_to_utc() -> None:
    data = b"# t\n\n_**User (2025-11-13 21:12:14-0700)**_\n\nhi\n\n---\n"
    said, _, _ = read_bytes(data, "a.md")
    assert [u.ts for u in said] == ["2025-11-14T04:12:14Z"]


# ------------------------------------------------------------------- incremental reads


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_ids_are_unique_and_stable_across_reads(path: Path) -> None:
    first, _, _ = read(path)
    again, _, _ = read(path)
    assert first == again
    ids = [u.record_id for u in first]
    assert len(ids) == len(set(ids))


def test_unfinished_last_message_waits_for_final() -> None:
    said, problems, state = read(GROWING, final=False)
    assert not problems
    assert [u.text for u in said] == [
        "rename load_config to read_config everywhere",
        "Renamed it in three files.",
        "also update the docs",
    ]
    assert state.emitted == 3
    data = GROWING.read_bytes()
    assert state.line == 24  # the line before the held message's header (line 25)
    assert data[: state.offset].endswith(b"---\n\n")
    more, _, state = read(GROWING, state, final=False)
    assert more == []  # still held, nothing emitted twice
    grown = data.rstrip(b"\n") + b" `README.md`.\n\n---\n"
    said, _, state = read_bytes(grown, str(GROWING), state, final=True)
    assert [(u.record_id, u.text) for u in said] == [
        ("m4#1", "Updating `docs/config.md` and `README.md`.")
    ]
    assert state.emitted == 4


def test_incremental_reads_yield_only_new_utterances() -> None:
    data = CURSOR.read_bytes()
    cut = data.index(b"_**User (2025-11-15 06:33Z)**_\n\nhmm")
    said_first, _, state = read_bytes(data[:cut], str(CURSOR), final=True)
    said_rest, problems, state = read_bytes(data, str(CURSOR), state, final=True)
    whole, _, _ = read(CURSOR)
    assert not problems
    assert said_first + said_rest == whole
    assert state.emitted == len(whole)


def test_a_reply_that_grows_more_parts_keeps_its_ids() -> None:
    data = CURSOR.read_bytes()
    cut = data.index(b'<tool-use data-tool-type="generic"')
    early, _, state = read_bytes(data[:cut], str(CURSOR), final=True)
    later, _, _ = read_bytes(data, str(CURSOR), state, final=True)
    whole, _, _ = read(CURSOR)
    assert [u.record_id for u in early] == [u.record_id for u in whole[: len(early)]]
    assert early + later == whole


def test_rewritten_history_is_reported_and_nothing_is_emitted_twice() -> None:
    name = "/p/.specstory/history/2025-09-02_11-00Z-rewrite.md"
    first, _, state = read_bytes(BEFORE.read_bytes(), name)
    assert [u.text for u in first] == [
        "add a /health endpoint",
        "Added `GET /health` returning 200.",
    ]
    said, problems, state = read_bytes(AFTER.read_bytes(), name, state)
    assert [str(p) for p in problems] == [
        f"{name}:13: rewritten: the first 2 utterances differ from those already read"
        " (only later ones are read)"
    ]
    assert [u.text for u in said] == ["thanks", "You're welcome."]
    again, problems, _ = read_bytes(AFTER.read_bytes(), name, state)
    assert again == [] and problems == []  # reported once


def test_unchanged_history_is_not_reported() -> None:
    name = "/p/.specstory/history/2025-09-02_11-00Z-rewrite.md"
    _, _, state = read_bytes(BEFORE.read_bytes(), name)
    said, problems, _ = read_bytes(BEFORE.read_bytes(), name, state)
    assert said == [] and problems == []


# ---------------------------------------------------------------------------- problems


def test_empty_file_yields_nothing() -> None:
    said, problems, state = read(EMPTY)
    assert said == [] and problems == []
    assert state.emitted == 0


def test_file_without_message_headers_is_one_problem() -> None:
    said, problems, state = read(NO_HEADER)
    assert said == []
    assert [str(p) for p in problems] == [
        f"{NO_HEADER}:1: no SpecStory message header (_**User**_, _**Agent**_)"
    ]
    _, again, _ = read(NO_HEADER, state)
    assert again == []


def test_invalid_utf8_is_replaced_and_reported_once_with_its_line() -> None:
    data = TOAST.read_bytes().replace("@agent 重试".encode(), b"@agent caf\xe9")
    said, problems, state = read_bytes(data, "/h/x.md")
    assert [str(p) for p in problems] == [
        "/h/x.md:36:11: not valid UTF-8 (decoded with replacement)"
    ]
    assert of(said, Role.USER)[1].text == "@agent caf\ufffd"
    _, again, _ = read_bytes(data + b"\n_**User**_\n\nok\n", "/h/x.md", state)
    assert again == []


@pytest.mark.parametrize(
    "injected",
    [
        "Base directory for this skill: /Users/dev/.claude/plugins/cache/x/skills/brainstorming"
        "\n\n# Brainstorming\n\nNever skip a step.",
        "Implement the plan as specified, it is attached for your reference. "
        "Do NOT edit the plan file itself.",
    ],
)
def test_skill_and_plan_texts_the_tool_injects_are_never_the_users(tmp_path, injected: str) -> None:
    """A skill's text (Claude Code through SpecStory) and Cursor's plan preamble come in
    user blocks, but no person typed them."""
    from shared.importing.formats.specstory import READER
    from shared.importing.records import ReadState, Role, Utterance

    path = tmp_path / "2026-05-21_06-41-36Z-x.md"
    path.write_text(
        "<!-- Generated by SpecStory -->\n\n# x (2026-05-21 06:41Z)\n\n"
        f"_**User (2026-05-21 06:41Z)**_\n\n{injected}\n\n---\n\n"
        "_**User (2026-05-21 06:42Z)**_\n\nplease go on\n\n---\n\n"
        "_**Agent (model x, mode Agent)**_\n\nDone.\n\n---\n\n",
        encoding="utf-8",
    )
    with open(path, "rb") as handle:
        items = list(READER.read(handle, str(path), ReadState(), final=True))
    said = [u for u in items if isinstance(u, Utterance)]
    users = [u.text for u in said if u.role in (Role.USER, Role.USER_ACTION)]
    assert users == ["please go on"]
