"""Board outcomes from imported real-format sessions over several days (issue #29 item 3):
a direction change in English rewrites the line in the user's words, one in Chinese too,
a recurring instruction in English and Chinese adds one line, and a line the user keeps
reaffirming stays."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from shared.importing.run import run_import
from shared.importing.sources import Source
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.memcheck.check import run_memory_check
from shared.settings import Settings
from shared.setup.bootstrap import init_kernel
from shared.setup.demo.transcripts import SessionWriter
from shared.timestamps import parse_iso
from workers.embedded import run_partition

BOARD = """# Intuition

## Engineering
- When adding a dependency, use `npm install` [[lesson-deps]]
- When reviewing a pull request, run the test suite first [[groove-review]]

## 中文
- 写周报时，按项目分组 [[groove-weekly]]
"""


def _topic(slug: str) -> str:
    return f"---\noccurrences: 1\n---\n# Lesson: {slug}\n\n## Condition\n\nx\n\n## Procedure\n\ny\n"


def _session(key: str, day: str, hour: int, *texts: str) -> SessionWriter:
    s = SessionWriter(f"0000{key}-0000-4000-8000-000000000000", parse_iso(f"{day}T00:00:00Z"))
    s.start = s.start + timedelta(hours=hour)
    for text in texts:
        s.user(text)
        s.say("OK.")
    return s


@pytest.fixture
def kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[KernelPaths, Settings]:
    for name in ("SUBCON_BROKER_URL", "SUBCON_REDIS_URL", "SUBCON_RESULT_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(paths, demo=False, force=False)
    paths.board.write_text(BOARD, encoding="utf-8")
    for slug in ("lesson-deps", "groove-review", "groove-weekly"):
        (paths.topics_dir / f"{slug}.md").write_text(_topic(slug), encoding="utf-8")
    run_git(paths.kernel, "add", "-A")
    run_git(paths.kernel, "commit", "-q", "-m", "board")
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    return paths, settings


def test_real_format_sessions_over_two_days_edit_the_board_as_the_users_said(
    kernel: tuple[KernelPaths, Settings], tmp_path: Path
) -> None:
    paths, settings = kernel
    project = tmp_path / "projects" / "-home-u-app"
    project.mkdir(parents=True)
    sessions = [
        _session("01", "2026-02-02", 9, "From now on we use pnpm instead of npm for dependencies."),
        _session("02", "2026-02-02", 11, "以后写周报改成按人分组，不要按项目分组了"),
        _session(
            "03", "2026-02-02", 14, "From now on, always squash commits before you merge a branch."
        ),
        _session("04", "2026-02-03", 9, "Again: we use pnpm instead of npm for dependencies now."),
        _session("05", "2026-02-03", 10, "以后写周报改成按人分组，不要再按项目分组"),
        _session("06", "2026-02-03", 15, "合并分支之前，一定要先 squash commits，记住这一条。"),
        _session(
            "07",
            "2026-02-03",
            16,
            "Please review this pull request; run the test suite first, as always.",
        ),
    ]
    for s in sessions:
        (project / f"{s.session_id}.jsonl").write_bytes(s.jsonl())
    report = run_import(paths, [Source("claude-code", project.parent)], settle_seconds=0)
    assert report.problem_count == 0 and report.user_events == 7

    for _day in range(2):  # each pass weaves the newest unscanned day
        run_memory_check(paths, settings)
        run_partition(settings, "memory-weaver")
    board = paths.board.read_text(encoding="utf-8")
    committed = run_git(paths.kernel, "show", "HEAD:memory/CLAUDE.md").stdout
    assert committed == board
    # English direction change: rewritten in the user's words, trigger and pointer kept.
    assert "`npm install` [[lesson-deps]]" not in board
    assert "we use pnpm instead of npm for dependencies" in board
    assert "[[lesson-deps]]" in board
    # Chinese direction change, in the user's words.
    assert "按人分组" in board and "- 写周报时，按项目分组 [[groove-weekly]]" not in board
    # One instruction, in English and in Chinese in two sessions: one line added.
    assert board.count("squash") == 1
    # Reaffirmed: kept byte for byte.
    assert "- When reviewing a pull request, run the test suite first [[groove-review]]\n" in board
