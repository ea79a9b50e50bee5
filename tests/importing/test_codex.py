"""The Codex rollout reader: mapping rules, incremental reads and damaged input.

Fixtures and their provenance: ``tests/fixtures/transcripts/codex/SOURCES.md``.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from shared.importing import formats
from shared.importing.formats import codex
from shared.importing.formats.codex import READER
from shared.importing.records import Problem, ReadState, Role, Utterance

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts" / "codex"
TMP_ID = "0199c0de-0000-7000-8000-00000000abcd"


def fixture(kind: str) -> Path:
    (path,) = (FIXTURES / kind).glob("rollout-*.jsonl")
    return path


def read(
    path: Path, state: ReadState | None = None, *, final: bool = False
) -> tuple[list[Utterance], list[Problem], ReadState]:
    state = state if state is not None else ReadState()
    with path.open("rb") as handle:
        out = list(READER.read(handle, str(path), state, final=final))
    said = [item for item in out if isinstance(item, Utterance)]
    problems = [item for item in out if isinstance(item, Problem)]
    return said, problems, state


def by_role(said: list[Utterance], role: Role) -> list[Utterance]:
    return [u for u in said if u.role == role]


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def line(kind: str, payload: dict[str, Any], ts: str = "2026-03-05T10:00:00.000Z") -> bytes:
    return json.dumps({"timestamp": ts, "type": kind, "payload": payload}).encode() + b"\n"


def meta(session: str = TMP_ID) -> bytes:
    return line("session_meta", {"id": session, "timestamp": "2026-03-05T10:00:00.000Z"})


def rollout(tmp_path: Path, *lines: bytes) -> Path:
    path = tmp_path / f"rollout-2026-03-05T11-00-00-{TMP_ID}.jsonl"
    path.write_bytes(b"".join(lines))
    return path


def call(call_id: str, command: str, name: str = "shell") -> bytes:
    args = json.dumps({"command": ["bash", "-lc", command]})
    return line(
        "response_item",
        {"type": "function_call", "name": name, "arguments": args, "call_id": call_id},
    )


def output(call_id: str, out: Any) -> bytes:
    return line(
        "response_item", {"type": "function_call_output", "call_id": call_id, "output": out}
    )


# ------------------------------------------------------------------ the format


def test_reader_is_registered_under_codex() -> None:
    assert formats.reader("codex") is READER
    assert READER.name == "codex"


def test_matches_only_rollout_jsonl_names() -> None:
    assert READER.matches(Path("sessions/2026/01/02/rollout-2026-01-02T18-39-45-x.jsonl"))
    assert not READER.matches(Path("history.jsonl"))
    assert not READER.matches(Path("rollout-2026-01-02.json"))


# ---------------------------------------------------------------- user text


def test_real_rollout_has_one_user_utterance_for_the_typed_prompt() -> None:
    said, problems, state = read(fixture("real"))
    (user,) = by_role(said, Role.USER)
    assert user.text == "what is current repository about? summarize purpuse and explain goals"
    # Line 4 is the same text as a user-role response item; line 5, the event, is the source.
    assert (user.record_id, user.line, user.ts) == ("l5", 5, "2026-01-02T16:39:45.350Z")
    assert problems == []
    assert state.session_id == "019b7f94-51b4-7593-922e-ba12b5b73b52"


@pytest.mark.parametrize("kind", ["real", "current", "legacy", "oct2025"])
def test_exactly_one_user_utterance_per_typed_message(kind: str) -> None:
    said, _, _ = read(fixture(kind))
    users = [u.text.split("\n[image]")[0] for u in by_role(said, Role.USER)]
    typed = [
        r["payload"]["message"]
        for r in records(fixture(kind))
        if r.get("type") == "event_msg"
        and r["payload"]["type"] == "user_message"
        and r["payload"].get("kind", "plain") == "plain"
    ]
    if kind == "legacy":  # no events before the wrapper: the one typed prompt of the file
        typed = ["列出 src 目录里的文件"]
    assert users == typed
    assert len(users) >= 1


def test_user_text_keeps_chinese_and_marks_images_without_their_data() -> None:
    said, _, _ = read(fixture("current"))
    texts = [u.text for u in by_role(said, Role.USER)]
    assert texts == [
        "请把购物车的总价改成含税价格，并补上测试。",
        "Does the receipt look right now?\n[image]",
    ]
    assert not any("base64" in u.text or "iVBOR" in u.text for u in said)


INJECTED = (
    "<environment_context>",
    "AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<user_instructions>",
    "<permissions instructions>",
    "<user_shell_command>",
    "## Skills",
    "taxed totals; src/cart.py was fixed",  # the compacted summary
    "gpt-5-codex",  # turn_context
)


@pytest.mark.parametrize("kind", ["real", "current", "legacy", "oct2025"])
def test_injected_context_is_never_said_by_anyone(kind: str) -> None:
    said, _, _ = read(fixture(kind))
    for utterance in said:
        assert not any(marker in utterance.text for marker in INJECTED), utterance


def test_oct_2025_events_of_kind_environment_context_are_not_user_text() -> None:
    said, problems, _ = read(fixture("oct2025"))
    assert [(u.role, u.text) for u in said] == [
        (Role.USER, "fix the flaky test"),
        (Role.AGENT, "Fixed: the test now waits for the server."),
    ]
    assert problems == []


def test_injected_text_in_a_user_message_event_is_dropped_even_without_kind(
    tmp_path: Path,
) -> None:
    path = rollout(
        tmp_path,
        meta(),
        line(
            "event_msg",
            {"type": "user_message", "message": "<user_instructions>x</user_instructions>"},
        ),
        line("event_msg", {"type": "user_message", "message": "# AGENTS.md instructions for /r"}),
        line("event_msg", {"type": "user_message", "message": "real words", "images": []}),
    )
    said, _, _ = read(path)
    assert [(u.role, u.text, u.record_id) for u in said] == [(Role.USER, "real words", "l4")]


def test_legacy_rollout_reads_user_text_from_bare_items() -> None:
    said, problems, state = read(fixture("legacy"))
    assert [(u.record_id, u.role, u.text) for u in said] == [
        ("l5", Role.USER, "列出 src 目录里的文件"),
        ("l7", Role.TOOL_USE, "ls src"),
        ("l8", Role.TOOL_RESULT, "cart.py\nold.py\n"),
        ("l9", Role.AGENT, "src 里有 cart.py 和 old.py。"),
        ("l10", Role.TOOL_USE, "apply_patch: delete src/old.py"),
        ("l11", Role.USER_ACTION, "rejected the agent's shell call"),
    ]
    assert all(u.ts is None for u in said)  # legacy lines carry no timestamp
    assert {u.session_id for u in said} == {"5973b6c0-94b8-487b-a530-2aeb6098ae0e"}
    assert problems == []  # the {"record_type":"state"} lines are bookkeeping
    assert state.line == 11


# ------------------------------------------------------- agent, tools, actions


def test_current_rollout_maps_every_record() -> None:
    said, problems, state = read(fixture("current"))
    got = [(u.record_id, u.role, u.tool_name, u.tool_use_id, u.is_error, u.text) for u in said]
    assert got == [
        ("l6", Role.USER, None, None, False, "请把购物车的总价改成含税价格，并补上测试。"),
        ("l10", Role.TOOL_USE, "shell", "call_A1", False, "rg -n total src/cart.py"),
        ("l11", Role.TOOL_RESULT, "shell", "call_A1", False, "12:    total = sum(prices)\n"),
        ("l13", Role.TOOL_USE, "shell", "call_A2", False, "python -m pytest -q"),
        (
            "l14",
            Role.TOOL_RESULT,
            "shell",
            "call_A2",
            True,
            "F\nNameError: name 'TAX_RATE' is not defined\n1 failed\n",
        ),
        ("l16", Role.AGENT, None, None, False, "测试失败了：税率常量缺失。我来修复。"),
        (
            "l17",
            Role.TOOL_USE,
            "apply_patch",
            "call_A3",
            False,
            "apply_patch: update src/cart.py, add tests/test_tax.py",
        ),
        (
            "l18",
            Role.TOOL_RESULT,
            "apply_patch",
            "call_A3",
            False,
            "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following "
            "files:\nM src/cart.py\nA tests/test_tax.py\n",
        ),
        (
            "l19",
            Role.TOOL_USE,
            "update_plan",
            "call_A4",
            False,
            '{"plan":[{"step":"修复总价","status":"completed"},'
            '{"step":"推送分支","status":"in_progress"}]}',
        ),
        ("l20", Role.TOOL_RESULT, "update_plan", "call_A4", False, "Plan updated"),
        ("l21", Role.TOOL_USE, "shell", "call_A5", False, "git push origin main"),
        ("l22", Role.USER_ACTION, "shell", "call_A5", False, "rejected the agent's shell call"),
        ("l23", Role.USER_ACTION, None, None, False, "interrupted the agent"),
        ("l24", Role.USER_ACTION, None, None, False, "ran a shell command: git status --short"),
        ("l26", Role.USER, None, None, False, "Does the receipt look right now?\n[image]"),
        ("l28", Role.TOOL_USE, "local_shell", "call_A6", False, "cat receipt.txt"),
        ("l29", Role.TOOL_RESULT, "local_shell", "call_A6", False, "Total: 10.80\n"),
        ("l30", Role.TOOL_USE, "web_search", None, False, "VAT rate Germany"),
        ("l31", Role.AGENT, None, None, False, "Yes: the receipt shows the taxed total."),
    ]
    assert problems == []
    assert state.emitted == len(said) == 19
    assert [u.ts for u in said][:2] == ["2026-03-02T09:15:02.000Z", "2026-03-02T09:15:05.000Z"]


def test_agent_text_comes_once_from_response_items_not_from_events() -> None:
    said, _, _ = read(fixture("current"))
    assistant_items = [
        r
        for r in records(fixture("current"))
        if r["type"] == "response_item" and r["payload"].get("role") == "assistant"
    ]
    agent_events = [
        r
        for r in records(fixture("current"))
        if r["type"] == "event_msg" and r["payload"]["type"] == "agent_message"
    ]
    assert len(agent_events) == len(assistant_items) == 2
    assert len(by_role(said, Role.AGENT)) == 2
    assert "Looking at the cart module" not in " ".join(u.text for u in said)  # reasoning


def test_a_rejected_call_is_a_user_action_not_a_tool_result() -> None:
    said, _, _ = read(fixture("current"))
    about_push = [u for u in said if u.tool_use_id == "call_A5"]
    assert [u.role for u in about_push] == [Role.TOOL_USE, Role.USER_ACTION]


def test_only_an_interruption_aborts_as_a_user_action(tmp_path: Path) -> None:
    path = rollout(
        tmp_path,
        meta(),
        line("event_msg", {"type": "turn_aborted", "reason": "replaced"}),
        line("event_msg", {"type": "turn_aborted", "reason": "review_ended"}),
        line("event_msg", {"type": "turn_aborted", "reason": "interrupted"}),
    )
    said, problems, _ = read(path)
    assert [(u.role, u.text, u.line) for u in said] == [
        (Role.USER_ACTION, "interrupted the agent", 4)
    ]
    assert problems == []


@pytest.mark.parametrize(
    ("out", "text", "is_error"),
    [
        ('{"output":"boom\\n","metadata":{"exit_code":2,"duration_seconds":0.1}}', "boom\n", True),
        (
            "Exit code: 127\nWall time: 0 seconds\nOutput:\nnope",
            "Exit code: 127\nWall time: 0 seconds\nOutput:\nnope",
            True,
        ),
        ({"content": "err: timeout", "success": False}, "err: timeout", True),
        (
            [
                {"type": "input_text", "text": "shot"},
                {"type": "input_image", "image_url": "data:x"},
            ],
            "shot\n[image]",
            False,
        ),
        ('{"output": "not exec json"}', '{"output": "not exec json"}', False),
    ],
)
def test_tool_output_shapes(tmp_path: Path, out: Any, text: str, is_error: bool) -> None:
    path = rollout(tmp_path, meta(), call("c1", "make"), output("c1", out))
    said, problems, _ = read(path)
    result = said[-1]
    assert (result.role, result.text, result.is_error, result.tool_name) == (
        Role.TOOL_RESULT,
        text,
        is_error,
        "shell",
    )
    assert problems == []


def test_tool_use_summaries(tmp_path: Path) -> None:
    patch = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n*** End Patch"
    path = rollout(
        tmp_path,
        meta(),
        line(
            "response_item",
            {
                "type": "function_call",
                "name": "shell_command",
                "arguments": json.dumps({"command": "ls\n  -la"}),
                "call_id": "1",
            },
        ),
        line(
            "response_item",
            {
                "type": "function_call",
                "name": "apply_patch",
                "arguments": json.dumps({"input": patch}),
                "call_id": "2",
            },
        ),
        line(
            "response_item",
            {"type": "function_call", "name": "mcp__x", "arguments": "not json", "call_id": "3"},
        ),
        call("4", "x" * 5000),
    )
    said, _, _ = read(path)
    assert [u.text for u in said[:3]] == [
        "ls -la",
        "apply_patch: update a.py, move to b.py",
        "not json",
    ]
    assert len(said[3].text) == 1000 and said[3].text.endswith("…")


# ------------------------------------------------------------ ids and sessions


def test_ids_are_stable_across_reads_and_unique() -> None:
    first, _, _ = read(fixture("current"))
    second, _, _ = read(fixture("current"))
    assert first == second
    assert len({u.record_id for u in first}) == len(first)


def test_a_line_with_several_utterances_numbers_them(tmp_path: Path) -> None:
    shell = "<user_shell_command>\n<command>\n{}\n</command>\n</user_shell_command>"
    path = rollout(
        tmp_path,
        meta(),
        line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": shell.format("ls")},
                    {"type": "input_text", "text": shell.format("pwd")},
                ],
            },
        ),
    )
    said, _, _ = read(path)
    assert [(u.record_id, u.text) for u in said] == [
        ("l2#1", "ran a shell command: ls"),
        ("l2#2", "ran a shell command: pwd"),
    ]


def test_session_id_is_known_when_a_read_starts_mid_file() -> None:
    path = fixture("current")
    whole, _, _ = read(path)
    offset = sum(len(line) for line in path.read_bytes().splitlines(keepends=True)[:19])
    said, _, state = read(path, ReadState(offset=offset, line=19))
    assert [u.record_id for u in said] == [u.record_id for u in whole if u.line > 19]
    # No session_meta in this read: the uuid in the file name, which equals it.
    assert {u.session_id for u in said} == {"0199a3e1-7c2d-7b40-9f3e-2c5d8e4a1b60"}
    assert state.session_id == "0199a3e1-7c2d-7b40-9f3e-2c5d8e4a1b60"


def test_session_id_kept_in_state_wins_over_the_file_name(tmp_path: Path) -> None:
    path = rollout(tmp_path, meta("0199c0de-1111-7000-8000-000000000001"))
    _, _, state = read(path)  # keeps the meta's id, which differs from the name's
    path.write_bytes(
        path.read_bytes() + line("event_msg", {"type": "user_message", "message": "hi"})
    )
    said, _, _ = read(path, roundtrip(state))
    assert [(u.session_id, u.line) for u in said] == [("0199c0de-1111-7000-8000-000000000001", 2)]


def test_a_forks_second_session_meta_does_not_change_the_session(tmp_path: Path) -> None:
    path = rollout(
        tmp_path,
        meta("0199c0de-2222-7000-8000-000000000002"),
        meta("0199c0de-3333-7000-8000-000000000003"),  # the parent's, copied by a fork
        line("event_msg", {"type": "user_message", "message": "hi"}),
    )
    said, _, _ = read(path)
    assert [u.session_id for u in said] == ["0199c0de-2222-7000-8000-000000000002"]


# ------------------------------------------------------------- incremental reads


def split_copy(source: Path, tmp_path: Path, lines: int) -> tuple[Path, bytes]:
    """Copy the first ``lines`` lines of ``source``; return the copy and the rest."""
    raw = source.read_bytes().splitlines(keepends=True)
    path = tmp_path / source.name
    path.write_bytes(b"".join(raw[:lines]))
    return path, b"".join(raw[lines:])


def roundtrip(state: ReadState) -> ReadState:
    """The state as the import run stores it between runs (JSON)."""
    return ReadState(**json.loads(json.dumps(asdict(state))))


@pytest.mark.parametrize("kind", ["current", "legacy", "real"])
@pytest.mark.parametrize("cut", [1, 9, 13, 17])
def test_two_incremental_reads_equal_one_whole_read(tmp_path: Path, kind: str, cut: int) -> None:
    whole, _, whole_state = read(fixture(kind))
    path, rest = split_copy(fixture(kind), tmp_path, cut)
    first, _, state = read(path)
    path.write_bytes(path.read_bytes() + rest)
    second, _, state = read(path, roundtrip(state))
    assert first + second == whole
    assert (state.offset, state.line, state.emitted) == (
        whole_state.offset,
        whole_state.line,
        whole_state.emitted,
    )


def test_tool_names_resolve_across_an_incremental_boundary(tmp_path: Path) -> None:
    path, rest = split_copy(fixture("current"), tmp_path, 13)  # ends with the pytest call
    _, _, state = read(path)
    path.write_bytes(path.read_bytes() + rest)
    said, _, _ = read(path, roundtrip(state))
    assert (said[0].record_id, said[0].tool_name, said[0].is_error) == ("l14", "shell", True)
    # The name comes from the stored state: without its map the result is anonymous.
    bare = ReadState(offset=state.offset, line=state.line, session_id=state.session_id)
    said, _, _ = read(path, bare)
    assert (said[0].record_id, said[0].tool_name) == ("l14", None)


def test_tool_name_map_is_bounded(tmp_path: Path) -> None:
    lines = [meta()]
    lines += [call(f"c{i}", "true") for i in range(300)]
    lines += [output("c0", "ok"), output("c299", "ok")]
    said, _, state = read(rollout(tmp_path, *lines))
    assert sum(key.startswith("tool:") for key in state.extra) == 256
    assert [u.tool_name for u in said[-2:]] == [None, "shell"]


def test_a_last_line_without_newline_waits_for_the_next_run(tmp_path: Path) -> None:
    done = meta() + line("event_msg", {"type": "user_message", "message": "one"})
    last = line("event_msg", {"type": "user_message", "message": "two"})
    path = rollout(tmp_path, done, last[:30])
    said, problems, state = read(path)
    assert [u.text for u in said] == ["one"]
    assert problems == []
    assert (state.offset, state.line) == (len(done), 2)

    said, problems, state = read(path, state)  # nothing new yet
    assert (said, problems) == ([], [])

    path.write_bytes(done + last)
    said, problems, state = read(path, state)
    assert [(u.text, u.record_id) for u in said] == [("two", "l3")]
    assert (state.offset, state.line, state.emitted) == (len(done + last), 3, 2)


def test_final_read_takes_a_whole_last_line_without_newline(tmp_path: Path) -> None:
    last = line("event_msg", {"type": "user_message", "message": "two"})
    path = rollout(tmp_path, meta(), last[:-1])
    said, _, state = read(path, final=True)
    assert [(u.text, u.line) for u in said] == [("two", 2)]
    # Codex finishes the line later: its newline is not a new line, the next one is line 3.
    path.write_bytes(
        path.read_bytes() + b"\n" + line("event_msg", {"type": "user_message", "message": "three"})
    )
    said, problems, state = read(path, roundtrip(state))
    assert [(u.text, u.record_id) for u in said] == [("three", "l3")]
    assert problems == []


def test_final_read_reports_a_cut_last_line_and_keeps_it() -> None:
    path = fixture("damaged")
    said, problems, state = read(path, final=True)
    assert str(problems[-1]).startswith(f"{path}:14: incomplete last line: invalid JSON")
    assert [u.record_id for u in said] == ["l2", "l12", "l13"]
    assert state.line == 13
    assert state.offset < path.stat().st_size


# ---------------------------------------------------------------- bad input


def test_damaged_rollout_reports_each_problem_and_reads_on() -> None:
    path = fixture("damaged")
    said, problems, state = read(path)
    assert [(u.record_id, u.role, u.text) for u in said] == [
        ("l2", Role.USER, "hello"),
        ("l12", Role.TOOL_RESULT, "ok\n"),
        ("l13", Role.AGENT, "still reading"),
    ]
    assert said[1].tool_name is None  # its call was made before this file
    got = [(p.line, p.reason.split(":")[0].split(" (")[0]) for p in problems]
    assert got == [
        (3, "invalid JSON"),
        (4, "not valid UTF-8"),
        (5, "not a JSON object"),
        (6, "unknown line type 'world_state' skipped"),
        (7, "unknown response item 'hologram_call' skipped"),  # line 8 repeats it: once
        (9, "unknown event 'collab_waiting_begin' skipped"),
        (10, "function_call without a name or a call_id"),
        (11, "event_msg line without an object payload"),
    ]
    assert all(str(p).startswith(f"{path}:{p.line}: ") for p in problems if p.line != 4)
    assert str(problems[1]) == f"{path}:4:107: not valid UTF-8"  # line:column
    assert state.line == 13  # the cut line 14 is left for later
    assert state.emitted == 3


def test_unknown_types_are_reported_once_per_file_across_runs(tmp_path: Path) -> None:
    odd = line("response_item", {"type": "hologram", "x": 1})
    path = rollout(tmp_path, meta(), odd)
    _, problems, state = read(path)
    assert len(problems) == 1
    path.write_bytes(path.read_bytes() + odd)
    _, problems, _ = read(path, roundtrip(state))
    assert problems == []


def test_an_over_long_line_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codex, "_MAX_LINE_BYTES", 200)
    monkeypatch.setattr(codex, "_SKIP_CHUNK", 16)
    big = line("event_msg", {"type": "user_message", "message": "x" * 1000})
    path = rollout(
        tmp_path, meta(), big, line("event_msg", {"type": "user_message", "message": "after"})
    )
    said, problems, state = read(path)
    assert [(p.line, p.reason) for p in problems] == [(2, "line longer than 200 bytes, skipped")]
    assert [(u.text, u.line) for u in said] == [("after", 3)]
    assert state.offset == path.stat().st_size


def test_a_tool_search_is_a_tool_use_and_its_findings_a_result(tmp_path: Path) -> None:
    # The records of a real mid-2026 rollout (EntityProcess/agentv, MIT, Entire CLI
    # checkpoint 0b/9f2ac6f3aa/3/full.jsonl lines 102-103), descriptions shortened.
    search = {
        "type": "tool_search_call",
        "id": "tsc_07f37ffd3eee0c81016a43803875008191841d459d37cefef4",
        "call_id": "call_xgiF3okhPZUNAiIvBaOqj1gU",
        "status": "completed",
        "execution": "client",
        "arguments": {
            "query": "deepwiki read_wiki_structure read_wiki_contents ask_question repository",
            "limit": 5,
        },
    }
    found = {
        "type": "tool_search_output",
        "call_id": "call_xgiF3okhPZUNAiIvBaOqj1gU",
        "status": "completed",
        "execution": "client",
        "tools": [{"type": "namespace", "name": "mcp__deepwiki", "description": "DeepWiki […]"}],
    }
    path = rollout(tmp_path, meta(), line("response_item", search), line("response_item", found))
    said, problems, _ = read(path)
    assert problems == []
    assert [(u.role, u.tool_name, u.tool_use_id, u.text) for u in said] == [
        (
            Role.TOOL_USE,
            "tool_search",
            "call_xgiF3okhPZUNAiIvBaOqj1gU",
            "deepwiki read_wiki_structure read_wiki_contents ask_question repository",
        ),
        (Role.TOOL_RESULT, "tool_search", "call_xgiF3okhPZUNAiIvBaOqj1gU", "found: mcp__deepwiki"),
    ]


def test_an_expanded_command_template_keeps_only_the_typed_input(tmp_path: Path) -> None:
    # A Spec Kit command as Codex records it (dsissoko/atelier, MIT, a 2026-01-09 rollout;
    # the template's body shortened): the person typed only the feature description.
    from shared.importing.envelope import Cleaner, to_event

    template = (
        "\n## User Input\n\n```text\n{}\n```\n\n"
        "You **MUST** consider the user input before proceeding (if not empty).\n\n"
        "## Outline\n\nThe text the user typed after `/speckit.specify` in the triggering "
        "message **is** the feature description. Do not ask the user to repeat it unless "
        "they provided an empty command.\n"
    )
    typed = "Atelier est un template clonable pour initier un produit logiciel."
    path = rollout(
        tmp_path,
        meta(),
        line("event_msg", {"type": "user_message", "message": template.format(typed)}),
        line("event_msg", {"type": "user_message", "message": template.format("")}),
        line("event_msg", {"type": "user_message", "message": "## User Input\n\nmy notes"}),
    )
    said, problems, _ = read(path)
    assert problems == [] and len(said) == 3
    texts = [to_event("codex", u, u.ts or "", Cleaner())["payload"]["text"] for u in said]
    # the template's words ("Do not ask the user to repeat it") are nobody's instruction
    assert texts == [typed, "", "## User Input\n\nmy notes"]
