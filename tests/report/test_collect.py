"""Data collection for ``subcon report`` on real kernels (real git, real files)."""

from __future__ import annotations

import json
import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shared.committer.audit import AuditLog, AuditRecord
from shared.formats.board import parse_board
from shared.formats.effectiveness import Effectiveness, Sample, render_effectiveness
from shared.jsontext import pretty
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import write_item
from shared.partitions.state import PartitionState, write_state
from shared.report.collector import Inputs, collect_report, report_json
from shared.report.model import ChangeKind, DayState, Trajectory
from shared.timestamps import iso
from tests.report.helpers import (
    commit_board,
    event_line,
    new_kernel,
    write_fragment,
    write_weaver_log,
)

A1 = "- When a deploy is requested, check staging first [[lesson-a]]"
A2 = "- When a deploy is requested, check staging health and the error budget first [[lesson-a]]"
B = "- When a meeting time has no zone, restate it in UTC [[lesson-b]]"
C1 = "- Quote the failing test name in every review"
C2 = "- Quote the failing test name and its first assertion in every review"
D = "- 当用户用中文提问时，先用中文给出结论 [[lesson-d]]"


def board(*lines: str) -> str:
    return "# Intuition\n\n## Lines\n" + "\n".join(lines) + "\n"


@pytest.fixture
def history_kernel(paths: KernelPaths) -> tuple[KernelPaths, str, str]:
    new_kernel(paths)
    v1 = commit_board(
        paths,
        board(A1, B, C1),
        "memory(intuition): add 3 broadcast lines",
        "- memory/CLAUDE.md: modified",
        "2026-01-01T00:00:00+00:00",
    )
    # The weaver's pass that removed B (then at L5 with effectiveness lesson-b).
    write_weaver_log(
        paths,
        "2026-01-01T12:00:00.000Z",
        [
            "memory/CLAUDE.md:L5 remove (WEAKENING (strengthening = 0; neutral = 1; weakening = 3)"
            " with no better direction: remove)"
        ],
        [
            {
                "ref": "memory/CLAUDE.md:L5",
                "effectiveness": "memory/effectiveness/lesson-b.md",
                "new": 1,
                "prior": 2,
            }
        ],
    )
    v2 = commit_board(
        paths,
        board(A2, C2, D),
        "memory(intuition): rewrite 2 broadcast lines; add 1; remove 1",
        "- memory/CLAUDE.md: modified\n\nMeta-Tick: 4\nPartition: memory-committer",
        "2026-01-02T00:00:00+00:00",
    )
    # Uncommitted: the updater removed A from the working tree.
    paths.board.write_text(board(C2, D), encoding="utf-8")
    return paths, v1, v2


def test_line_history_names_commits_reasons_and_uncommitted_removals(
    history_kernel: tuple[KernelPaths, str, str],
) -> None:
    paths, v1, v2 = history_kernel
    report = collect_report(paths, Inputs(days=7))
    by_marker = {h.marker: h for h in report.histories if h.marker}

    gone_b = by_marker["lesson-b"]
    assert not gone_b.on_board
    assert [c.kind for c in gone_b.changes] == [ChangeKind.ADD, ChangeKind.REMOVE]
    removal = gone_b.changes[-1]
    assert removal.commit == v2
    assert removal.subject == "memory(intuition): rewrite 2 broadcast lines; add 1; remove 1"
    assert "Meta-Tick: 4" in removal.body
    assert removal.reason is not None and "no better direction" in removal.reason
    assert (removal.strengthening, removal.neutral, removal.weakening) == (0, 1, 3)
    assert removal.old_text == B and removal.new_text is None
    assert gone_b.changes[0].commit == v1

    a = by_marker["lesson-a"]
    assert [(c.kind, c.commit) for c in a.changes] == [
        (ChangeKind.ADD, v1),
        (ChangeKind.REWRITE, v2),
        (ChangeKind.REMOVE, None),
    ]
    assert a.changes[1].old_text == A1 and a.changes[1].new_text == A2
    assert not a.on_board

    # The unmarked line rewritten in place is one history with a rewrite, not remove + add.
    unmarked = [h for h in report.histories if h.marker is None]
    assert len(unmarked) == 1
    assert [c.kind for c in unmarked[0].changes] == [ChangeKind.ADD, ChangeKind.REWRITE]
    assert unmarked[0].on_board and unmarked[0].text == C2

    # Lines gone from the board are listed first.
    assert [h.on_board for h in report.histories][:2] == [False, False]

    rows = {row.text: row for row in report.board}
    assert set(rows) == {C2, D}
    last = rows[C2].last_change
    assert last is not None and last.kind is ChangeKind.REWRITE and last.commit == v2
    assert rows[C2].history == unmarked[0].anchor


def test_board_rows_trajectories_strip_and_evidence(paths: KernelPaths) -> None:
    new_kernel(paths)
    text = board(A1, B)
    paths.board.write_text(text, encoding="utf-8")
    parsed = parse_board(text)
    a, _b = parsed.lines
    write_fragment(
        paths,
        "2026-03-01",
        "evt_1",
        a.number,
        a.hash,
        "lesson-a",
        "STRENGTHENING",
        "said: deploy now",
    )
    write_fragment(
        paths,
        "2026-03-01",
        "evt_2",
        a.number,
        a.hash,
        "lesson-a",
        "WEAKENING",
        "said: why no check",
    )
    write_fragment(
        paths, "2026-03-03", "evt_3", a.number, a.hash, "lesson-a", "WEAKENING", "said: 又没检查"
    )
    # Original-runtime style: no marker row; resolved through the line hash.
    write_fragment(paths, "2026-03-02", "evt_4", a.number, a.hash, None, "NEUTRAL", "said: ship it")
    eff = Effectiveness(
        node_slug="lesson-a",
        line_hash=a.hash,
        line=a.ref,
        current_line=a.text,
        trajectory="WEAKENING",
        strengthening=1,
        neutral=1,
        weakening=2,
        samples=(Sample("memory/fragments/2026-03-03/x.md", "WEAKENING: why"),),
        guidance=("REWRITE: the direction failed",),
    )
    paths.effectiveness_dir.mkdir(parents=True, exist_ok=True)
    (paths.effectiveness_dir / "lesson-a.md").write_text(
        render_effectiveness(eff), encoding="utf-8"
    )

    report = collect_report(paths, Inputs(days=3))
    assert (report.window.start, report.window.end) == ("2026-03-01", "2026-03-03")
    row_a, row_b = report.board
    assert row_a.trajectory is Trajectory.WEAKENING
    assert (row_a.strengthening, row_a.neutral, row_a.weakening) == (1, 1, 2)
    assert row_a.effectiveness == "memory/effectiveness/lesson-a.md"
    assert row_a.guidance == ("REWRITE: the direction failed",)
    assert [(d.date, d.strengthening, d.neutral, d.weakening) for d in row_a.strip] == [
        ("2026-03-01", 1, 0, 1),
        ("2026-03-02", 0, 1, 0),
        ("2026-03-03", 0, 0, 1),
    ]
    assert row_a.evidence_total == 4
    assert row_a.evidence[0].quotes == ("said: 又没检查",)  # newest first
    assert all(e.path.startswith("memory/fragments/2026-03-0") for e in row_a.evidence)
    assert row_b.trajectory is Trajectory.NO_EFF and row_b.evidence_total == 0
    assert row_a.section == "Lines"


def test_held_back_from_audit_then_from_a_fresh_review(paths: KernelPaths) -> None:
    new_kernel(paths)
    bad = "- The latest run completed and the queue is clear."
    paths.board.write_text(board(A1, bad), encoding="utf-8")
    mtime = datetime.fromtimestamp(paths.board.stat().st_mtime, UTC)
    wake = iso(mtime + timedelta(seconds=5))
    AuditLog(paths).append(
        [
            AuditRecord(
                decision="held",
                ts=wake,
                tick=3,
                file="memory/CLAUDE.md",
                line=5,
                gate="status-shape",
                reason="status-shape: run state",
                quote=bad[2:],
                duration_ms=40,
            )
        ]
    )
    report = collect_report(paths, Inputs(days=1))
    (held,) = report.held
    assert held.path == "memory/CLAUDE.md" and held.source == "audit"
    assert held.decided_at == wake
    assert [(x.line, x.gate, x.quote) for x in held.rejected] == [(5, "status-shape", bad[2:])]

    # Edited after that wake: the audit no longer describes the file; review it afresh.
    self_ref = "- The memory board is concise and durable."
    paths.board.write_text(board(A1, bad, self_ref), encoding="utf-8")
    later = time.time() + 60
    os.utime(paths.board, (later, later))
    report = collect_report(paths, Inputs(days=1))
    (held,) = report.held
    assert held.source == "review" and held.decided_at is None
    gates = {x.quote: x.gate for x in held.rejected}
    assert gates[bad[2:]] == "status-shape"
    assert gates[self_ref[2:]] == "self-reference"

    # A clean dirty file is not held back.
    paths.board.write_text(board(A1), encoding="utf-8")
    os.utime(paths.board, (later + 60, later + 60))
    assert collect_report(paths, Inputs(days=1)).held == ()


def test_partitions_cooldown_backoff_runs_and_inbox_age(paths: KernelPaths) -> None:
    new_kernel(paths)
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    write_state(
        paths,
        "memory-weaver",
        PartitionState(
            last_started_at="2026-05-01T11:00:00.000Z",
            last_finished_at="2026-05-01T11:00:02.500Z",
            last_result="error",
            consecutive_failures=2,
            backoff_until="2026-05-01T13:00:00.000Z",
            last_run_tick=5,
        ),
    )
    item = write_item(paths, "memory-weaver", "2026-05-01T11-00-00-000Z-ab12.pending", "[sink] x\n")
    hour_ago = now.timestamp() - 3600
    os.utime(item, (hour_ago, hour_ago))
    AuditLog(paths).append(
        [
            AuditRecord(
                decision="committed",
                ts="2026-05-01T11:30:00.000Z",
                tick=6,
                file="memory/CLAUDE.md",
                commit="a" * 40,
                duration_ms=250,
            )
        ]
    )
    report = collect_report(paths, Inputs(days=2, tick=7, now=now))
    rows = {p.name: p for p in report.partitions}
    weaver = rows["memory-weaver"]
    assert weaver.cooldown_ticks == 5 and weaver.last_run_tick == 5
    assert weaver.cooldown_remaining == 3
    assert weaver.backed_off and weaver.backoff_until == "2026-05-01T13:00:00.000Z"
    assert weaver.consecutive_failures == 2
    latest = weaver.runs[0]
    assert (latest.tick, latest.duration_ms, latest.result) == (5, 2500, "error")
    (pending,) = weaver.inbox
    assert pending.name == "2026-05-01T11-00-00-000Z-ab12.pending"
    assert pending.body == "[sink] x" and pending.age_seconds == 3600
    committer = rows["memory-committer"]
    (wake,) = committer.runs
    assert (wake.tick, wake.duration_ms, wake.result) == (6, 250, "committed")
    assert wake.started == "2026-05-01T11:29:59.750Z"


def test_coverage_calendar_states_counts_and_malformed_lines(paths: KernelPaths) -> None:
    new_kernel(paths)
    events = paths.events_dir
    events.mkdir(parents=True, exist_ok=True)
    covered = [
        event_line("stdio", "2026-02-01T01:00:00.000Z"),
        event_line("feishu", "2026-02-01T02:00:00.000Z"),
        event_line("system", "2026-02-01T03:00:00.000Z"),
        '{"type":"torn',
        "42",
    ]
    (events / "2026-02-01.jsonl").write_text("\n".join(covered) + "\n", encoding="utf-8")
    (events / "2026-02-02.jsonl").write_text(event_line("stdio", "2026-02-02T05:00:00.000Z") + "\n")
    (events / "2026-02-03.jsonl").write_text(
        event_line("cadence", "2026-02-03T05:00:00.000Z") + "\n"
    )
    first = event_line("stdio", "2026-02-05T01:00:00.000Z") + "\n"
    (events / "2026-02-05.jsonl").write_text(
        first + event_line("stdio", "2026-02-05T09:00:00.000Z") + "\n"
    )
    for day in ("2026-02-01", "2026-02-05"):
        (paths.fragments_dir / day).mkdir(parents=True, exist_ok=True)
    progress = {
        "last_event_id": "evt_x",
        "byte_offset": len(first.encode()),
        "last_ts": "2026-02-05T01:00:00.000Z",
    }
    (paths.fragments_dir / "2026-02-05" / ".scan.json").write_text(pretty(progress))

    report = collect_report(paths, Inputs(days=5))
    days = {d.date: d for d in report.coverage}
    assert [d.date for d in report.coverage] == [f"2026-02-0{i}" for i in range(1, 6)]
    assert days["2026-02-01"].state is DayState.COVERED
    assert (
        days["2026-02-01"].events,
        days["2026-02-01"].external,
        days["2026-02-01"].malformed,
    ) == (3, 2, 2)
    assert days["2026-02-02"].state is DayState.GAP
    assert days["2026-02-03"].state is DayState.QUIET
    assert days["2026-02-04"].state is DayState.NONE
    assert days["2026-02-05"].state is DayState.TAIL
    assert any("2026-02-01.jsonl:4" in p for p in report.problems)


def test_bad_input_is_listed_and_skipped_not_fatal(paths: KernelPaths) -> None:
    new_kernel(paths)
    paths.board.write_text(board(A1), encoding="utf-8")
    day = paths.fragments_dir / "2026-04-01"
    day.mkdir(parents=True)
    (day / "broken.md").write_text("no front matter\n", encoding="utf-8")
    paths.audit_dir.mkdir(parents=True)
    (paths.audit_dir / "2026-04-01.jsonl").write_text('{"decision":"held"\nnot json\n')
    paths.effectiveness_dir.mkdir(parents=True)
    (paths.effectiveness_dir / "lesson-a.md").write_bytes(b"---\nnode_slug: lesson-a\n\xff\n")
    report = collect_report(paths, Inputs(days=1))
    text = "\n".join(report.problems)
    assert "broken.md:1" in text
    assert "2026-04-01.jsonl:1" in text and "2026-04-01.jsonl:2" in text
    assert "lesson-a.md" in text
    assert report.board[0].trajectory is Trajectory.NO_EFF


def test_json_document_matches_records(history_kernel: tuple[KernelPaths, str, str]) -> None:
    paths, _v1, v2 = history_kernel
    report = collect_report(paths, Inputs(days=3))
    doc = json.loads(report_json(report))
    assert doc["schema"] == "subcon-report/1"
    assert [r["text"] for r in doc["board"]] == [C2, D]
    assert {r["trajectory"] for r in doc["board"]} == {"NO-EFF"}
    kinds = [c["kind"] for h in doc["histories"] for c in h["changes"]]
    assert set(kinds) == {"add", "rewrite", "remove"}
    assert any(c["commit"] == v2 for h in doc["histories"] for c in h["changes"])
    assert set(doc) == {
        "schema",
        "generated_at",
        "kernel",
        "runtime",
        "window",
        "tick",
        "board",
        "histories",
        "held",
        "commits",
        "partitions",
        "coverage",
        "imports",
        "problems",
    }
    assert doc["imports"] == []  # nothing imported into this runtime
    assert doc["commits"][0]["commit"] == v2


def test_missing_kernel_is_a_config_error(tmp_path: Path) -> None:
    from shared.errors import ConfigError

    with pytest.raises(ConfigError, match="does not exist"):
        collect_report(KernelPaths(tmp_path / "nope", tmp_path / "r"))


def test_a_kernel_without_git_still_reports_its_board(paths: KernelPaths) -> None:
    paths.memory_dir.mkdir(parents=True)
    paths.board.write_text(board(A1, B), encoding="utf-8")
    report = collect_report(paths, Inputs(days=1))
    assert [r.text for r in report.board] == [A1, B]
    assert report.held == () and report.commits == ()
    assert all(c.commit is None for h in report.histories for c in h.changes)
    assert any("not its own git repository" in p for p in report.problems)


def test_a_kernel_nested_in_another_repository_does_not_show_its_history(tmp_path: Path) -> None:
    from shared.kernel.git import run_git

    run_git(tmp_path, "init", "-q")
    (tmp_path / "outer.txt").write_text("x", encoding="utf-8")
    run_git(tmp_path, "add", "outer.txt")
    run_git(tmp_path, "commit", "-q", "-m", "outer commit")
    paths = KernelPaths(tmp_path / "kernel", tmp_path / "runtime")
    paths.memory_dir.mkdir(parents=True)
    paths.board.write_text(board(A1), encoding="utf-8")
    report = collect_report(paths, Inputs(days=1))
    assert report.commits == ()
    assert [c.commit for h in report.histories for c in h.changes] == [None]


def test_spine_counts_are_cached_beside_the_report_and_recounted_when_a_day_grows(
    paths: KernelPaths, tmp_path: Path
) -> None:
    new_kernel(paths)
    paths.events_dir.mkdir(parents=True, exist_ok=True)
    day = paths.day_file("2026-07-01")
    day.write_text(event_line("stdio", "2026-07-01T01:00:00.000Z") + "\n", encoding="utf-8")
    cache = tmp_path / "out" / ".spine-counts.json"
    inputs = Inputs(days=1, spine_cache=cache)
    assert collect_report(paths, inputs).coverage[0].external == 1
    assert json.loads(cache.read_text())["days"]["2026-07-01"]["external"] == 1
    # Same size and mtime: the cached counts are used, the file is not read again.
    st = day.stat()
    day.write_text(event_line("route", "2026-07-01T01:00:00.000Z") + "\n", encoding="utf-8")
    os.utime(day, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert day.stat().st_size == st.st_size
    assert collect_report(paths, inputs).coverage[0].external == 1
    # The day grew (append-only spine): it is read again, now with its current content.
    with open(day, "a", encoding="utf-8") as handle:
        handle.write(event_line("feishu", "2026-07-01T02:00:00.000Z") + "\n")
    grown = collect_report(paths, inputs).coverage[0]
    assert (grown.events, grown.external) == (2, 1)  # route (rewritten) + feishu
    # A damaged cache is ignored and rebuilt.
    cache.write_text("{not json", encoding="utf-8")
    assert collect_report(paths, inputs).coverage[0].events == 2
    assert json.loads(cache.read_text())["days"]["2026-07-01"]["events"] == 2


def test_two_lines_sharing_a_marker_keep_separate_histories_and_evidence(
    paths: KernelPaths,
) -> None:
    new_kernel(paths)
    twin1 = "- When a deploy is requested, check staging first [[lesson-a]]"
    twin2 = "- When a rollback is requested, check the last good build [[lesson-a]]"
    commit_board(paths, board(twin1, twin2), "memory(intuition): add", "", "2026-01-01T00:00:00Z")
    text = board(twin1, twin2)
    lines = parse_board(text).lines
    write_fragment(
        paths, "2026-01-01", "evt_1", lines[1].number, lines[1].hash, None, "WEAKENING", "q"
    )
    paths.board.write_text(board(twin1), encoding="utf-8")
    report = collect_report(paths, Inputs(days=1))
    assert len(report.histories) == 2
    gone = [h for h in report.histories if not h.on_board]
    assert [h.text for h in gone] == [twin2]
    assert [c.kind for c in gone[0].changes] == [ChangeKind.ADD, ChangeKind.REMOVE]
    (row,) = report.board
    assert row.text == twin1 and row.evidence_total == 0


def test_an_unreadable_board_is_a_problem_not_a_mass_removal(paths: KernelPaths) -> None:
    new_kernel(paths)
    commit_board(paths, board(A1, B), "memory(intuition): add", "", "2026-01-01T00:00:00Z")
    paths.board.write_bytes(board(A1, B).encode() + b"\xff\n")
    report = collect_report(paths, Inputs(days=1))
    assert report.board == ()
    assert any("CLAUDE.md" in p and "board not shown" in p for p in report.problems)
    assert all(h.on_board for h in report.histories) and len(report.histories) == 2


def test_the_report_lists_each_transcript_source_and_its_problems(tmp_path: Path) -> None:
    """A source's last import, what it wrote and its first problems, escaped in the page."""
    from shared.importing.run import import_and_record
    from shared.importing.sources import Source
    from shared.kernel.paths import KernelPaths
    from shared.report.collector import collect_report
    from shared.report.renderer import render_html
    from shared.setup.bootstrap import init_kernel
    from shared.setup.demo.transcripts import write_demo_project

    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(paths, demo=False, force=False)
    project = write_demo_project(tmp_path / "projects")
    (project / "<b>broken.jsonl").write_bytes(b"{not json\n")
    import_and_record(paths, [Source("claude-code", project)], settle_seconds=0)
    report = collect_report(paths)
    (entry,) = report.imports
    assert entry.source == f"claude-code:{project}" and entry.events == 16
    assert entry.problems == 1 and "invalid JSON" in entry.problems_shown[0]
    page = render_html(report, tmp_path / "out")
    assert 'id="imports"' in page and "&lt;b&gt;broken.jsonl" in page
    assert "<b>broken" not in page
