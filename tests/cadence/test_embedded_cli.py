"""The running commands in embedded mode (no broker): the same tasks, in-process."""

from __future__ import annotations

import json
import re

import pytest

from shared.kernel.paths import KernelPaths
from shared.partitions.state import read_state
from workers.cli import main


def run(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def test_tick_runs_both_partitions_and_records_them(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(demo, "tick") == 0
    out = capsys.readouterr().out
    assert out.startswith("tick 1 (manual)\n")
    assert "memory-weaver: UPDATED:" in out
    assert "memory-committer: Committed:" in out
    for name in ("memory-weaver", "memory-committer"):
        state = read_state(demo, name)
        assert (state.last_result, state.last_run_tick) == ("success", 1)
    assert not (demo.inbox_dir("memory-weaver") / "scan-gap.md.pending").exists()
    assert (demo.fragments_dir / "2026-01-05").is_dir()
    assert run(demo, "tick", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tick"] == 2 and report["runs"] == []


def test_weave_without_scan_gap_reports_no_new_gradient(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(demo, "weave", "--json", "--no-commit") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["text"].startswith("NO_NEW_GRADIENT:")


def test_scan_reads_a_date_or_interval_and_leaves_the_board(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    board = demo.board.read_bytes()
    assert run(demo, "scan", "--date", "2026-01-04") == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("scan 20260104[00,23]: ")
    assert "20 external turns judged" in captured.out
    assert "scan: 100% (1/1 slices)" in captured.err
    assert demo.board.read_bytes() == board  # scan never updates the board
    assert run(demo, "scan", "--interval", "20260104[04,07]", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["interval"] == "20260104[04,07]"
    assert report["stats"]["external"] == report["external_events"] > 0


def test_scan_range_options_are_validated(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(demo, "scan") == 2
    assert "exactly one of" in capsys.readouterr().err
    assert run(demo, "scan", "--from", "2026-01-09", "--to", "2026-01-01") == 2
    assert "before --from" in capsys.readouterr().err
    assert run(demo, "scan", "--from", "2025-01-01", "--to", "2025-01-02") == 2
    assert "no spine day file" in capsys.readouterr().err


def test_enqueue_writes_dispatches_and_the_weaver_acks(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    inbox = demo.inbox_dir("memory-weaver")
    assert (
        run(
            demo,
            "enqueue",
            "--partition",
            "memory-weaver",
            "--name",
            "扫描-请求.pending",
            "请重新扫描 20260103[00,23]",
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"[0-9a-f-]{36}", out[0])
    assert "扫描-请求.pending" in "\n".join(out)
    assert not (inbox / "扫描-请求.pending").exists()


def test_enqueue_refuses_bad_or_existing_names(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    inbox = demo.inbox_dir("memory-weaver")
    assert run(demo, "enqueue", "--partition", "memory-weaver", "--name", "a:b.pending", "x") == 2
    assert "must not contain ':'" in capsys.readouterr().err
    assert not inbox.exists()
    # an unknown partition is refused, naming the known ones
    assert run(demo, "enqueue", "--partition", "pattern-tracker", "--name", "n.pending", "x") == 2
    err = capsys.readouterr().err
    assert "unknown partition 'pattern-tracker'" in err and "memory-weaver" in err
    assert not demo.inbox_dir("pattern-tracker").exists()
    # an item for a partition subcon does not run is written, not dispatched
    prompt = demo.kernel / "subconscious" / "pattern-tracker" / "CLAUDE.md"
    prompt.parent.mkdir(parents=True)
    prompt.write_text("---\nschedule:\n  enabled: false\n---\nTrack patterns.\n", "utf-8")
    assert run(demo, "enqueue", "--partition", "pattern-tracker", "--name", "n.pending", "x") == 0
    assert (demo.inbox_dir("pattern-tracker") / "n.pending").read_text() == "x\n"
    assert run(demo, "enqueue", "--partition", "pattern-tracker", "--name", "n.pending", "y") == 2
    assert "already exists" in capsys.readouterr().err
    assert (
        run(
            demo,
            "enqueue",
            "--partition",
            "pattern-tracker",
            "--name",
            "n.pending",
            "--replace",
            "y",
        )
        == 0
    )
    assert (demo.inbox_dir("pattern-tracker") / "n.pending").read_text() == "y\n"
