"""What `weave`, `tick` and `enqueue` tell the operator: board changes, commits, routes."""

from __future__ import annotations

import json

import pytest

from shared.kernel.paths import KernelPaths
from testing.gitrepo import git, head
from workers.cli import main


def cli(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


GOOD = "- Before proposing a Berlin meeting slot, restate it in the guest's own time zone.\n"


def test_weave_says_it_committed_with_the_commit_id(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    # an operator edit left uncommitted: the pass changes nothing but its commit lands it
    dossier = demo.kernel / "memory" / "entities" / "alice-chen.md"
    assert git(demo.kernel, "status", "--porcelain", "memory/entities/alice-chen.md")
    before = head(demo.kernel)
    assert cli(demo, "weave") == 0
    lines = capsys.readouterr().out.splitlines()
    after = head(demo.kernel)
    assert after != before
    assert lines[0] == "NO_NEW_GRADIENT: no external evidence changed memory."
    assert "board: unchanged" in lines
    (commit,) = [x for x in lines if x.startswith("commit: ")]
    assert commit.startswith(f"commit: made {after} (")
    assert "; it holds changes made before this pass" in commit
    # the demo board carries lines the gates reject: the commit says it left it out
    assert commit.endswith("; held back (not committed): memory/CLAUDE.md")
    assert dossier.is_file()


def test_weave_no_commit_says_so_and_leaves_the_tree_dirty(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    before = head(demo.kernel)
    assert cli(demo, "weave", "--no-commit") == 0
    out = capsys.readouterr().out
    assert "commit: not requested (--no-commit)" in out
    assert head(demo.kernel) == before
    assert cli(demo, "weave", "--help") == 0
    assert "including changes made before it" in capsys.readouterr().out


def test_weave_reports_board_line_changes(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    # the memory check posts the scan gap; the pass then judges the day and may edit
    assert cli(demo, "check") in (0, 1)
    capsys.readouterr()
    assert cli(demo, "weave", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    from workers.waiting import board_line, commit_line

    changes = report.get("line_changes") or []
    line = board_line(report)
    if changes:
        assert line == f"board: {len(changes)} line change(s): " + "; ".join(changes)
    else:
        assert line in ("board: unchanged", "board: memory/CLAUDE.md changed")
    request = report["commit_request"]
    assert request["outcome"] in ("committed", "no_new_gradient")
    if request["outcome"] == "committed":
        assert commit_line(report).startswith(f"commit: made {head(demo.kernel)}")
    else:
        assert commit_line(report).startswith("commit: requested, nothing committed (")


def test_board_and_commit_lines_for_each_case() -> None:
    from workers.waiting import board_line, commit_line

    base = {"changed": ["memory/CLAUDE.md"], "line_changes": ["memory/CLAUDE.md:L4 remove (x)"]}
    assert board_line(base) == "board: 1 line change(s): memory/CLAUDE.md:L4 remove (x)"
    assert board_line({"changed": ["memory/CLAUDE.md"]}) == "board: memory/CLAUDE.md changed"
    assert commit_line({}, requested=False).startswith("commit: not requested (--no-commit)")
    assert commit_line({"commit_request": {"collapsed": True}}).startswith(
        "commit: requested; joined a commit already queued"
    )
    assert commit_line({"commit_request": {"task_id": "t1"}}) == (
        "commit: requested as task t1 (not waited for)"
    )
    made = {"task_id": "t", "outcome": "committed", "commit": "abc", "summary": "Add 1 line"}
    assert commit_line({**base, "commit_request": made}) == "commit: made abc (Add 1 line)"
    partly = {**made, "held_back": ["memory/CLAUDE.md"]}
    assert commit_line({**base, "commit_request": partly}) == (
        "commit: made abc (Add 1 line); held back (not committed): memory/CLAUDE.md"
    )
    skipped = {
        "task_id": "t",
        "outcome": "no_new_gradient",
        "why": "skipped: .git/index.lock exists",
    }
    assert commit_line({"commit_request": skipped}) == (
        "commit: requested, nothing committed (skipped: .git/index.lock exists)"
    )
    assert commit_line({"commit_request": {"error": "GitError: boom"}}) == (
        "commit: requested and failed: GitError: boom"
    )


def test_tick_prints_each_run_with_board_and_commit_lines(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(demo, "tick") == 0
    out = capsys.readouterr().out
    assert out.startswith("tick 1 (manual)\n")
    assert "  memory-weaver: " in out and "    board: " in out
    assert f"    commit: made {head(demo.kernel)}" in out or "    commit: requested" in out


def test_enqueue_json_is_one_object_and_body_messages(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(demo, "enqueue", "--partition", "memory-weaver", "--json",
               "[memory:claude-lint] check the pointers") == 0  # fmt: skip
    doc = json.loads(capsys.readouterr().out)  # stdout is JSON and nothing else
    assert doc["route"]["route"] == "update"
    assert doc["report"]["directed"]["name"] == doc["item"]
    assert doc["task_id"]
    assert cli(demo, "enqueue", "--partition", "memory-weaver") == 2
    err = capsys.readouterr().err
    assert "give the item body as TEXT or with --file" in err and "not both" not in err
    assert cli(demo, "enqueue", "--partition", "memory-weaver", "--file", "x", "y") == 2
    assert "not both" in capsys.readouterr().err


def test_enqueue_unknown_partition_is_refused(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(demo, "enqueue", "--partition", "no-such", "x") == 2
    err = capsys.readouterr().err
    assert "unknown partition 'no-such'" in err
    assert "memory-weaver" in err and "memory-committer" in err
    assert not demo.inbox_dir("no-such").exists()


def test_enqueue_existing_name_hint_names_the_flag(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("enqueue", "--partition", "memory-committer", "--name", "a.pending", "x")
    assert cli(demo, *args) == 0
    assert cli(demo, *args) == 2
    assert "(pass --replace to overwrite)" in capsys.readouterr().err


def test_enqueue_plain_prose_warns_with_the_routes(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(demo, "enqueue", "--partition", "memory-weaver", "--name", "tea.pending",
               "please remember that I like tea") == 0  # fmt: skip
    captured = capsys.readouterr()
    assert "warning: the weaver has no route for this item" in captured.err
    assert "[memory:claude-lint]" in captured.err and "[entity-converge]" in captured.err
    out = captured.out.splitlines()
    assert (
        out[1]
        == "tea.pending: UNCLEAR: no route for marker (none) and this prose (in-process pass)"
    )
    assert out[2].startswith("commit: ")  # embedded, no --wait: still says what it committed
    assert (demo.inbox_dir("memory-weaver") / "tea.pending").exists()


def test_enqueue_wait_prints_board_and_commit(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(demo, "enqueue", "--partition", "memory-weaver", "--wait",
               "[memory:claude-lint] check the pointers") == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert any(x.startswith("board: ") for x in out)
    assert any(x.startswith("commit: made ") or x.startswith("commit: requested") for x in out)


def test_weave_with_an_unposted_gap_says_how_to_post_it(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #32 item 6: NO_NEW_GRADIENT while status shows a gap, and nothing said why."""
    assert cli(demo, "weave", "--no-commit") == 0
    got = capsys.readouterr()
    assert got.out.startswith("NO_NEW_GRADIENT")
    assert got.out.splitlines()[-1].startswith("commit: ")  # stdout still ends with it
    (hint,) = [x for x in got.err.splitlines() if x.startswith("gap: ")]
    assert "is not posted; `subcon gap` posts it" in hint
    assert cli(demo, "gap") == 0
    capsys.readouterr()
    assert cli(demo, "weave", "--no-commit") == 0
    got = capsys.readouterr()
    assert got.out.startswith("UPDATED") and "is not posted" not in got.err
