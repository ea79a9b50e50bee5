"""Where the updater puts a new board line (issue #32, low: the demo's added line landed
under an unrelated heading, "Notes", just because it was the board's last section).

Beside the most similar bullet; else at the end of the section about the same thing
(words or key concepts its heading and bullets share with the line); else under the
board's title, above every section. Never in a section whose heading changes what a
line means (a "Never" list, a status log)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.language.text import token_set
from shared.weaver.update.new_lines import _insert
from workers.cli import main

BOARD = """# Intuition

## Replies
- When a reply would open with social filler, lead with the answer [[lesson-reply-first]]

## Code and operations
- When asked to review a pull request, run the test suite first [[groove-pr-review]]
- When a shell command would delete files, list the exact paths first [[lesson-confirm]]

## Scheduling and reports
- When a meeting time comes without a time zone, restate it in UTC [[lesson-timezone]]

## Notes
- The latest run completed and the queue is clear.
"""


def place(board: str, line: str) -> list[str]:
    return _insert(board.split("\n"), line, token_set(line), cjk=False)


def section_of(rows: list[str], line: str) -> str:
    """The heading the line sits under ("" above every heading)."""
    heading = ""
    for row in rows[: rows.index(line)]:
        if row.startswith("#"):
            heading = row
    return heading


def test_beside_the_most_similar_bullet() -> None:
    line = "When a shell command would move files, list the exact paths first"
    rows = place(BOARD, line)
    assert section_of(rows, line) == "## Code and operations"
    assert rows[rows.index(line) - 1].startswith("- When a shell command would delete")


def test_at_the_end_of_the_section_its_heading_names() -> None:
    line = "- When you report an incident, attach the Grafana dashboard link"
    rows = place(BOARD, line)
    assert section_of(rows, line) == "## Scheduling and reports"
    assert rows[rows.index(line) - 1].startswith("- When a meeting time comes")
    assert rows[rows.index(line) + 1] == ""  # the section's blank line is kept


def test_unrelated_to_every_section_it_goes_under_the_title() -> None:
    line = "- When Bob mentions Grafana, quote the panel name"
    rows = place(BOARD, line)
    assert section_of(rows, line) == "# Intuition"
    assert rows[:5] == ["# Intuition", "", line, "", "## Replies"]
    assert "\n".join(rows).endswith("- The latest run completed and the queue is clear.\n")


def test_never_in_a_section_that_changes_what_a_line_means() -> None:
    board = BOARD.replace("## Notes", "## Never do")
    board += "- Never force-push the release branch without asking\n"
    line = "- When asked to push the release branch, ask first and force nothing"
    rows = place(board, line)
    assert section_of(rows, line) != "## Never do"


def test_a_board_without_headings_gets_it_after_its_last_bullet() -> None:
    rows = place("- When a, do b\n- When c, do d\n", "- When x, do y")
    assert rows == ["- When a, do b", "- When c, do d", "- When x, do y", ""]
    assert place("", "- When x, do y") == ["- When x, do y", ""]


def test_the_demo_line_lands_under_a_heading_that_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's second pass adds "When you report an incident, attach the Grafana
    dashboard link" from two recurring instructions: not under the board's last
    heading ("Notes", the demo's held-back lines), under the one about reports."""
    for _ in range(2):
        assert main(["demo", str(tmp_path / "demo")]) == 0
    capsys.readouterr()
    rows = (tmp_path / "demo" / "kernel" / "memory" / "CLAUDE.md").read_text().split("\n")
    (added,) = [r for r in rows if "Grafana" in r]
    assert section_of(rows, added) == "## Scheduling and reports"
