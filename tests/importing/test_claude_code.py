"""The Claude Code transcript reader on real and format-exact synthetic transcripts.

The fixtures and where their shapes come from are described in
``tests/fixtures/transcripts/claude-code/SOURCES.md``. Expected texts below are the words
written into those fixtures, read off the files, not output captured from the reader.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest

from shared.importing.formats.claude_code import READER, TOOL_MEMORY, tool_summary
from shared.importing.records import FormatReader, Problem, ReadState, Role, Utterance

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts" / "claude-code"
REAL = FIXTURES / "b82405ba-a054-4152-bc86-e9b0d4832b68.jsonl"
CHAT = FIXTURES / "5d6c0a0e-2f1b-4c1e-9a57-3e0c7b1d2a10.jsonl"
INJECTED = FIXTURES / "9e1f4b2c-7a3d-4e5f-8b6a-0c1d2e3f4a5b.jsonl"
SUBAGENT = FIXTURES / "agent-a3f9c21.jsonl"
BROKEN = FIXTURES / "7f3e2d1c-0b9a-4c8d-9e7f-6a5b4c3d2e1f.jsonl"
BROKEN_TAIL = FIXTURES / "broken-tail.txt"
SESSIONS = (REAL, CHAT, INJECTED)

# Harness-written text that must never reach the spine as something the user said.
INJECTED_MARKERS = (
    "<",
    "Caveat:",
    "This session is being continued",
    "Base directory",
    "ARGUMENTS",
    "Review the pending changes",
    "看看有没有安全问题",  # a slash command's arguments
    "keep the login details",  # /compact's arguments
    "Remember to run the linter",  # prompt-submit hook output
    "The user opened",  # system reminder and IDE context
    "Compacted",
    "Warmup",
    "Review src/login.ts",  # the sub-agent's prompt
    "M src/login.ts",  # shell output
    "Set model",
)


def read(
    path: Path, state: ReadState | None = None, *, final: bool = False, name: str | None = None
) -> tuple[list[Utterance], list[Problem], ReadState]:
    state = state or ReadState()
    with path.open("rb") as handle:
        items = list(READER.read(handle, name or str(path), state, final=final))
    said = [i for i in items if isinstance(i, Utterance)]
    problems = [i for i in items if isinstance(i, Problem)]
    assert len(said) + len(problems) == len(items)
    return said, problems, state


def roundtrip(state: ReadState) -> ReadState:
    """The state as the watermark store would keep it: through JSON."""
    return ReadState(**json.loads(json.dumps(dataclasses.asdict(state))))


def of(said: list[Utterance], role: Role) -> list[str]:
    return [u.text for u in said if u.role is role]


def raw_records(path: Path) -> list[dict[str, Any]]:
    records = []
    for raw in path.read_bytes().split(b"\n"):
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            records.append(value)
    return records


# ---------------------------------------------------------------------------- the reader


def test_reader_is_a_format_reader_named_claude_code() -> None:
    reader: FormatReader = READER
    assert reader.name == "claude-code"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("p/-home-dev-shop/5d6c0a0e-2f1b-4c1e-9a57-3e0c7b1d2a10.jsonl", True),
        ("p/-home-dev-shop/agent-a3f9c21.jsonl", False),
        ("p/-home-dev-shop/5d6c0a0e/subagents/agent-a3f9c21.jsonl", False),
        ("p/-home-dev-shop/5d6c0a0e/subagents/whatever.jsonl", False),
        ("p/-home-dev-shop/sessions-index.json", False),
        ("p/-home-dev-shop/notes.txt", False),
    ],
)
def test_matches_session_files_but_not_sub_agent_transcripts(path: str, expected: bool) -> None:
    assert READER.matches(Path(path)) is expected


def test_a_sub_agent_transcript_yields_nothing_even_when_read() -> None:
    said, problems, state = read(SUBAGENT)
    assert (said, problems) == ([], [])
    assert state.offset == SUBAGENT.stat().st_size


# ---------------------------------------------------------------------------- real excerpt


def test_real_excerpt_maps_each_record_as_documented() -> None:
    said, problems, state = read(REAL)
    assert problems == []
    got = [(u.role, u.text.split("\n")[0], u.tool_name) for u in said]
    assert got == [
        (Role.USER, "have a look at linear MCP-108, we will work on that here", None),
        (Role.TOOL_USE, '{"id":"MCP-108"}', "mcp__linear-server__get_issue"),
        (
            Role.TOOL_RESULT,
            "Entity not found: Issue - Could not find referenced Issue.",
            "mcp__linear-server__get_issue",
        ),
        (Role.USER_ACTION, "interrupted the agent", None),
        (Role.AGENT, "Design written to `docs/plans/2026-01-29-ai-summaries-design.md`.", None),
        (
            Role.TOOL_USE,
            "git add docs/plans/2026-01-29-ai-summaries-design.md && git commit -m "
            "\"$(cat <<'EOF' docs: add AI summaries design for ENT-108 Design document for adding "
            "--generate flag to `entire explain -c` that uses Claude CLI to generate structured "
            "checkpoint summaries. Key decisions: - Store summaries in CommittedMetadata.Summary "
            "field - Configurable LLM via SummaryGenerator interface (Claude CLI initial impl) - "
            "Condensed transcript input (prompts + responses + tool actions) - Summary schema: "
            "Intent, Outcome, Learnings (repo/code/workflow), Friction, OpenItems Co-Authored-By: "
            'Claude Opus 4.5 <noreply@anthropic.com> EOF )"',
            "Bash",
        ),
        (Role.USER_ACTION, "rejected the agent's Bash call: don't check this in", "Bash"),
        (Role.AGENT, "Got it, leaving uncommitted.", None),
    ]
    error = said[2]
    assert error.is_error and error.tool_use_id == "toolu_012ym3PvJofWUZxZdgPLzrRf"
    assert said[6].tool_use_id == "toolu_01Nin5unfFNScz5qoG4kTki6"
    assert {u.session_id for u in said} == {"b82405ba-a054-4152-bc86-e9b0d4832b68"}
    assert state.session_id == "b82405ba-a054-4152-bc86-e9b0d4832b68"
    assert state.emitted == len(said)


def test_real_excerpt_ids_times_and_lines_come_from_the_records() -> None:
    said, _, _ = read(REAL)
    lines = REAL.read_bytes().split(b"\n")
    for u in said:
        record = json.loads(lines[u.line - 1])
        assert u.record_id == record["uuid"]  # one utterance per record here
        assert u.ts == record["timestamp"]
        assert u.session_id == record["sessionId"]


def test_real_excerpt_thinking_and_bookkeeping_never_surface() -> None:
    said, _, _ = read(REAL)
    texts = "\n".join(u.text for u in said)
    assert "The user wants me to look at a Linear issue" not in texts  # thinking
    assert "(shortened)" not in texts  # thinking signatures
    assert "/mcp" not in texts and "MCP dialog dismissed" not in texts  # system record
    assert "mcp_progress" not in texts


# ---------------------------------------------------------------------------- what is USER


def test_only_what_the_person_typed_is_user() -> None:
    chat, _, _ = read(CHAT)
    assert of(chat, Role.USER) == [
        "修一下登录页的报错，错误信息在 logs/app.log 里",
        "别改测试，改 login.ts 本身",
        "[image]\n页面现在是这样",
    ]
    injected, _, _ = read(INJECTED)
    assert of(injected, Role.USER) == [
        "! git status --short",
        "继续，顺便把 README 更新一下",
        "还有 CHANGELOG",
        "CHANGELOG 用英文写",
    ]


@pytest.mark.parametrize("path", SESSIONS)
def test_no_injected_text_is_ever_user(path: Path) -> None:
    said, _, _ = read(path)
    for text in of(said, Role.USER) + of(said, Role.USER_ACTION):
        for marker in INJECTED_MARKERS:
            assert marker not in text, (marker, text)


def test_queue_operations_do_not_repeat_a_prompt() -> None:
    said, _, _ = read(CHAT)
    users = of(said, Role.USER)
    assert users.count("修一下登录页的报错，错误信息在 logs/app.log 里") == 1
    injected, _, _ = read(INJECTED)
    assert of(injected, Role.USER).count("CHANGELOG 用英文写") == 1


def test_system_reminder_and_ide_context_are_cut_out_of_real_text() -> None:
    said, _, _ = read(CHAT)
    (typed,) = [u for u in said if u.role is Role.USER and "login.ts" in u.text]
    assert typed.text == "别改测试，改 login.ts 本身"
    # the IDE block is block 0 and yields nothing, so the record yields one utterance
    assert "#" not in typed.record_id


def test_sidechain_records_are_dropped_entirely() -> None:
    said, _, state = read(INJECTED)
    texts = [u.text for u in said]
    assert "I'll look for the token handling." not in texts
    assert all(u.tool_name != "Glob" for u in said)
    # the sub-agent's interrupt is not the user's
    assert of(said, Role.USER_ACTION) == []
    assert "tool:toolu_01InjSideGlob" not in state.extra


def test_synthetic_replies_and_thinking_are_not_agent_text() -> None:
    chat, _, _ = read(CHAT)
    injected, _, _ = read(INJECTED)
    agent = of(chat, Role.AGENT) + of(injected, Role.AGENT)
    assert "No response requested." not in agent
    assert "先读日志，再看测试。" not in agent
    assert agent == [
        "我先看一下日志。",
        "明白，改用 optional chaining。",
        "看到了，按钮下面的报错还在。",
        "好的，我来更新 README。",
        "README 和 CHANGELOG 都更新好了。",
    ]


# ---------------------------------------------------------------------------- user actions


def test_interrupts_are_user_actions() -> None:
    said, _, _ = read(CHAT)
    interrupts = [u for u in said if u.text == "interrupted the agent"]
    assert [u.role for u in interrupts] == [Role.USER_ACTION, Role.USER_ACTION]
    # the block form and the older string form
    assert [u.line for u in interrupts] == [14, 28]


def test_rejections_are_user_actions_with_the_users_reason_verbatim() -> None:
    said, _, _ = read(CHAT)
    actions = [u for u in said if u.role is Role.USER_ACTION and u.text.startswith("rejected")]
    assert [u.text for u in actions] == [
        "rejected the agent's Edit call",
        "rejected the agent's Edit call: 用 optional chaining，不要加 try/catch\n也别动别的文件",
    ]
    assert [u.tool_use_id for u in actions] == ["toolu_01ChatEdit1", "toolu_01ChatEdit2"]
    assert all(u.tool_name == "Edit" for u in actions)
    # a rejection is never also filed as a tool result
    assert all("doesn't want to proceed" not in u.text for u in said)


def test_a_rejection_of_an_unknown_tool_still_reads() -> None:
    said, _, _ = read(REAL, ReadState(offset=_offset_of_line(REAL, 11), line=10))
    assert [(u.role, u.text, u.tool_name) for u in said[:1]] == [
        (Role.USER_ACTION, "rejected the agent's tool call: don't check this in", None)
    ]


# ---------------------------------------------------------------------------- agent and tools


def test_tool_uses_carry_a_one_line_summary() -> None:
    said, _, _ = read(CHAT)
    uses = {u.tool_use_id: (u.tool_name, u.text) for u in said if u.role is Role.TOOL_USE}
    assert uses == {
        "toolu_01ChatRead": ("Read", "/home/dev/shop/logs/app.log"),
        "toolu_01ChatBash": ("Bash", "npm test -- login \\ --reporter=dot"),
        "toolu_01ChatEdit1": ("Edit", "/home/dev/shop/src/login.test.ts"),
        "toolu_01ChatEdit2": ("Edit", "/home/dev/shop/src/login.ts"),
        "toolu_01ChatGrep": ("Grep", "data\\.token in /home/dev/shop/src"),
        "toolu_01ChatShot": ("Read", "/home/dev/shop/docs/login.png"),
        "toolu_01ChatFetch": (
            "WebFetch",
            "https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Operators/"
            "Optional_chaining",
        ),
    }
    assert all("\n" not in text for _, text in uses.values())


@pytest.mark.parametrize(
    ("name", "tool_input", "expected"),
    [
        (
            "Task",
            {"description": "Review login", "prompt": "long", "subagent_type": "x"},
            "Review login",
        ),
        ("Glob", {"pattern": "src/**/*.ts"}, "src/**/*.ts"),
        ("Glob", {"pattern": "*.md", "path": "/docs"}, "*.md in /docs"),
        ("NotebookEdit", {"notebook_path": "/n.ipynb", "new_source": "x"}, "/n.ipynb"),
        ("MultiEdit", {"file_path": "/a.py", "edits": []}, "/a.py"),
        ("Write", {"file_path": "/a.py", "content": "x\ny"}, "/a.py"),
        ("Bash", {"command": "cat <<EOF\nhi\nEOF", "description": "d"}, "cat <<EOF hi EOF"),
        (
            "TodoWrite",
            {"todos": [{"content": "说明", "status": "pending"}]},
            '{"todos":[{"content":"说明","status":"pending"}]}',
        ),
        ("Bash", {"description": "no command"}, '{"description":"no command"}'),
    ],
)
def test_tool_summary(name: str, tool_input: dict[str, Any], expected: str) -> None:
    assert tool_summary(name, tool_input) == expected


def test_tool_results_are_named_and_flag_errors_and_hide_images() -> None:
    said, _, _ = read(CHAT)
    results = [u for u in said if u.role is Role.TOOL_RESULT]
    assert [(u.tool_name, u.is_error) for u in results] == [
        ("Read", False),
        ("Bash", True),
        ("Grep", False),
        ("Read", False),
        ("WebFetch", False),
    ]
    assert results[3].text == "[image]"
    assert "iVBORw0KGgo" in CHAT.read_text(encoding="utf-8")  # the base64 is in the file ...
    assert all("iVBORw0KGgo" not in u.text for u in said)  # ... and in no utterance


def test_list_content_tool_results_are_joined_text() -> None:
    said, _, _ = read(INJECTED)
    (task,) = [u for u in said if u.role is Role.TOOL_RESULT and u.tool_name == "Task"]
    assert task.text == "No security issues found in src/login.ts."
    (mcp,) = [u for u in said if u.role is Role.TOOL_USE and "mcp__" in (u.tool_name or "")]
    assert mcp.text == '{"id":"ENT-108"}'


def test_a_record_with_several_utterances_numbers_them_by_block() -> None:
    said, _, _ = read(INJECTED)
    records = raw_records(INJECTED)
    (write_use,) = [
        r for r in records if r.get("requestId") and "好的" in json.dumps(r, ensure_ascii=False)
    ]
    uid = write_use["uuid"]
    assert [(u.role, u.record_id) for u in said if u.record_id.startswith(uid)] == [
        (Role.AGENT, f"{uid}#0"),
        (Role.TOOL_USE, f"{uid}#1"),
    ]
    (result_and_text,) = [
        r for r in records if "还有 CHANGELOG" in json.dumps(r, ensure_ascii=False)
    ]
    rid = result_and_text["uuid"]
    assert [(u.role, u.record_id) for u in said if u.record_id.startswith(rid)] == [
        (Role.TOOL_RESULT, f"{rid}#0"),
        (Role.USER, f"{rid}#1"),
    ]


@pytest.mark.parametrize("path", SESSIONS)
def test_record_ids_are_unique_and_stable_across_reads(path: Path) -> None:
    first, _, _ = read(path)
    second, _, _ = read(path)
    ids = [u.record_id for u in first]
    assert len(ids) == len(set(ids))
    assert ids == [u.record_id for u in second]
    assert first == second


# ---------------------------------------------------------------------------- incremental


def _offset_of_line(path: Path, line: int) -> int:
    """Byte offset where 1-based ``line`` starts."""
    data = path.read_bytes()
    offset = 0
    for _ in range(line - 1):
        offset = data.index(b"\n", offset) + 1
    return offset


@pytest.mark.parametrize("path", SESSIONS)
def test_two_reads_split_at_every_line_equal_one_read(path: Path, tmp_path: Path) -> None:
    whole, _, whole_state = read(path)
    data = path.read_bytes()
    cuts = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")][:-1]
    target = tmp_path / path.name
    for cut in cuts:
        target.write_bytes(data[:cut])
        first, _, state = read(target, name=str(path))
        target.write_bytes(data)
        second, _, state = read(target, roundtrip(state), name=str(path))
        assert first + second == whole, cut
        assert state.offset == len(data) and state.emitted == len(whole)
    assert whole_state.emitted == len(whole)


def test_tool_names_resolve_across_an_incremental_boundary(tmp_path: Path) -> None:
    # cut between the Read tool_use (line 7) and its result (line 9)
    data = CHAT.read_bytes()
    cut = _offset_of_line(CHAT, 8)
    target = tmp_path / CHAT.name
    target.write_bytes(data[:cut])
    _, _, state = read(target)
    saved = roundtrip(state)
    assert saved.extra["tool:toolu_01ChatRead"] == "Read"
    target.write_bytes(data)
    second, _, _ = read(target, saved)
    assert (second[0].role, second[0].tool_name, second[0].line) == (Role.TOOL_RESULT, "Read", 9)


def test_a_saved_state_yields_only_new_records(tmp_path: Path) -> None:
    target = tmp_path / CHAT.name
    target.write_bytes(CHAT.read_bytes())
    _, _, state = read(target)
    again, problems, after = read(target, roundtrip(state))
    assert (again, problems) == ([], [])
    assert after == state
    with target.open("ab") as handle:
        handle.write(INJECTED.read_bytes().split(b"\n")[2] + b"\n")  # one more record
    new, _, _ = read(target, roundtrip(state))
    assert [(u.role, u.text, u.line) for u in new] == [(Role.USER, "! git status --short", 31)]


def test_tool_memory_is_bounded_and_keeps_the_newest(tmp_path: Path) -> None:
    records = raw_records(CHAT)
    (use,) = [
        r for r in records if "toolu_01ChatBash" in json.dumps(r) and r["type"] == "assistant"
    ]
    (result,) = [r for r in records if "toolu_01ChatBash" in json.dumps(r) and r["type"] == "user"]
    lines = []
    count = TOOL_MEMORY + 44
    for n in range(count):
        rec = json.loads(json.dumps(use))
        rec["uuid"] = f"use-{n}"
        rec["message"]["content"][0]["id"] = f"toolu_{n}"
        lines.append(rec)
    for n in (0, count - 1):
        rec = json.loads(json.dumps(result))
        rec["uuid"] = f"result-{n}"
        rec["message"]["content"][0]["tool_use_id"] = f"toolu_{n}"
        lines.append(rec)
    target = tmp_path / "s.jsonl"
    target.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    said, _, state = read(target)
    assert sum(key.startswith("tool:") for key in state.extra) == TOOL_MEMORY
    oldest, newest = (u for u in said if u.role is Role.TOOL_RESULT)
    assert (oldest.tool_use_id, oldest.tool_name) == ("toolu_0", None)
    assert (newest.tool_use_id, newest.tool_name) == (f"toolu_{count - 1}", "Bash")


def test_a_cut_last_line_is_left_until_it_is_complete(tmp_path: Path) -> None:
    target = tmp_path / BROKEN.name
    target.write_bytes(BROKEN.read_bytes())
    _, _, state = read(target)
    partial = BROKEN.read_bytes().rsplit(b"\n", 1)[1]
    assert partial and state.offset == BROKEN.stat().st_size - len(partial)
    assert state.line == 11
    saved = roundtrip(state)
    # the writer finishes the line
    with target.open("ab") as handle:
        handle.write(BROKEN_TAIL.read_bytes())
    said, problems, after = read(target, saved)
    assert problems == []
    assert [(u.role, u.text, u.line) for u in said] == [(Role.USER, "fourth", 12)]
    assert after.offset == target.stat().st_size and after.line == 12


def test_final_reports_but_keeps_an_unparsable_cut_last_line(tmp_path: Path) -> None:
    target = tmp_path / BROKEN.name
    target.write_bytes(BROKEN.read_bytes())
    _, _, state = read(target)
    saved = roundtrip(state)
    said, problems, after = read(target, roundtrip(saved), final=True, name="b.jsonl")
    assert said == []
    assert [str(p) for p in problems] == ["b.jsonl:12: incomplete last line (invalid JSON)"]
    assert (after.offset, after.line) == (saved.offset, saved.line)


def test_final_takes_a_complete_record_without_a_newline(tmp_path: Path) -> None:
    target = tmp_path / REAL.name
    target.write_bytes(REAL.read_bytes().rstrip(b"\n"))
    said, _, state = read(target)
    assert "Got it, leaving uncommitted." not in [u.text.split("\n")[0] for u in said]
    assert state.line == 11
    rest, _, state = read(target, roundtrip(state), final=True)
    assert [u.text.split("\n")[0] for u in rest] == ["Got it, leaving uncommitted."]
    assert (state.offset, state.line) == (target.stat().st_size, 12)


# ---------------------------------------------------------------------------- bad input


def test_bad_lines_are_problems_named_file_line_and_reading_goes_on() -> None:
    said, problems, state = read(BROKEN, name="broken.jsonl")
    assert [(u.role, u.text, u.line) for u in said] == [
        (Role.USER, "first", 1),
        (Role.AGENT, "second", 5),
        (Role.USER, "third", 11),
    ]
    got = [(p.line, p.reason.split(" (")[0].split(":")[0]) for p in problems]
    assert got == [
        (2, "invalid JSON"),
        (3, "not a JSON object"),
        (4, "unknown record type 'team-sync'"),
        (7, "not valid UTF-8"),
        (8, "user record without message.content"),
        (9, "user record without uuid"),
    ]
    assert all(str(p).startswith(f"broken.jsonl:{p.line}: ") for p in problems if p.line != 7)
    assert str(problems[3]) == "broken.jsonl:7:287: not valid UTF-8"  # line:column
    assert state.emitted == 3


def test_an_unknown_type_is_reported_once_per_file_even_across_runs(tmp_path: Path) -> None:
    record = b'{"type":"team-sync","sessionId":"s","peer":"b"}\n'
    target = tmp_path / "s.jsonl"
    target.write_bytes(record)
    _, problems, state = read(target)
    assert len(problems) == 1
    target.write_bytes(record * 3)
    _, problems, _ = read(target, roundtrip(state))
    assert problems == []
    _, problems, _ = read(tmp_path / "s.jsonl")  # a new file state: reported again
    assert len(problems) == 1


def test_the_session_falls_back_to_the_file_name(tmp_path: Path) -> None:
    target = tmp_path / "0f0e0d0c.jsonl"
    target.write_text(
        '{"type":"user","message":{"role":"user","content":"hello"},"uuid":"u1"}\n',
        encoding="utf-8",
    )
    said, problems, _ = read(target)
    assert problems == []
    assert [(u.text, u.session_id, u.ts) for u in said] == [("hello", "0f0e0d0c", None)]


class _NoSlurp(io.BytesIO):
    """A handle that refuses to be read whole."""

    def read(self, size: int | None = -1) -> bytes:
        raise AssertionError("read the whole file")

    def readlines(self, hint: int | None = -1) -> list[bytes]:
        raise AssertionError("read the whole file")


def test_reading_goes_line_by_line_and_takes_a_huge_line() -> None:
    records = raw_records(CHAT)
    (result,) = [r for r in records if "toolu_01ChatGrep" in json.dumps(r) and r["type"] == "user"]
    huge = json.loads(json.dumps(result))
    huge["message"]["content"][0]["content"] = "x" * 3_000_000
    data = CHAT.read_bytes() + json.dumps(huge).encode() + b"\n"
    said = [
        i
        for i in READER.read(_NoSlurp(data), "h.jsonl", ReadState(), final=False)
        if isinstance(i, Utterance)
    ]
    assert len(said[-1].text) == 3_000_000
    assert said[-1].tool_name == "Grep"


def _variant(
    path: Path, pick: str, change: dict[str, Any], tmp_path: Path, kind: str = "user"
) -> list[Utterance]:
    """The utterances of one fixture record (the ``kind`` record whose JSON contains
    ``pick``), with its top-level fields changed (None removes a field)."""
    (record,) = [
        r
        for r in raw_records(path)
        if r["type"] == kind and pick in json.dumps(r, ensure_ascii=False)
    ]
    for key, value in change.items():
        if value is None:
            record.pop(key, None)
        else:
            record[key] = value
    target = tmp_path / "v.jsonl"
    target.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    said, problems, _ = read(target)
    assert problems == []
    return said


def test_a_compaction_summary_is_never_user_by_flag_or_by_text(tmp_path: Path) -> None:
    pick = "This session is being continued"
    # older versions wrote the summary without the flags: its opening gives it away
    flags = {"isCompactSummary": None, "isVisibleInTranscriptOnly": None}
    assert _variant(INJECTED, pick, flags, tmp_path) == []
    # the flag alone is enough, whatever the summary says
    (record,) = [r for r in raw_records(INJECTED) if pick in json.dumps(r)]
    message = {"role": "user", "content": "Summary: the login page was fixed."}
    assert _variant(INJECTED, pick, {"message": message}, tmp_path) == []
    only_flag = {"message": message, "isVisibleInTranscriptOnly": None}
    assert _variant(INJECTED, pick, only_flag, tmp_path) == []
    without = {"message": message, **flags}
    assert [u.text for u in _variant(INJECTED, pick, without, tmp_path)] == [
        "Summary: the login page was fixed."
    ]
    assert record["isCompactSummary"] is True


def test_a_record_from_another_origin_is_not_user(tmp_path: Path) -> None:
    pick = "继续，顺便把 README 更新一下"
    human = _variant(INJECTED, pick, {"origin": {"kind": "human"}}, tmp_path)
    assert [u.role for u in human] == [Role.USER]
    assert _variant(INJECTED, pick, {"origin": {"kind": "task-notification"}}, tmp_path) == []
    assert _variant(INJECTED, pick, {"isMeta": True}, tmp_path) == []


def test_only_a_queued_prompt_attachment_is_user(tmp_path: Path) -> None:
    pick = "CHANGELOG 用英文写"
    (record,) = [
        r
        for r in raw_records(INJECTED)
        if r["type"] == "attachment" and pick in json.dumps(r, ensure_ascii=False)
    ]
    assert [u.text for u in _variant(INJECTED, pick, {}, tmp_path, "attachment")] == [pick]
    for mode, origin in (("task-notification", None), ("prompt", {"kind": "peer"})):
        attachment = {**record["attachment"], "commandMode": mode}
        if origin:
            attachment["origin"] = origin
        changed = {"attachment": attachment}
        assert _variant(INJECTED, pick, changed, tmp_path, "attachment") == [], mode
    # another attachment type is context, even one that carries the same field
    other = {**record["attachment"], "type": "edited_text_file"}
    assert _variant(INJECTED, pick, {"attachment": other}, tmp_path, "attachment") == []
