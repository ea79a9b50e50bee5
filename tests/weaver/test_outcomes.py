"""End-to-end board outcomes (issue #11): two days of sessions, woven in embedded mode
on a real git kernel, then committed by the committer after its review gates.

The corpus (tests/corpora/sessions/outcomes.json) labels what the board must show:
reaffirmed lines kept verbatim, changed directions rewritten in the user's words,
a twice-given instruction (English, then Chinese) added, obsolete lines removed with
their text in the topic dossier, an operator line whose dossier was missing kept
(with a bootstrapped dossier), and a final board the review gates pass.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from shared.formats.board import parse_board
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.review.allowlist import FileKind
from shared.review.reviewer import review_text
from shared.settings import Settings
from shared.setup.bootstrap import init_kernel
from tests.weaver.helpers import write_day

CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "sessions" / "outcomes.json"


def _corpus() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CORPUS.read_text(encoding="utf-8"))
    return data


def _events(day: str, sessions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    n = 0
    for s_index, session in enumerate(sessions):
        for turn in session["turns"]:
            kind = session["key"].split(":")[0]
            rows = [("channel.message", "", turn["x"])] + [tuple(r) for r in turn.get("rows", [])]
            for etype, tool, text in rows:
                event: dict[str, Any] = {
                    "type": etype,
                    "source": {"kind": kind if etype == "channel.message" else "runner"},
                    "session_key": session["key"],
                }
                if etype == "agent.tool_use":
                    event["payload"] = {
                        "tool_use_id": f"t{n}",
                        "tool_name": tool,
                        "input_summary": text,
                    }
                else:
                    event["payload"] = {"text": text}
                event["id"] = f"evt_{day.replace('-', '')}_{n:03d}"
                event["ts"] = f"{day}T{3 + s_index:02d}:{n % 60:02d}:00.000Z"
                events.append(event)
                n += 1
    return events


@functools.lru_cache(maxsize=1)
def _woven(root: str) -> tuple[KernelPaths, list[dict[str, Any]], str]:
    corpus = _corpus()
    paths = KernelPaths(kernel=Path(root) / "kernel", runtime=Path(root) / "runtime")
    init_kernel(paths, demo=False, force=False)
    board = "\n".join(corpus["board"])
    paths.board.write_text(board, encoding="utf-8")
    paths.topics_dir.mkdir(parents=True, exist_ok=True)
    for slug in corpus["topics"]:
        title = "Groove" if slug.startswith("groove-") else "Lesson"
        line = next(ln for ln in parse_board(board).lines if ln.marker == slug)
        (paths.topics_dir / f"{slug}.md").write_text(
            f"# {title}: {slug}\n\n## Condition\n\n- {line.trigger}\n\n## Procedure\n\n"
            f"- {line.direction}\n",
            encoding="utf-8",
        )
    run_git(paths.kernel, "add", "-A", "memory")
    run_git(paths.kernel, "commit", "-q", "-m", "operator: board and topics")
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    from workers.embedded import run_partition

    reports = []
    for day, sessions in corpus["days"].items():
        write_day(paths, _events(day, sessions), day)
        interval = f"{day.replace('-', '')}[00,23]"
        reports.append(run_partition(settings, "memory-weaver", interval=interval))
    return paths, reports, board


@pytest.fixture(scope="module")
def woven(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[KernelPaths, list[dict[str, Any]], str]:
    return _woven(str(tmp_path_factory.mktemp("outcomes")))


def _line(board: str, marker: str) -> str | None:
    return next((ln.text for ln in parse_board(board).lines if ln.marker == marker), None)


@pytest.mark.parametrize("marker", sorted(_corpus()["expect_board"]))
def test_each_line_has_its_labelled_outcome(woven: Any, marker: str) -> None:
    paths, _, before = woven
    outcome, detail = _corpus()["expect_board"][marker]
    after = paths.board.read_text(encoding="utf-8")
    old, new = _line(before, marker), _line(after, marker)
    if outcome == "kept":
        assert new == old, detail
    elif outcome == "rewritten":
        assert new == detail
    else:
        assert new is None, detail
        assert old is not None
        topic = (paths.topics_dir / f"{marker}.md").read_text(encoding="utf-8")
        assert old.lstrip("- ") in topic and "Retired because: obsolete" in topic


def test_the_twice_given_instruction_is_added_once(woven: Any) -> None:
    paths, _, _ = woven
    text, _why = _corpus()["expect_added"]
    lines = paths.board.read_text(encoding="utf-8").split("\n")
    assert lines.count(text) == 1


def test_missing_dossier_is_bootstrapped_not_the_line_removed(woven: Any) -> None:
    paths, reports, _ = woven
    topic = paths.topics_dir / "groove-refund-policy.md"
    text = topic.read_text(encoding="utf-8")
    assert "## Condition" in text and "open the refund policy before answering" in text
    assert "memory/topics/groove-refund-policy.md" in reports[0]["changed"]


def test_final_board_passes_the_review_gates_and_is_committed(woven: Any) -> None:
    paths, _, _ = woven
    board = paths.board.read_text(encoding="utf-8")
    rejects = [d for d in review_text("memory/CLAUDE.md", FileKind.BOARD, board) if d.rejected]
    assert not rejects, [(d.text, d.gate, d.reason) for d in rejects]
    committed = run_git(paths.kernel, "show", "HEAD:memory/CLAUDE.md").stdout
    assert committed == board


def test_commit_bodies_name_the_evidence_and_class(woven: Any) -> None:
    paths, _, _ = woven
    log = run_git(paths.kernel, "log", "--format=%B", "--", "memory/CLAUDE.md").stdout
    assert "[direction-changed]" in log and "[obsolete]" in log and "[new-signal]" in log
    assert "1 new (memory/fragments/2026-03-1" in log
    assert "2 fragments (memory/fragments/2026-03-10/" in log


def test_reports_name_each_edit_with_its_evidence(woven: Any) -> None:
    _, reports, _ = woven
    changes = [c for r in reports for c in r.get("line_changes", [])]
    rewrite = [c for c in changes if "rewrite [direction-changed]" in c]
    assert len(rewrite) == 2
    assert all("new" in c and "memory/fragments/" in c for c in rewrite)
    removed = [c for c in changes if "remove [obsolete]" in c]
    assert len(removed) == 2
