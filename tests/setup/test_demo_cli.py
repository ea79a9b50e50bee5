"""`subcon demo [DIR]`: init --demo once, then memory check, weaver and committer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.constants import COMMITTER, SCAN_GAP_PENDING, WEAVER
from shared.kernel.git import run_git
from shared.setup.demo.board import REJECT_LINES
from workers.cli import main


def run_demo(directory: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["demo", str(directory), "--json"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def test_demo_initialises_once_then_runs_each_partition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "subcon-demo"
    first = run_demo(directory, capsys)
    kernel = directory / "kernel"
    assert first["kernel"] == str(kernel)
    assert first["init"]["git"] == "genesis"
    assert first["init"]["spine"]["dates"] == ["2026-01-03", "2026-01-04", "2026-01-05"]
    reports = first["reports"]
    assert list(reports) == ["memory-check", WEAVER, COMMITTER]
    assert all(isinstance(r["text"], str) and r["text"] for r in reports.values())
    # The memory check posted the newest uncovered demo day for the weaver.
    assert any(p.endswith(SCAN_GAP_PENDING) for p in reports["memory-check"]["posted"])
    assert reports["memory-check"]["gap"]["date"] == "2026-01-05"
    # The committer held the board back (reject-worthy demo lines) and said why.
    committer = reports[COMMITTER]["text"]
    assert "memory/CLAUDE.md" in committer
    dirty = run_git(kernel, "status", "--porcelain", "--", "memory/CLAUDE.md").stdout
    assert dirty.strip() == "M memory/CLAUDE.md"
    assert all(line in (kernel / "memory" / "CLAUDE.md").read_text() for line in REJECT_LINES)

    second = run_demo(directory, capsys)
    assert second["init"] is None
    assert list(second["reports"]) == ["memory-check", WEAVER, COMMITTER]


def test_demo_text_output_names_each_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== init --demo\n")
    for step in ("memory-check", WEAVER, COMMITTER):
        assert f"\n== {step}\n" in out
    assert "next: `subcon demo" in out
