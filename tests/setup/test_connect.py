"""``subcon connect``: the line that makes an agent read the board, written only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.errors import ConfigError
from shared.setup.connect import connection
from workers.cli import main


@pytest.fixture
def roots(tmp_path: Path) -> tuple[Path, Path]:
    kernel, runtime = tmp_path / "kernel", tmp_path / "runtime"
    (kernel / "memory").mkdir(parents=True)
    runtime.mkdir()
    return kernel, runtime


def test_claude_code_imports_the_board_and_the_file_is_changed_only_with_write(
    roots: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kernel, runtime = roots
    project = tmp_path / "app"
    project.mkdir()
    claude_md = project / "CLAUDE.md"
    claude_md.write_text("# My app\n\nUse tabs.\n", encoding="utf-8")
    base = ["--kernel", str(kernel), "--runtime", str(runtime), "connect", "claude-code"]
    assert main([*base, "--project", str(project)]) == 0
    out = capsys.readouterr().out
    assert f"@{(kernel / 'memory' / 'CLAUDE.md').resolve()}" in out
    assert "not written" in out
    assert claude_md.read_text(encoding="utf-8") == "# My app\n\nUse tabs.\n"  # untouched

    assert main([*base, "--project", str(project), "--write"]) == 0
    assert claude_md.read_text(encoding="utf-8") == (
        f"# My app\n\nUse tabs.\n\n@{(kernel / 'memory' / 'CLAUDE.md').resolve()}\n"
    )
    capsys.readouterr()
    assert main([*base, "--project", str(project), "--write"]) == 0  # once only
    assert "already there" in capsys.readouterr().out
    assert claude_md.read_text(encoding="utf-8").count("@") == 1


def test_each_agent_has_its_file_and_line(tmp_path: Path) -> None:
    board = tmp_path / "k" / "memory" / "CLAUDE.md"
    home, project = tmp_path / "home", tmp_path / "app"
    codex = connection("codex", board, None, home)
    assert codex.file == home / ".codex" / "AGENTS.md"
    assert str(board.resolve()) in codex.text and "@" not in codex.text  # no imports in Codex
    assert connection("claude-code", board, None, home).file == home / ".claude" / "CLAUDE.md"
    cursor = connection("cursor", board, project, home)
    assert cursor.file == project / ".cursor" / "rules" / "subcon-board.mdc"
    assert "alwaysApply: true" in cursor.text
    aider = connection("aider", board, project, home)
    assert aider.file == project / ".aider.conf.yml" and aider.text.startswith("read: [")
    with pytest.raises(ConfigError, match="needs --project"):
        connection("aider", board, None, home)
    # Writing creates a missing file (and its folders).
    assert cursor.write() and cursor.file.read_text(encoding="utf-8") == cursor.text
