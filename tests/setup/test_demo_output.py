"""`subcon demo` speaks plainly to a newcomer (issue #32, low): counts in the right
number ("1 file"), no first person ("review rejected", not "I rejected"), no reason
codes ("skipped the pattern-tracker step: that partition is not installed", not
"withheld node-converge.v1 → pattern-tracker: partition-absent"), and no "next:" hint
to run again once every spine day is woven. The committer's own answer keeps the
original's form (docs/formats.md §11.4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.memcheck.check import CheckReport
from shared.setup.demo.output import committer_text
from workers.cli import main

REJECTED = {
    "file": "memory/CLAUDE.md",
    "line": 20,
    "decision": "reject",
    "gate": "self-reference",
    "reason": "self-reference: memory-maintenance line",
    "why": "the line describes memory maintenance rather than behavior",
    "text": "The memory board is concise and durable.",
}


def committed(files: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "outcome": "committed",
        "short": "abc1234",
        "files": files,
        "summary": "Revise entity dossier alice-chen",
        "rejected": [],
        "holds": [],
        **extra,
    }


def test_the_committer_in_plain_words() -> None:
    assert committer_text(committed(["memory/entities/alice-chen.md"])) == (
        "Committed: abc1234 (1 file). Revise entity dossier alice-chen."
    )
    two = committer_text(
        committed(
            ["a.md", "b.md"],
            rejected=[REJECTED],
            holds=[{"file": "memory/CLAUDE.md", "line": 20, "reason": REJECTED["reason"]}],
        )
    ).split("\n")
    assert two[0].startswith("Committed: abc1234 (2 files). ")
    assert two[1] == (
        "held back: memory/CLAUDE.md (review rejected 1 line, listed below; uncommitted "
        "until they are fixed or removed)"
    )
    assert two[2] == (
        "- review rejected `memory/CLAUDE.md:20`: the line describes memory maintenance "
        "rather than behavior (self-reference: memory-maintenance line)"
    )
    nothing = {"outcome": "no_new_gradient", "files": [], "rejected": [], "holds": []}
    assert committer_text(nothing) == "NO_NEW_GRADIENT: nothing committed"


def test_the_memory_check_in_plain_words() -> None:
    report = CheckReport(memory_dir="/k/memory", dry_run=False, measured=True, clean=True)
    report.gap = {"date": "2026-01-05", "tokens": ["20260105[01,01]"]}
    report.withheld = [
        {"kind": "node-converge.v1", "partition": "pattern-tracker", "reason": "partition-absent"},
        {"kind": "orphan-newborn.v1", "partition": "pattern-tracker", "reason": "partition-absent"},
        {"kind": "scan-gap.v1", "partition": "memory-weaver", "reason": "already-pending"},
    ]
    plain = report.render(plain=True)
    assert "gap: 2026-01-05 (1 band)" in plain
    assert plain.endswith(
        "  skipped the pattern-tracker step: that partition is not installed\n"
        "  not posted to memory-weaver again: the same signal still waits in its inbox"
    )
    assert "withheld" not in plain and "partition-absent" not in plain
    # `subcon check` keeps the exact kinds and reason codes an operator greps for
    assert "  withheld node-converge.v1 → pattern-tracker: partition-absent" in report.text


def test_four_demo_runs_read_plainly_and_stop_suggesting_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "demo"
    outs = []
    for _ in range(4):  # the demo spine has three days
        assert main(["demo", str(directory)]) == 0
        outs.append(capsys.readouterr().out)
    for out in outs:
        assert " 1 files" not in out and "I rejected" not in out
        assert "withheld" not in out and "partition-absent" not in out
    assert "- review rejected `memory/CLAUDE.md:" in outs[0]
    assert "skipped the pattern-tracker step: that partition is not installed" in outs[-1]
    again = f"next: `subcon demo {directory}` again for the next pass"
    assert outs[0].rstrip().split("\n")[-1].startswith(again)
    for out in outs[2:]:  # the third pass wove the last day
        last = out.rstrip().split("\n")[-1]
        assert last.startswith("next: every spine day is woven"), last
        assert f"subcon demo {directory}" not in last
