"""``subcon demo --from claude-code``: real-format transcripts in, a committed board line out."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.kernel.git import run_git
from workers.cli import main


def test_demo_from_claude_code_imports_weaves_and_commits_the_recurring_instruction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("SUBCON_BROKER_URL", "SUBCON_REDIS_URL", "SUBCON_RESULT_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "demo"
    assert main(["demo", "--from", "claude-code", str(root)]) == 0
    out = capsys.readouterr().out
    assert "events: 16 written (4 from the user)" in out
    kernel = root / "kernel"
    board = (kernel / "memory" / "CLAUDE.md").read_text(encoding="utf-8")
    # Given once in English and once in Chinese, in two sessions: one line, in the
    # words of the first session that named the situation, committed.
    assert "- Before you commit, run `ruff check`\n" in board
    committed = run_git(kernel, "show", "HEAD:memory/CLAUDE.md").stdout
    assert "- Before you commit, run `ruff check`" in committed
    assert run_git(kernel, "status", "--porcelain", "memory/CLAUDE.md").stdout == ""
    # The /clear wrapper and the system reminder never became the user's words.
    spine = b"".join(p.read_bytes() for p in (root / "runtime/var/events").glob("*.jsonl"))
    assert b"command-name" not in spine and b"system-reminder" not in spine

    # A second run imports nothing new and finds no new gap.
    assert main(["demo", "--from", "claude-code", str(root)]) == 0
    again = capsys.readouterr().out
    assert "events: 0 written" in again
