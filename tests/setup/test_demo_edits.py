"""The demo's synthetic users give each board-edit class on its day (labelling "Board
outcomes"): three ``subcon demo`` passes weave 2026-01-05, -04, -03 in that order."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

from shared.formats.board import parse_board
from shared.kernel.paths import KernelPaths
from shared.setup.demo.board import BOARD, REJECT_LINES
from workers.cli import main

WEEKLY = "groove-weekly-report"
DESIGN = "lesson-design-doc-decisions"
RECALLED = (
    "lesson-reply-first",
    "lesson-chinese-reply-language",
    "lesson-confirm-destructive",
    "groove-deploy-check",
    "lesson-timezone-restate",
)


def _lines(text: str) -> dict[str, str]:
    return {m: line.text for line in parse_board(text).lines for m in line.markers}


def test_three_passes_remove_rewrite_add_and_keep(tmp_path: Path) -> None:
    directory = tmp_path / "demo"
    paths = KernelPaths(directory / "kernel", directory / "runtime")
    boards = []
    for _ in range(3):
        with redirect_stdout(io.StringIO()):
            assert main(["demo", str(directory)]) == 0
        boards.append(paths.board.read_text(encoding="utf-8"))
    genesis = _lines(BOARD)

    # Pass 1 (2026-01-05): the user declared the weekly report cancelled.
    first = _lines(boards[0])
    assert WEEKLY not in first and set(first) == set(genesis) - {WEEKLY}
    dossier = (paths.topics_dir / f"{WEEKLY}.md").read_text(encoding="utf-8")
    assert genesis[WEEKLY] in dossier and "obsolete" in dossier

    # Pass 2 (2026-01-04): the Grafana instruction, once in English, once in Chinese.
    added = [line for line in boards[1].splitlines() if "Grafana" in line]
    assert len(added) == 1 and "Grafana" not in boards[0]
    assert added[0].startswith("- When you report an incident, ")
    assert added[0].endswith(" the Grafana dashboard link")

    # Pass 3 (2026-01-03): the design-doc line in the user's words, trigger and pointers kept.
    assert _lines(boards[1])[DESIGN] == genesis[DESIGN]
    assert _lines(boards[2])[DESIGN] == (
        "- When Alice shares a design doc, start with the risks the doc names "
        "[[alice-chen]] [[lesson-design-doc-decisions]]"
    )

    # Recall misses the user reaffirmed: kept byte for byte on every pass.
    for board in boards:
        lines = _lines(board)
        for marker in RECALLED:
            assert lines[marker] == genesis[marker], marker
        assert all(line in board for line in REJECT_LINES)
