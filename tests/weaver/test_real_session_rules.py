"""The scanner and updater rules written for real sessions (issue #29), each beside a near
miss: what the agent ran, durable instructions, memory requests, trailing situations and
the same rule in two languages."""

from __future__ import annotations

import pytest

from shared.formats.board import Board, parse_board
from shared.language.markers import candidate_rule, durable_marker
from shared.language.text import own_words, token_set
from shared.weaver.concepts import same_instruction
from shared.weaver.judging.interfaces import JudgeContext, Judgement, SessionMemory
from shared.weaver.judging.rules import RuleJudge
from shared.weaver.scan.actions import action_evidence, commands_run, head, line_actions
from shared.weaver.scan.turns import Turn, TurnRow
from shared.weaver.update.line_judge import compose_line


def _turn(*commands: str, tool: str = "Bash") -> Turn:
    rows: list[TurnRow] = [{"type": "agent.tool_use", "text": f"{tool} {c}"} for c in commands]
    return {"date": "", "line": 1, "id": "e", "ts": "", "kind": "x", "session_key": "s",
            "type": "channel.message", "text": "go on", "rows": rows}  # fmt: skip


def _rule_judge(turn: Turn, board: Board) -> list[Judgement]:
    """The rule judge's judgements of ``turn``, first of its session."""
    return RuleJudge().judge(turn, SessionMemory(), board, JudgeContext())


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("go test -v ./...", ("go", "test")),
        ("mise run fmt", ("mise", "run", "fmt")),
        ("golangci-lint run", ("golangci-lint", "run")),
        ("pnpm install --frozen-lockfile", ("pnpm", "install")),
        ("fmt.Println", None),  # a call in code, not a command
        ("src/app.py", None),
    ],
)
def test_a_command_span_is_compared_by_its_head(span: str, expected: object) -> None:
    assert head(span) == expected


def test_a_line_prescribes_its_commands_and_forbids_the_ones_after_a_negation() -> None:
    acts = line_actions("When installing packages, use `pnpm add` rather than `npm install`")
    assert acts.prescribed == (("pnpm", "add"),) and acts.forbidden == (("npm", "install"),)
    zh = line_actions("安装依赖时用 `uv add`，不要用 `pip install`")
    assert zh.prescribed == (("uv", "add"),) and zh.forbidden == (("pip", "install"),)
    # A kind of step without a command: any of its commands, only where the line's
    # trigger is met.
    steps = line_actions("Before deploying, run the tests")
    assert ("pytest",) in steps.prescribed and not steps.explicit
    assert not line_actions("Keep functions short")


def test_commands_are_read_from_shell_tool_calls_only() -> None:
    turn = _turn("cd cli && go test ./... -run TestX")
    assert commands_run(turn) == [("cd", "cli", "go", "test", "./...", "-run", "testx")]
    assert commands_run(_turn("go test ./...", tool="Read")) == []


def test_what_the_agent_ran_follows_or_breaks_a_line() -> None:
    actions = [
        line_actions("Run tests after every change with `go test -v ./...`"),
        line_actions("Use `pnpm add` rather than `npm install`"),
        line_actions("Before committing, always run `mise run lint`"),
    ]
    found = action_evidence(_turn("go test ./...", "npm install lodash"), actions, set)
    assert [(e.index, e.followed, e.command) for e in found] == [
        (0, True, "go test"),
        (1, False, "npm install"),
    ]
    # The lint line's situation is committing: linting without a commit is no evidence.
    assert not action_evidence(_turn("mise run lint"), actions[2:], set)
    assert action_evidence(_turn("mise run lint", "git commit -m x"), actions[2:], set)


@pytest.mark.parametrize(
    "text",
    [
        "From now on, always run `ruff check` before you commit.",
        "make sure to memorize the setup and ensure this never repeats again.",
        "Please dont just push through the migrations by executing them on the server.",
        "can you update CLAUDE.md that we should always run `mise run fmt`",
        "提交之前一定要先运行 `ruff check`，记住这一条，以后都这样做。",
        "Stop adding emojis to the status reports, I don't want them there.",
    ],
)
def test_durable_instructions(text: str) -> None:
    assert durable_marker(text)


@pytest.mark.parametrize(
    "text",
    [
        "can you add a test so we don't break this in the future again?",
        "The function never returns None, so the check is dead code.",
        "帮我给我的这些脚本增加注释吧，我希望你可以帮我编写一下",
        "我这样的参数，应该如何设置参数呢",
        "测试对话中，每次点击侧边框其他选项，再点击测试对话后，刷新聊天框",  # the app's spec
    ],
)
def test_task_requests_are_not_durable(text: str) -> None:
    assert durable_marker(text) is None


def test_a_memory_request_is_not_part_of_the_rule_and_a_trailing_situation_leads() -> None:
    en = "Fix the checkout test. From now on, always run `ruff check` before you commit, and remember this for every session."  # noqa: E501
    assert candidate_rule(en) == ("before you commit", "run `ruff check`")
    zh = "提交之前一定要先运行 `ruff check`，记住这一条，以后都这样做。"
    assert candidate_rule(zh) == ("提交之前", "一定要先运行 `ruff check`")
    assert compose_line("before you commit", "run `ruff check`", None, "") == (
        "- Before you commit, run `ruff check`"
    )
    assert compose_line("提交之前", "一定要先运行 `ruff check`", None, "当") == (
        "- 提交之前，一定要先运行 `ruff check`"
    )
    # A situation without its own connective keeps the board's shape.
    assert compose_line("a reply opens with filler", "lead with the answer", None, "") == (
        "- When a reply opens with filler, lead with the answer"
    )


def test_the_same_code_spans_make_one_instruction_across_languages() -> None:
    assert same_instruction(
        "before you commit run `ruff check`", "提交之前 一定要先运行 `ruff check`"
    )
    assert not same_instruction("before you commit run `ruff check`", "提交之前 运行 `pytest`")


def test_markers_are_read_in_the_users_own_lines_not_in_what_they_pasted() -> None:
    text = "why is this failing?\n```\nError: don't call this twice\n```\n    at run (x.js:1)"
    assert own_words(text) == "why is this failing?"


def test_a_user_naming_a_lines_command_relates_to_that_line() -> None:
    from shared.weaver.scan.actions import commands_named

    actions = [
        line_actions("Before committing, always run `mise run fmt`"),
        line_actions("Run `go test ./...` after changes"),
        line_actions("Before deploying, run the tests"),  # a kind of step: never named
    ]
    assert commands_named("we should always run `mise run fmt` too", actions) == {0}
    assert commands_named("why didn't you run go test first?", actions) == {1}
    assert commands_named("did the tests pass?", actions) == set()


def test_asking_again_for_a_rule_the_board_holds_weakens_it_and_adds_no_line() -> None:

    board = parse_board(
        "# B\n\n- Before committing changes, always run `mise run fmt` [[lesson-fmt]]\n"
    )
    turn = _turn()
    turn["rows"] = []
    turn["text"] = "can you update CLAUDE.md that we should always run `mise run fmt`"
    got = _rule_judge(turn, board)
    assert [(j.line.marker if j.line else None, j.trajectory, j.kind) for j in got] == [
        ("lesson-fmt", "WEAKENING", "recall-miss")
    ]
    # The same words without a standing instruction are a question about the line.
    turn["text"] = "did you run `mise run fmt`?"
    assert all(j.trajectory != "WEAKENING" for j in RuleJudge().judge(
        turn, SessionMemory(), board, JudgeContext()))  # fmt: skip


def test_a_shell_block_in_the_agents_reply_is_a_command_it_ran() -> None:
    turn = _turn()
    turn["rows"] = [{"type": "agent.result", "text": "Now: ```bash bun test ``` […] done"}]
    assert commands_run(turn) == [("bun", "test")]
    turn["rows"] = [{"type": "agent.result", "text": "You could run bun test yourself."}]
    assert commands_run(turn) == []


def test_what_a_conditional_line_forbids_breaks_it_only_in_its_situation() -> None:
    acts = [
        line_actions(
            "When testing in a session, run `bun run ./src/cli.ts`, not the global `minsky`"
        )
    ]
    assert acts[0].conditional and acts[0].forbidden == (("minsky",),)
    assert action_evidence(_turn("minsky tasks list"), acts, set) == []
    broken = action_evidence(_turn("minsky tasks list"), acts, lambda: {0})
    assert [(e.followed, e.command) for e in broken] == [(False, "minsky")]


@pytest.mark.parametrize(
    ("reply", "breaks"),
    [
        ("Done. Would you like me to update the rule file with this change?", True),
        ("已创建迁移文件。下一步可以：1. 应用数据库迁移到 Supabase", True),
        ("Updated the rule file and pushed the change.", False),
        ("Would you like me to explain it? No: here is the fix, applied.", False),
    ],
)
def test_an_offer_closing_the_reply_breaks_a_line_that_says_act_without_asking(
    reply: str, breaks: bool
) -> None:
    from shared.language import lexicon
    from shared.weaver.scan.actions import asks_instead

    line = "Do not ask for confirmation on obvious next steps; execute the next step"
    assert lexicon.matcher("no_confirmation").search(line)
    assert lexicon.matcher("no_confirmation").search("如果需要更新supabase，直接更新，无需额外确认")
    turn = _turn()
    turn["rows"] = [{"type": "agent.result", "text": reply}]
    assert bool(asks_instead(turn, [0], [frozenset()])) is breaks
    assert asks_instead(turn, [], [frozenset()]) == []
    # A line with a situation of its own is broken only by an offer about it.
    supabase = [token_set("supabase")]
    assert bool(asks_instead(turn, [0], supabase)) is (breaks and "Supabase" in reply)


def test_a_long_row_keeps_its_head_and_its_tail() -> None:
    from shared.weaver.scan.turns import ROW_TEXT_CHARS, row_text

    text = "Start. " + "x" * 2000 + " Shall I commit it?"
    row = row_text({"type": "agent.result", "payload": {"text": text}})
    assert len(row) <= ROW_TEXT_CHARS and row.startswith("Start.") and row.endswith("commit it?")


def test_editing_the_file_a_line_says_to_update_follows_it_and_a_forbidden_one_breaks_it() -> None:
    actions = [
        line_actions("For every task, add a concise entry to `CHANGELOG.md`"),
        line_actions("Never edit `generated/api.ts` by hand; regenerate it"),
        line_actions("Use `log/slog` for logging"),  # no file to write: nothing to follow
    ]
    assert actions[0].files == ("changelog.md",) and actions[1].forbidden_files == (
        "generated/api.ts",
    )
    turn = _turn()
    turn["rows"] = [
        {"type": "agent.tool_use", "text": "Edit /repo/CHANGELOG.md"},
        {"type": "agent.tool_use", "text": "Write /repo/generated/api.ts"},
    ]
    found = action_evidence(turn, actions, set)
    assert [(e.index, e.followed) for e in found] == [(0, True), (1, False)]
    turn["rows"] = [{"type": "agent.tool_use", "text": "Read /repo/CHANGELOG.md"}]
    assert action_evidence(turn, actions, set) == []  # reading is not writing


# ---------------------------------------------------------------- the latest word wins

_DEPS_BOARD = (
    "# B\n\n- When adding a dependency, use `pnpm add` instead of `npm install` [[lesson-deps]]\n"
)
_CORRECTION = "no, use pnpm add instead of npm install when adding a dependency"


def _said(*texts: str) -> list[dict[str, object]]:
    """One Claude Code session's spine events: each user text, then an agent reply."""
    source = {"kind": "claude-code", "name": "claude-code", "channel_id": "claude-code"}
    out: list[dict[str, object]] = []
    for i, text in enumerate(texts):
        ts = f"2026-03-01T10:{i:02d}:00.000Z"
        out.append({"id": f"evt_u{i}", "ts": ts, "type": "channel.message", "source": source,
                    "session_key": "claude-code:s1", "payload": {"text": text}})  # fmt: skip
        out.append({"id": f"evt_a{i}", "ts": ts.replace(":00.000Z", ":30.000Z"),
                    "type": "agent.result", "source": {"kind": "runner", "name": "runner"},
                    "session_key": "claude-code:s1",
                    "payload": {"text": "Done, I added it.", "session_id": "s1"}})  # fmt: skip
    return out


def _outcomes(*texts: str) -> list[tuple[str, str]]:
    from shared.weaver.scan.scanner import scan_events

    board = parse_board(_DEPS_BOARD)
    scanned = scan_events(board, _said(*texts), date="2026-03-01")
    return [(s.fragment.source_event_id, str(s.fragment.trajectory)) for s in scanned]


@pytest.mark.parametrize(
    "take_back",
    [
        "never mind, npm install was fine",
        "Actually, that was fine all along",
        "算了，就用原来的 npm",
    ],
)
def test_a_correction_the_user_takes_back_does_not_weaken_the_line(take_back: str) -> None:
    assert _outcomes("add lodash", _CORRECTION) == [("evt_u1", "WEAKENING")]
    # Next turn, or two turns later: the latest of two contradicting turns wins.
    assert _outcomes("add lodash", _CORRECTION, take_back) == [("evt_u2", "NEUTRAL")]
    assert _outcomes("add lodash", _CORRECTION, "also add a README", take_back) == [
        ("evt_u3", "NEUTRAL")
    ]


def test_a_take_back_long_after_or_without_a_correction_changes_nothing() -> None:
    late = ("add lodash", _CORRECTION, "also add a README", "and a licence", "never mind")
    assert _outcomes(*late) == [("evt_u1", "WEAKENING")]
    assert _outcomes("add lodash", "never mind, npm install was fine") == []


def test_slices_judged_apart_merge_to_the_sequential_scan_with_a_take_back() -> None:
    from shared.weaver.judging.interfaces import JudgeContext
    from shared.weaver.scan.scanner import scan_turns
    from shared.weaver.scan.turns import build_turns

    board = parse_board(_DEPS_BOARD)
    texts = ("add lodash", _CORRECTION, "also add a README", "never mind", "add left-pad")
    turns = build_turns(_said(*texts), "2026-03-01")
    for i, turn in enumerate(turns):
        turn["line"] = i + 1  # as read from a day file
    whole = scan_turns(board, turns, JudgeContext())
    for cut in range(1, len(turns)):
        cache: dict[str, dict[str, object]] = {}
        for part in (turns[:cut], turns[cut:]):
            record: dict[str, dict[str, object]] = {}
            scan_turns(board, part, JudgeContext(), record=record)
            cache.update(record)
        merged = scan_turns(board, turns, JudgeContext(), cache=cache)
        assert [m.fragment for m in merged] == [w.fragment for w in whole], cut


# ------------------------------------------------------------------- rule-file mentions


@pytest.mark.parametrize(
    ("text", "files"),
    [
        ("as is specified by @user-preferences.mdc", {"user-preferences.mdc"}),
        ("did you read .cursor/rules/Bun_Over_Node.mdc?", {"bun_over_node.mdc"}),
        ("see .windsurf/rules/style.md and .cursorrules", {"style.md", ".cursorrules"}),
        ("follow CLAUDE.md", set()),  # the whole board's file names no line
        ("the rules are clear", set()),
        ("open notes.mdcx", set()),
    ],
)  # fmt: skip
def test_rule_files_a_user_names(text: str, files: set[str]) -> None:
    from shared.weaver.scan.rulefiles import rule_files

    assert rule_files(text) == files


def _cited_judgements(text: str) -> list[tuple[str | None, str, object]]:
    from shared.weaver.scan.rulefiles import cited_rule_files

    board = parse_board(
        "# B\n\n"
        "- On an obvious next step, act without asking for confirmation [[lesson-ask]]\n"
        "- When a test fails, debug it before reporting [[lesson-debug]]\n"
        "- Use bun instead of node for scripts [[lesson-bun]]\n"
    )
    dossiers = {
        "lesson-ask": "From .cursor/rules/user-preferences.mdc:12 - no confirmation prompts.",
        "lesson-debug": "From .cursor/rules/user-preferences.mdc:18 - debug failures.",
        "lesson-bun": "From .cursor/rules/bun_over_node.mdc:6.",
    }
    ctx = JudgeContext(dossiers=frozenset(dossiers), rule_files=cited_rule_files(dossiers))
    turn = _turn()
    turn["rows"] = []
    turn["text"] = text
    got = RuleJudge().judge(turn, SessionMemory(), board, ctx)
    return [(j.line.marker if j.line else None, str(j.trajectory), j.kind) for j in got]


def test_naming_a_rules_file_names_its_line() -> None:
    # The file holds one line on the board: naming it names the line, a recall miss.
    assert _cited_judgements("why didn't you do what @bun_over_node.mdc says?") == [
        ("lesson-bun", "WEAKENING", "recall-miss")
    ]
    # Without the file, the same complaint names no line.
    assert _cited_judgements("why didn't you do what I said?") == []


def test_a_file_of_several_rules_names_only_the_one_the_turn_also_describes() -> None:
    asking = "why didn't you act without asking, as is specified by @user-preferences.mdc"
    assert [m for m, *_ in _cited_judgements(asking)] == ["lesson-ask"]
    assert _cited_judgements("why didn't you follow @user-preferences.mdc?") == []


def test_the_context_round_trips_the_rule_files() -> None:
    from shared.weaver.judging.interfaces import JudgeContext

    ctx = JudgeContext(rule_files={"lesson-bun": frozenset({"bun_over_node.mdc"})})
    back = JudgeContext.from_json(ctx.to_json())
    assert back == ctx and back.signature() == ctx.signature()
    assert JudgeContext().signature() != ctx.signature()


# ------------------------------------------------------------------------ quoted lines


def _quoted(text: str) -> list[tuple[str | None, str]]:

    board = parse_board(
        "# B\n\n"
        "- Before committing, run the full test suite and the linter [[lesson-commit]]\n"
        "- 修改接口时，先更新接口文档再改代码 [[lesson-api]]\n"
        "- Keep pull requests small [[lesson-pr]]\n"
    )
    turn = _turn()
    turn["rows"] = []
    turn["text"] = text
    got = _rule_judge(turn, board)
    return [(j.line.marker if j.line else None, str(j.trajectory)) for j in got]


def test_quoting_a_line_names_it_in_either_language() -> None:
    assert _quoted('Always do what it says: "run the full test suite and the linter"') == [
        ("lesson-commit", "NEUTRAL")
    ]
    # A quote in a turn that neither corrects nor instructs is not looked for.
    assert _quoted('it says "run the full test suite and the linter"') == []
    assert _quoted(
        'no, the rule says "run the full test suite and the linter before committing"'
    ) == [("lesson-commit", "WEAKENING")]
    assert _quoted("不对，规则写的是「先更新接口文档再改代码」") == [("lesson-api", "WEAKENING")]


def test_a_quote_that_only_shares_a_word_names_no_line() -> None:
    assert _quoted('no, I said "the suite is flaky today"') == []


# ------------------------------------------------------- a check, then the step it guards


def _session_turn(text: str, *rows: tuple[str, str]) -> Turn:
    turn = _turn()
    turn["text"] = text
    turn["rows"] = [{"type": "agent.tool_use", "text": f"{tool} {arg}"} for tool, arg in rows]
    return turn


@pytest.mark.parametrize(
    ("previous_rows", "credited"),
    [
        # edited, then checked: the commit that follows is made after the check
        ((("Edit", "cmd/setup.go"), ("Bash", "mise run fmt 2>&1")), True),
        # checked, then edited again: the check does not cover what is committed
        ((("Bash", "mise run fmt"), ("Edit", "cmd/setup.go")), False),
        # a check with no change of its own (diagnosing the lint, say)
        ((("Bash", "mise run fmt"), ("Read", "cmd/setup.go")), False),
    ],
)
def test_a_check_of_the_previous_turns_changes_follows_a_before_committing_line(
    previous_rows: tuple[tuple[str, str], ...], credited: bool
) -> None:

    board = parse_board(
        "# B\n\n- Before committing changes, always run `mise run fmt` [[lesson-fmt]]\n"
    )
    previous = _session_turn("fix the code quality issues", *previous_rows)
    commit = _session_turn("commit this", ("Bash", "git add -A && git commit -m 'tidy'"))
    got = RuleJudge().judge(commit, SessionMemory(turn=previous), board, JudgeContext())
    strengthened = [j for j in got if j.trajectory == "STRENGTHENING"]
    assert bool(strengthened) is credited, got
    # Without the commit, nothing is credited for the check alone.
    idle = _session_turn("thanks, looks good", ("Read", "cmd/setup.go"))
    assert not any(
        j.trajectory == "STRENGTHENING"
        for j in RuleJudge().judge(idle, SessionMemory(turn=previous), board, JudgeContext())
    )


# --------------------------------------- asking for what a line prescribes, right after


@pytest.mark.parametrize(
    ("previous_rows", "text", "weakened"),
    [
        # the agent changed code and wrote no changelog; the user asks for it
        ((("Edit", "src/app.ts"),), "Please update the changelog.", True),
        ((("Edit", "src/app.ts"),), "请更新 changelog", True),
        # it did write it: asking again names the line, but nothing was skipped
        ((("Edit", "src/app.ts"), ("Edit", "CHANGELOG.md")), "Please update the changelog.", False),
        # a look over what exists, and a question, ask for nothing
        ((("Edit", "src/app.ts"),), "Please review the changelog entry.", False),
        ((("Edit", "src/app.ts"),), "did you update the changelog?", False),
        # the line's command, run already
        ((("Edit", "src/app.ts"), ("Bash", "npm run lint")), "now run `npm run lint`", False),
        ((("Edit", "src/app.ts"),), "now run `npm run lint`", True),
    ],
)  # fmt: skip
def test_asking_for_what_a_line_prescribes_after_the_agent_skipped_it(
    previous_rows: tuple[tuple[str, str], ...], text: str, weakened: bool
) -> None:

    board = parse_board(
        "# B\n\n"
        "- For every change, add an entry to `CHANGELOG.md` [[lesson-log]]\n"
        "- After editing code, run `npm run lint` [[lesson-lint]]\n"
    )
    previous = _session_turn("fix the login bug", *previous_rows)
    asked = _session_turn(text)
    got = RuleJudge().judge(asked, SessionMemory(turn=previous), board, JudgeContext())
    weak = [j for j in got if j.trajectory == "WEAKENING"]
    assert bool(weak) is weakened, got
    if weakened:
        (j,) = weak
        assert j.kind == "recall-miss" and "skipped" in j.reason, j


def test_an_edit_aider_reports_is_an_edit() -> None:
    """aider shows its edits only as its own output ("Applied edit to <file>", imported
    as a tool result): that is what the agent wrote, for a line about a file and for a
    check after changes."""
    from shared.weaver.scan.actions import checks_after_changes, files_edited

    turn = _turn()
    turn["text"] = "add the retry option"
    turn["rows"] = [
        {"type": "agent.result", "text": "I'll add it and note it in the changelog."},
        {"type": "agent.tool_result", "text": "aider Applied edit to src/retry.py"},
        {"type": "agent.tool_result", "text": "aider Applied edit to CHANGELOG.md"},
        {"type": "agent.tool_result", "text": "aider Commit 1a2b3c4 feat: retry option"},
    ]
    assert files_edited(turn) == ["src/retry.py", "changelog.md"]
    assert checks_after_changes(turn) == []  # edited, checked nothing after
    board = parse_board(
        "# B\n\n- For every change, add an entry to `CHANGELOG.md` [[lesson-log]]\n"
    )
    got = _rule_judge(turn, board)
    assert [(j.line.marker if j.line else None, j.trajectory) for j in got] == [
        ("lesson-log", "STRENGTHENING")
    ]


def test_a_file_a_line_lists_after_a_colon_is_named_not_written() -> None:
    layout = line_actions(
        "Keep the modules' separation of concerns: `main.rs` coordinates the lifecycle, "
        "`args.rs` parses arguments"
    )
    assert layout.files == ()
    # The writing verb whose object the file is still asks for an edit of it.
    assert line_actions("Keep `CHANGELOG.md` up to date").files == ("changelog.md",)
    assert line_actions("每次修改后更新 `CHANGELOG.md`").files == ("changelog.md",)


_RUN_BOARD = (
    "# B\n\n- To run the app, use `cargo run -- --start-bpm <value>` [[run]]\n"
    "- When adding a dependency, use `pnpm add` instead of `npm install` [[deps]]\n"
)


def _ran(user: str, command: str, i: int) -> list[dict[str, object]]:
    """One user turn, then the agent running ``command`` with its shell tool."""
    source = {"kind": "claude-code", "name": "claude-code", "channel_id": "claude-code"}
    runner = {"kind": "runner", "name": "runner"}
    ts = f"2026-03-01T11:{i:02d}:00.000Z"
    return [
        {"id": f"evt_u{i}", "ts": ts, "type": "channel.message", "source": source,
         "session_key": "claude-code:s2", "payload": {"text": user}},
        {"id": f"evt_t{i}", "ts": ts.replace(":00.000Z", ":10.000Z"), "type": "agent.tool_use",
         "source": runner, "session_key": "claude-code:s2",
         "payload": {"tool_name": "Bash", "input_summary": command}},
        {"id": f"evt_a{i}", "ts": ts.replace(":00.000Z", ":30.000Z"), "type": "agent.result",
         "source": runner, "session_key": "claude-code:s2",
         "payload": {"text": "Done, it runs now.", "session_id": "s2"}},
    ]  # fmt: skip


def _scan(events: list[dict[str, object]], board: str = _RUN_BOARD) -> list[tuple[int | None, str]]:
    from shared.weaver.scan.scanner import scan_events

    scanned = scan_events(parse_board(board), events, date="2026-03-01")
    return [(s.fragment.source_line, str(s.fragment.trajectory)) for s in scanned]


def test_a_bug_report_after_a_turn_that_followed_a_line_does_not_weaken_it() -> None:
    followed = _ran("add a pause key to the metronome", "cargo run -- --start-bpm 60", 0)
    report = _ran("The app still isn't registering the keys", "cat src/main.rs", 1)
    outcomes = _scan(followed + report)
    assert (3, "STRENGTHENING") in outcomes
    assert all(trajectory != "WEAKENING" for _, trajectory in outcomes)
    # The same complaint after a turn that went against a line is about that line.
    broke = _ran("add lodash as a dependency", "npm install lodash", 0)
    complaint = _ran("that's wrong again, it still isn't right", "ls", 1)
    assert (4, "WEAKENING") in _scan(broke + complaint)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Set it up like this:\n1. put the avatar in settings\n2. don't show a disclaimer", False),
        ("1. 项目设置中配置头像\n2. 不要免责提示\n3. 在内部chat和外部chat都实现", False),
        ("- use the blue theme\n- do not add emojis to the footer", False),
        # One item alone is no task list; a complaint in an item still complains.
        ("don't show a disclaimer", True),
        ("1. you didn't run the tests\n2. that's the wrong file", True),
    ],
)
def test_a_prohibition_among_a_task_lists_items_specifies_the_task(text: str, kept: bool) -> None:
    from shared.language.markers import correction_marker, without_requirement_items

    assert correction_marker(text) is not None
    assert (correction_marker(without_requirement_items(text)) is not None) is kept


def test_words_a_complaint_quotes_in_code_do_not_name_a_lines_situation() -> None:
    board = "# B\n\n- When you make a commit, push it immediately [[push]]\n"
    committed = _ran("go ahead and commit the new pr.md", "git commit -m 'pr'", 0)
    quoted = _ran("actually this isn't right, it still contains `initial commit`", "ls", 1)
    assert all(t != "WEAKENING" for _, t in _scan(committed + quoted, board))
    # Said in the user's own words, the same situation is named.
    said = _ran("actually this isn't right, push the commit right away", "ls", 1)
    assert (3, "WEAKENING") in _scan(committed + said, board)


def _aider_turn(user: str, *rows: tuple[str, str], action: bool = False) -> Turn:
    turn: Turn = {"date": "", "line": 1, "id": "e", "ts": "", "kind": "aider",
                  "session_key": "s", "type": "channel.message", "text": user,
                  "rows": [{"type": t, "text": x} for t, x in rows]}  # fmt: skip
    if action:
        turn["action"] = True
    return turn


def test_aider_runs_what_it_logs_running_not_what_its_reply_suggests() -> None:
    suggested = ("agent.result", "Run it with:\n```bash\ncargo run -- --start-bpm 60\n```")
    accepted = ("agent.tool_result", "aider Running cargo run -- --start-bpm 60")
    assert commands_run(_aider_turn("run it", suggested)) == []
    assert commands_run(_aider_turn("run it", suggested, accepted)) == [
        ("cargo", "run", "--", "--start-bpm", "60")
    ]
    # The same block in a SpecStory (Cursor) reply is the only trace of a run.
    cursor = _aider_turn("run it", suggested)
    cursor["kind"] = "specstory"
    assert commands_run(cursor) == [("cargo", "run", "--", "--start-bpm", "60")]


def test_a_declined_suggestion_is_not_the_user_asking_for_the_command() -> None:

    board = parse_board("# B\n\n- To run the app, use `cargo run -- --start-bpm <value>` [[run]]\n")
    edited = _aider_turn("add a pause key", ("agent.tool_result", "aider Applied edit to main.rs"))
    previous = SessionMemory(turn=edited, lines=(), trajectories=())
    judge = RuleJudge()
    declined = _aider_turn(
        "rejected: Run shell command? (cargo run -- --start-bpm 60)", action=True
    )
    assert all(
        j.trajectory != "WEAKENING" for j in judge.judge(declined, previous, board, JudgeContext())
    )
    # Typed by the person after the same turn, the command is asked for.
    typed = _aider_turn("now run `cargo run -- --start-bpm 60`")
    said = judge.judge(typed, previous, board, JudgeContext())
    assert [(j.line.number if j.line else None, j.trajectory) for j in said] == [(3, "WEAKENING")]


def test_a_turn_knows_an_imported_action_from_words() -> None:
    from shared.weaver.scan.turns import make_origin

    event = {"id": "evt_1", "ts": "2026-03-01T10:00:00Z", "type": "channel.message",
             "source": {"kind": "aider"}, "session_key": "aider:s",
             "payload": {"text": "rejected: Run shell command? (ls)", "action": True}}  # fmt: skip
    assert make_origin(event, "2026-03-01", 1).get("action") is True
    event["payload"] = {"text": "run ls"}
    assert "action" not in make_origin(event, "2026-03-01", 1)


def test_a_chained_command_is_compared_by_what_it_runs() -> None:
    acts = line_actions(
        "After adding Tailwind classes, rebuild with `cd frontend && bun run css:build`"
    )
    assert acts.prescribed == (("bun", "run", "css:build"),)
    found = action_evidence(_turn("cd frontend && bun run css:build"), [acts], lambda: {0})
    assert [(e.index, e.followed) for e in found] == [(0, True)]


@pytest.mark.parametrize(
    "text", ["All commits must be pushed immediately", "提交后立即推送到远程仓库"]
)
def test_pushing_what_was_committed_follows_a_push_after_commit_line(text: str) -> None:
    acts = line_actions(text)
    assert acts.prescribed == (("git", "push"),) and acts.situation == (("git", "commit"),)
    both = _turn("git commit -m 'x'", "git push origin main")
    assert [e.followed for e in action_evidence(both, [acts], set)] == [True]
    # Pushing without a commit in the turn is not the line's situation.
    assert action_evidence(_turn("git push origin main"), [acts], set) == []


def test_a_line_forbidding_a_push_prescribes_none() -> None:
    assert not line_actions("Never push directly to main")
    assert not line_actions("不要直接推送到 main 分支")


@pytest.mark.parametrize(
    ("text", "phrases"),
    [
        (
            'When instructions are unclear, say "I need clarification on [specific thing]"',
            ("i need clarification on",),
        ),
        ('Always reply with "Done, see the diff below."', ("done, see the diff below",)),
        ("回复时以「收到，马上处理」开头", ("收到，马上处理",)),
        # The person's words, a quoted name, a single word: nothing for the agent to say.
        ('When the user says "ship it now please", deploy', ()),
        ("用户说“帮我创建一个任务”时，先写规格", ()),
        ('Use the "Conventional Commits" format', ()),
        ('Say "ok"', ()),
    ],
)
def test_the_words_a_line_tells_the_agent_to_say(text: str, phrases: tuple[str, ...]) -> None:
    from shared.weaver.scan.actions import line_phrases

    assert line_phrases(text) == phrases


def test_saying_a_lines_words_follows_it_and_the_fragment_says_so() -> None:

    board = parse_board(
        '# B\n\n- When the instructions are unclear, say "I need clarification on [thing]" '
        "and stop [[ask]]\n"
    )
    turn = _turn()
    turn["text"] = "lms server start\npip install PyQt6"
    turn["rows"] = [
        {"type": "agent.result", "text": "Could you specify? I need clarification on the task."}
    ]
    said = _rule_judge(turn, board)
    assert [(j.line.number if j.line else None, j.trajectory) for j in said] == [
        (3, "STRENGTHENING")
    ]
    assert 'the agent said "i need clarification on"' in said[0].notes[0]
    turn["rows"] = [{"type": "agent.result", "text": "Here is the clarification you asked for."}]
    assert _rule_judge(turn, board) == []


def test_an_edit_is_reported_as_an_edit_not_a_command() -> None:

    board = parse_board("# B\n\n- For every task, add an entry to `CHANGELOG.md` [[log]]\n")
    turn = _turn()
    turn["rows"] = [{"type": "agent.tool_use", "text": "Edit /repo/CHANGELOG.md"}]
    said = _rule_judge(turn, board)
    assert [j.trajectory for j in said] == ["STRENGTHENING"]
    assert "the agent edited `changelog.md` as it says" in said[0].notes[0]


def test_a_standing_instruction_beside_a_line_it_only_touches_is_new() -> None:

    board = parse_board(
        "# B\n\n- When changing integration test code, run `mise run test:integration` [[it]]\n"
    )
    turn = _turn()
    turn["rows"] = [{"type": "agent.tool_use", "text": "Read CLAUDE.md"}]

    def outcomes(text: str) -> list[tuple[int | None, str]]:
        turn["text"] = text
        said = _rule_judge(turn, board)
        return [(j.line.number if j.line else None, j.trajectory) for j in said]

    new = outcomes(
        "let's update CLAUDE.md: make sure you ask before you run the e2e integration tests"
    )
    assert (None, "NEW_SIGNAL") in new and (3, "NEUTRAL") in new
    # Naming the line's own command, the same words ask for what the line holds.
    held = outcomes("update CLAUDE.md: make sure you run `mise run test:integration` after tests")
    assert (None, "NEW_SIGNAL") not in held


_ASK_BOARD = (
    "# B\n\n- Do not ask for confirmation on obvious next steps; execute the next step [[no-ask]]\n"
)


def _asked_then(*texts: str) -> list[tuple[str, int | None, str, str | None]]:
    """A session: the agent explains the no-asking rule, then the user's ``texts``."""
    from shared.weaver.scan.scanner import scan_events

    events = _ran("what does the rule say about asking for confirmation on next steps?", "ls", 0)
    for k, text in enumerate(texts, start=1):
        events += _ran(text, "ls", k)
    scanned = scan_events(parse_board(_ASK_BOARD), events, date="2026-03-01")
    return [
        (
            s.fragment.source_event_id,
            s.fragment.source_line,
            str(s.fragment.trajectory),
            s.fragment.weakening_kind,
        )
        for s in scanned
    ]


@pytest.mark.parametrize(
    "complaint", ["why didn't you follow this rule?", "为什么没有遵守这条规则？"]
)
def test_a_complaint_pointing_at_this_rule_names_the_line_just_discussed(complaint: str) -> None:
    assert ("evt_u1", 3, "WEAKENING", "recall-miss") in _asked_then(complaint)
    # Without pointing at the rule, a bare complaint after that turn names nothing.
    assert not any(t == "WEAKENING" for _, _, t, _ in _asked_then("why didn't you check the logs?"))


def test_asking_to_make_sure_this_happens_after_a_correction_adds_no_line() -> None:
    after = _asked_then("why didn't you follow this rule?", "how will you make sure this happens?")
    assert not any(t == "NEW_SIGNAL" for _, _, t, _ in after)
    # With no correction before it, a standing request that names its rule is new.
    fresh = _asked_then("from now on, always make sure the changelog is updated in every PR")
    assert any(t == "NEW_SIGNAL" for _, _, t, _ in fresh)


def test_a_reply_showing_one_clause_of_a_long_direction_follows_the_line() -> None:
    from shared.weaver.scan.matching import BoardIndex

    board = parse_board(
        "# B\n\n- 创建Plan后，将创建的plan保存到Plan文件夹中，"
        "并且当plan有更新时，同步更新对应的文件 [[plan]]\n"
        "- When a change is done, write the release notes into the docs folder, "
        "and tell the reviewers in the team channel [[notes]]\n"
    )
    index = BoardIndex.of(board)
    zh, en = index.cues
    assert zh.clause_shown(token_set("已将计划保存到 Plan 文件夹中"))
    assert not zh.clause_shown(token_set("查看 Plan 文件夹的格式"))
    assert en.clause_shown(token_set("I wrote the release notes into the docs folder."))
    assert not en.clause_shown(token_set("Which folder holds the docs?"))


def test_the_same_complaint_again_within_two_turns_is_one_weakening() -> None:
    again = _outcomes("add lodash", _CORRECTION, _CORRECTION)
    assert again == [("evt_u1", "WEAKENING")]
    # Past the take-back window it is a new complaint.
    later = _outcomes("add lodash", _CORRECTION, "add a README", "add a licence", _CORRECTION)
    assert later == [("evt_u1", "WEAKENING"), ("evt_u4", "WEAKENING")]


@pytest.mark.parametrize(
    ("text", "corrects"),
    [
        ("now can you double check again?", False),
        ("could you run it again with the verbose flag?", False),
        ("you broke the build again", True),
        ("我这样的参数，应该如何设置参数呢", False),
        ("我在这里应该怎么设置", False),
        ("这里应该用 pnpm", True),
    ],
)
def test_asking_again_or_asking_how_corrects_nothing(text: str, corrects: bool) -> None:
    from shared.language.markers import correction_marker

    assert (correction_marker(text) is not None) is corrects


def test_a_common_verb_alone_names_no_line_however_rare_on_the_board() -> None:
    from shared.weaver.scan.matching import BoardIndex

    board = parse_board(
        "# B\n\n- Always check for code duplication and refactor as needed [[dup]]\n"
        "- Keep the Kubernetes manifests under `deploy/k8s` [[k8s]]\n"
    )
    index = BoardIndex.of(board)
    # "check" occurs in one line only, but any task checks something.
    assert index.triggered(token_set("now can you double check again?")) == set()
    assert index.triggered(token_set("bump the kubernetes version")) == {1}


def test_a_reply_explaining_a_topic_follows_no_line_without_a_trigger_clause() -> None:

    board = parse_board(
        "# B\n\n- Use feature branches for new work; merge only stable features into `main` "
        "[[branches]]\n- When a user asks about pricing, give the number first [[price]]\n"
    )
    turn = _turn()
    turn["text"] = "can the feature previews replace a staging environment?"
    turn["rows"] = [
        {
            "type": "agent.result",
            "text": "Yes: each new feature branch gets a preview; merge "
            "stable work into main and the preview becomes production.",
        }
    ]
    said = _rule_judge(turn, board)
    assert all(j.trajectory != "STRENGTHENING" for j in said)
    # A line with a trigger clause of its own is followed by a reply in its words.
    turn["text"] = "How much does the premium tier cost?"
    turn["rows"] = [{"type": "agent.result", "text": "The number first: $20 a month."}]
    said = _rule_judge(turn, board)
    assert [(j.line.number if j.line else None, j.trajectory) for j in said] == [
        (4, "STRENGTHENING")
    ]


def test_a_long_rest_after_see_below_is_pasted_not_the_users_words() -> None:
    pasted = "Hooks are found in hooks.json; stop the agent, don't run it twice.\n" * 8
    text = "I don't think you set this up correctly. Can you try again? See below:\n" + pasted
    assert own_words(text) == (
        "I don't think you set this up correctly. Can you try again? See below:"
    )
    zh = (
        "还是不行，报错如下：\n"
        + "Error: cannot read property 'x' of undefined at app.js 不要重试\n" * 8
    )
    assert own_words(zh) == "还是不行，报错如下："
    # A short list after the lead is the user's own.
    mine = "Please fix these, see below:\n1. the header\n2. the footer"
    assert own_words(mine) == mine


def test_an_operator_or_flag_a_line_forbids_breaks_it_when_a_command_holds_it() -> None:

    acts = line_actions(
        "Run one command per terminal call; do not chain commands with `&&`, `||`, `;` or `|`"
    )
    assert acts.forbidden_literals == ("&&", "||", ";", "|")
    assert line_actions("Never pass `--no-verify` to git commit").forbidden_literals == (
        "--no-verify",
    )
    found = action_evidence(_turn("cd .cursor/hooks && node test-hook.js"), [acts], set)
    assert [(e.followed, e.command) for e in found] == [(False, "used &&")]
    assert action_evidence(_turn("node test-hook.js"), [acts], set) == []
    assert action_evidence(_turn("echo 'a||b'"), [line_actions("Never use `|`")], set) == []
    board = parse_board("# B\n\n- Never pass `--no-verify` to git commit [[verify]]\n")
    said = RuleJudge().judge(
        _turn("git commit --no-verify -m wip"), SessionMemory(), board, JudgeContext()
    )
    assert [j.trajectory for j in said] == ["WEAKENING"]
    assert "the agent used `--no-verify` in a command against it" in said[0].notes[0]


@pytest.mark.parametrize(
    ("text", "durable"),
    [
        ("I dont like nested types, and I like all types to have their own file", True),
        ("attempt dotnet format when needing to fix lint errors", True),
        ("需要修复 lint 错误的时候，先试试 dotnet format", True),
        ("我不喜欢嵌套类型", True),
        ("I like this design", False),
        ("fix the lint errors in Program.cs", False),
    ],
)
def test_standing_likes_and_situations_of_their_own_are_durable(text: str, durable: bool) -> None:
    assert (durable_marker(text) is not None) is durable


@pytest.mark.parametrize(
    ("command", "followed"),
    [
        ('git add -A && git commit -m "feat: fail loudly instead of mock mode"', True),
        ("git commit -m 'fix(api)!: drop the v1 route'", True),
        ('git commit -m "Update files"', False),
        ("git commit -m wip", False),
    ],
)
def test_a_commit_message_follows_or_breaks_a_conventional_commits_line(
    command: str, followed: bool
) -> None:
    for text in (
        "Commit messages follow conventional commits: `feat:`, `fix:`, `chore:`",
        "提交信息遵循约定式提交规范",
    ):
        acts = line_actions(text)
        assert acts.commit_style and acts.explicit
        found = action_evidence(_turn(command), [acts], set)
        assert [e.followed for e in found] == [followed]
    # A commit without a message on its command line (an editor, --amend) shows nothing.
    acts = line_actions("Follow Conventional Commits")
    assert action_evidence(_turn("git commit --amend --no-edit"), [acts], set) == []


def test_a_durable_request_without_an_instruction_word_is_new_and_code_described_is_not() -> None:

    board = parse_board("# B\n\n- Keep the README short [[readme]]\n")
    turn = _turn()

    def judged(text: str) -> list[str]:
        turn["text"] = text
        return [j.trajectory for j in _rule_judge(turn, board)]

    assert judged("attempt dotnet format when needing to fix lint errors") == ["NEW_SIGNAL"]
    assert durable_marker("the test completes and never executes the defaulting logic") is None
    assert judged("the test completes and never executes the defaulting logic") == []


_DEPLOY_BOARD = "# B\n\n- When deploying to staging, run the smoke tests first [[smoke]]\n"


@pytest.mark.parametrize(
    ("reply", "approves"),
    [
        ("Perfect, now update the README", True),
        ("Exactly. Go on", True),
        ("没错，继续", True),
        # "exactly" inside a new request is an adverb, not a reaction
        ("Create these four files exactly as specified below.", False),
        # a reaction comes first: praise deep in a new task approves nothing
        ("Now add the login page. The design is perfect as it is", False),
        # nor does a word of what the user pasted
        ("Here is the log:\n```\nperfect match found\n```\nwhat does it mean?", False),
    ],
)
def test_only_a_reply_that_opens_with_approval_approves_the_turn_before(
    reply: str, approves: bool
) -> None:
    events = _ran("deploy the app to staging", "ls", 0) + _ran(reply, "ls", 1)
    expected = "STRENGTHENING" if approves else "NEUTRAL"
    assert _scan(events, _DEPLOY_BOARD) == [(3, expected)]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Please update version and changelog.", {0, 1}),
        ("bump the version", {0}),
        ("更新 CHANGELOG", {1}),
        # the file's name as a plain word, governed by no verb of writing
        ("update the yaml to use the new version of the script", set()),
        # "address" is not "add"
        ("let's address the 2 version issues you found", set()),
    ],
)
def test_a_file_is_asked_for_as_the_object_of_a_verb_of_writing(text: str, named: set[int]) -> None:
    from shared.weaver.scan.actions import files_named

    actions = [
        line_actions("For every task, increment the number in the `VERSION` file"),
        line_actions("Record every change in `CHANGELOG.md`"),
    ]
    assert files_named(text, actions) == named


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("cleanup.py update", ("cleanup.py",)),
        ("./check.sh", ("check.sh",)),
        ("python ./scripts/cleanup.py status", ("cleanup.py",)),
        ("node scripts/build.js --prod", ("build.js",)),
        ("src/app.py", None),  # a file named alone is no run
        ("fmt.Println", None),
    ],
)
def test_a_projects_own_script_is_a_command_named_by_its_file(span: str, expected: object) -> None:
    assert head(span) == expected


_CLEANUP_BOARD = (
    "# B\n\n- After any change, run the `cleanup.py status` script in the main folder [[cleanup]]\n"
)


@pytest.mark.parametrize(
    ("user", "command", "outcome"),
    [
        # run unasked, however it is invoked: the line is followed
        ("merge youcom.py into you.py", "python cleanup.py", [(3, "STRENGTHENING")]),
        ("merge youcom.py into you.py", "./scripts/cleanup.py status", [(3, "STRENGTHENING")]),
        # run because this turn asked for it: the request is done, the line shows nothing
        ("merge them, then run `./cleanup.py status`", "./cleanup.py status", [(3, "NEUTRAL")]),
        ("merge youcom.py into you.py", "python setup.py", []),
    ],
)
def test_running_the_lines_script_unasked_follows_it(
    user: str, command: str, outcome: list[tuple[int, str]]
) -> None:
    assert _scan(_ran(user, command, 0), _CLEANUP_BOARD) == outcome


@pytest.mark.parametrize(
    ("command", "followed"),
    [
        ("git commit -s -m 'fix: x'", True),
        ("git commit -m 'fix: x'", False),  # the flag is what the line asks for
    ],
)
def test_a_flag_the_line_gives_is_part_of_what_it_prescribes(command: str, followed: bool) -> None:
    actions = [line_actions("Sign your commits (DCO): `git commit -s`")]
    found = action_evidence(_turn(command), actions, set)
    assert [e.followed for e in found] == ([True] if followed else [])


@pytest.mark.parametrize(
    ("command", "broken"),
    [
        ("git commit --no-verify -m 'fix: x'", True),
        # a plain commit is what the line leaves allowed: only the flag is forbidden
        ("git commit -m 'docs: ratify engineering constitution'", False),
    ],
)
def test_a_flag_the_line_forbids_is_what_it_forbids(command: str, broken: bool) -> None:
    actions = [line_actions("Never use `git commit --no-verify`")]
    found = action_evidence(_turn(command), actions, set)
    assert [e.followed for e in found] == ([False] if broken else [])


def test_a_step_named_only_as_the_situation_is_no_step_to_run() -> None:
    # "running E2E tests" is when the line applies; what it asks is the runner skill
    situated = line_actions(
        "When running E2E tests, always use `/e2e-test-runner`; never run `pnpm test:e2e` directly"
    )
    assert situated.prescribed == ()
    assert action_evidence(_turn("pnpm test --filter api"), [situated], set) == []
    # the same step as the line's direction is one
    asked = line_actions("Before committing, run the tests")
    assert ("npm", "test") in asked.prescribed


def test_a_reporting_flag_is_not_required() -> None:
    acts = line_actions("Run tests after every major code change with `go test -v ./...`")
    assert acts.flags == ((),)
    assert action_evidence(_turn("go test ./..."), [acts], set)[0].followed


def test_a_commit_message_written_through_a_here_document_is_read_as_its_text() -> None:
    from shared.weaver.scan.actions import commit_messages

    heredoc = "git commit -m \"$(cat <<'EOF'\nfix: gofmt alignment\n\nEOF\n)\""
    assert commit_messages([heredoc])[0].startswith("fix: gofmt alignment")
    actions = [line_actions("Commit messages follow conventional commits: `feat:`, `fix:`")]
    assert action_evidence(_turn(heredoc), actions, set)[0].followed
    plain = 'git commit -m "$(cat <<EOF\nUpdate stuff\nEOF\n)"'
    assert not action_evidence(_turn(plain), actions, set)[0].followed


def _action(text: str, i: int) -> list[dict[str, object]]:
    """What the person did, as an importer writes it (a user action)."""
    source = {"kind": "specstory", "name": "specstory", "channel_id": "specstory"}
    return [
        {"id": f"evt_x{i}", "ts": f"2026-03-01T11:{i:02d}:40.000Z", "type": "channel.message",
         "source": source, "session_key": "claude-code:s2",
         "payload": {"text": text, "action": True}}
    ]  # fmt: skip


_UV_BOARD = (
    "# B\n\n- Use `uv` for Python package management [[uv]]\n"
    "- Run one command per terminal call; never chain commands with `&&` [[one]]\n"
)


def test_naming_the_program_right_after_stopping_the_agent_is_a_recall_miss() -> None:
    first = _ran("add the duckduckgo engine", "ls", 0)
    stopped = first + _action("cancelled the agent's step", 1)
    redirect = _ran("Use uv pip", "uv pip install duckduckgo", 2)
    assert _scan(stopped + redirect, _UV_BOARD) == [(3, "WEAKENING")]
    # the same words without a stop before them: the agent did as the line says
    assert _scan(first + redirect, _UV_BOARD) == [(3, "STRENGTHENING")]


def test_the_importers_words_for_an_action_are_no_complaint() -> None:
    # "cancelled" is no correction marker here: only what the agent ran decides
    events = _ran("add the engine", "cd x && ls", 0) + _action("cancelled the agent's step", 1)
    assert _scan(events, _UV_BOARD) == [(4, "WEAKENING")]


@pytest.mark.parametrize(
    ("text", "forbids"),
    [
        ("Never use apologies", ("apology",)),
        ("不要道歉，直接给出修正", ("apology",)),
        ("Apologize to the user when a build breaks", ()),
        ("When the user apologizes, reply kindly", ()),
    ],
)
def test_a_line_may_forbid_a_kind_of_speech(text: str, forbids: tuple[str, ...]) -> None:
    from shared.weaver.scan.actions import line_speech

    assert line_speech(text) == forbids


def test_an_apology_in_a_reply_breaks_a_line_forbidding_apologies() -> None:
    from shared.weaver.scan.actions import line_speech, speech_evidence

    unsaid = [line_speech("Never use apologies"), line_speech("Use tabs")]
    turn = _turn("ls")
    turn["rows"] = [
        *turn["rows"],
        {"type": "agent.result", "text": "I apologize for the confusion."},
    ]
    found = speech_evidence(turn, unsaid)
    assert [(e.index, e.followed, e.command) for e in found] == [(0, False, 'said "apologize"')]
    turn["rows"][-1] = {"type": "agent.result", "text": "抱歉，我来修复。"}
    assert [e.index for e in speech_evidence(turn, [line_speech("不要道歉")])] == [0]
    turn["rows"][-1] = {"type": "agent.result", "text": "Fixed: the parser now keeps the flag."}
    assert speech_evidence(turn, unsaid) == []


@pytest.mark.parametrize(
    ("command", "outcome"),
    [
        ("pip install -e '.[test]'", False),  # a rival package manager adds the dependency
        ("python -m pip install requests", False),
        ("uv pip install requests", True),  # uv's own pip interface is uv
        ("uv add requests", True),
    ],
)
def test_adding_a_dependency_with_a_rival_package_manager_breaks_a_use_x_line(
    command: str, outcome: bool
) -> None:
    acts = line_actions("Use `uv` for Python package management")
    found = action_evidence(_turn(command), [acts], set)
    assert [e.followed for e in found] == [outcome]


def test_a_tool_run_through_a_package_manager_names_no_rival() -> None:
    assert line_actions("Run the tests with `uv run pytest`").rivals == ()
    # a line that names what it forbids keeps to its own words
    assert line_actions("Always use `bun` instead of `npm`").rivals == ()


def test_a_terminals_drawing_and_log_records_are_pasted_not_the_users_words() -> None:
    pasted = (
        "python -m tool web q\n"
        "[02/25/25 03:32:24] INFO     Loaded environment variables from .env file\n"
        "⠴ Searching for 'president of poland'...   INFO     HTTP Request: GET https://x\n"
        "┃ Engine ┃ Status     ┃ Title ┃\n"
        "│ brave  │ ✅ Success │ Andrzej Duda - Wikipedia │\n"
        "This is EXTREMELY UNINFORMATIVE.\n"
        "ERRORS should be captured in verbose mode."
    )
    assert own_words(pasted).split("\n") == [
        "python -m tool web q",
        "This is EXTREMELY UNINFORMATIVE.",
        "ERRORS should be captured in verbose mode.",
    ]


def test_a_colon_after_a_prohibition_opens_what_to_run_instead() -> None:
    acts = line_actions(
        "When functionally testing the CLI, never use `agentv` directly: "
        "run `bun apps/cli/src/cli.ts <args>` from source"
    )
    assert acts.prescribed == (("cli.ts",),) and acts.forbidden == ()
    assert action_evidence(_turn("bun apps/cli/src/cli.ts eval x"), [acts], set)[0].followed
    assert not action_evidence(_turn("bun run build"), [acts], set)


@pytest.mark.parametrize(
    ("text", "corrects"),
    [
        ("can you remove byok since it's no longer supported", False),
        ("drop the flag because it is no longer needed", False),
        ("we no longer use yarn here", True),
        ("this rule no longer applies", True),
    ],
)
def test_no_longer_in_a_requests_reason_corrects_nothing(text: str, corrects: bool) -> None:
    from shared.language.markers import correction_marker

    assert (correction_marker(text) is not None) is corrects


@pytest.mark.parametrize(
    ("command", "broken"),
    [
        ("git push origin main", True),
        ("git push origin HEAD:main", True),
        ("git push -u origin fix/copilot-target", False),
        ("git push", False),  # which branch it pushed is not known
    ],
)
def test_pushing_to_the_branch_a_line_forbids_breaks_it(command: str, broken: bool) -> None:
    acts = line_actions("Never push directly to `main`; always use branches and PRs")
    assert acts.push_forbidden == ("main",)
    found = action_evidence(_turn(command), [acts], set)
    assert [(e.followed, e.command) for e in found] == (
        [(False, "pushed to main")] if broken else []
    )


_PUSH_BOARD = "# B\n\n- Never push directly to `main`; always use branches and PRs [[no-main]]\n"


def test_what_the_user_asked_for_in_the_turn_is_no_silent_miss() -> None:
    asked = _ran("remove the artifacts and push directly to main", "git push origin main", 0)
    assert _scan(asked, _PUSH_BOARD) == [(3, "NEUTRAL")]  # touched, no evidence
    unasked = _ran("remove the artifacts", "git push origin main", 0)
    assert _scan(unasked, _PUSH_BOARD) == [(3, "WEAKENING")]


def test_a_shell_prompt_and_a_tools_error_lines_are_pasted() -> None:
    pasted = (
        "➜ agentv git:(main) ✗ git push origin main\n"
        "error: No `prek.toml` found in the current directory\n"
        "hint: If you just added one, rerun your command\n"
        "fix this please"
    )
    assert own_words(pasted) == "fix this please"


@pytest.mark.parametrize(
    ("user", "outcome"),
    [
        # the line applied unasked
        ("the pull request is up, what now?", "STRENGTHENING"),
        # the same deed, asked for in the line's own words: the request done
        ("also ci failed on the pull request please fix the failing tests", "NEUTRAL"),
    ],
)
def test_doing_what_the_turn_asked_in_the_lines_words_is_not_following_it(
    user: str, outcome: str
) -> None:
    board = (
        "# B\n\n- When CI fails on a pull request, fix the failing tests without being told"
        " [[ci]]\n"
    )
    events = _ran(user, "ls", 0)
    reply = "I fixed the failing tests; CI passes on the pull request now."
    events[-1] = {**events[-1], "payload": {"text": reply, "session_id": "s2"}}
    assert _scan(events, board) == [(3, outcome)]


_CONSOLE_BOARD = (
    "# B\n\n- When changing the console app, keep all work in the core library [[core]]\n"
    "- Use tabs [[tabs]]\n"
)


@pytest.mark.parametrize(
    ("complaint", "outcome"),
    [
        # the marker and the line's situation in different sentences: about something else
        (
            "I do not wish to make changes at this point. "
            "Please review the console app and list what is left.",
            [],
        ),
        # in the same breath: the line
        (
            "No, don't put that logic in the console app, it belongs in the core library.",
            [(3, "WEAKENING")],
        ),
    ],
)
def test_a_complaint_names_a_lines_situation_in_the_same_sentence(
    complaint: str, outcome: list[tuple[int, str]]
) -> None:
    events = _ran("add a menu entry", "ls", 0) + _ran(complaint, "ls", 1)
    assert _scan(events, _CONSOLE_BOARD) == outcome
