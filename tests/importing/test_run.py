"""The import run: events in the original's shapes, idempotent and incremental, growing
last records left for later, replaced files, and the tail of an already-scanned day."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from shared.importing.envelope import event_id
from shared.importing.run import run_import
from shared.importing.sources import Source, parse_source, parse_sources
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.setup.demo.transcripts import SessionWriter, demo_sessions, write_demo_project
from shared.spine.coverage import mark_day_covered, scan_progress
from shared.spine.event import is_external
from shared.spine.gap import find_gap
from shared.timestamps import parse_iso

DAY = "2026-01-06"


@pytest.fixture
def paths(tmp_path: Path) -> KernelPaths:
    p = KernelPaths(kernel=tmp_path / "kernel", runtime=tmp_path / "runtime")
    p.runtime.mkdir()
    return p


def _events(paths: KernelPaths) -> list[dict[str, Any]]:
    out = []
    for day in sorted(paths.events_dir.glob("*.jsonl")):
        out += [orjson.loads(line) for line in day.read_bytes().splitlines()]
    return out


def _spine_bytes(paths: KernelPaths) -> dict[str, bytes]:
    return {
        str(p.relative_to(paths.runtime)): p.read_bytes() for p in paths.events_dir.rglob("*.jsonl")
    }


def test_demo_project_becomes_user_and_agent_events(paths: KernelPaths, tmp_path: Path) -> None:
    project = write_demo_project(tmp_path / "projects", DAY)
    report = run_import(paths, [Source("claude-code", project.parent)], settle_seconds=0)
    assert report.problem_count == 0, report.problems
    events = _events(paths)
    # Files are read one after another, so the spine holds them in file order.
    users = sorted((e for e in events if is_external(e)), key=lambda e: str(e["ts"]))
    # The /clear wrapper and the agent's replies are never the user's word; the system
    # reminder is cut out of the second session's request.
    assert [e["payload"]["text"] for e in users] == [
        "Fix the failing checkout test. From now on, always run `ruff check` before you "
        "commit, and remember this for every session.",
        "Please review the pull request for the payment refactor.",
        "You skipped the tests again: run the test suite first and quote the failing test name.",
        "提交之前一定要先运行 `ruff check`，记住这一条，以后都这样做。",
    ]
    assert {e["source"]["kind"] for e in users} == {"claude-code"}
    sessions = {s.session_id for s in demo_sessions(DAY)}
    assert {e["session_key"] for e in events} == {f"claude-code:{s}" for s in sessions}
    kinds = Counter(e["type"] for e in events if not is_external(e))
    assert kinds == {"agent.tool_use": 4, "agent.tool_result": 4, "agent.result": 4}
    assert all(
        e["source"] == {"kind": "runner", "name": "runner"} for e in events if not is_external(e)
    )
    # Every event has the id its record's identity gives, and lands on its own UTC day.
    for e in events:
        origin = e["payload"]["origin"]
        session = str(e["session_key"]).split(":", 1)[1]
        assert e["id"] == event_id("claude-code", session, origin["record"])
        assert str(e["ts"]).startswith(DAY)
    assert report.to_json()["user_events_written"] == 4


def test_reimport_writes_nothing_and_growth_adds_only_the_new_records(
    paths: KernelPaths, tmp_path: Path
) -> None:
    project = write_demo_project(tmp_path / "projects", DAY)
    source = [Source("claude-code", project)]
    first = run_import(paths, source, settle_seconds=0)
    before = _spine_bytes(paths)
    again = run_import(paths, source, settle_seconds=0)
    assert again.events == 0 and _spine_bytes(paths) == before
    assert all(f.unchanged for f in again.files)

    session = demo_sessions(DAY)[0]
    path = project / f"{session.session_id}.jsonl"
    session.user("Also add a changelog entry, please.")
    session.say("Added it under Unreleased.")
    path.write_bytes(session.jsonl())
    grown = run_import(paths, source, settle_seconds=0)
    assert grown.events == 2 and grown.user_events == 1
    events = _events(paths)
    assert len(events) == first.events + 2
    assert len({e["id"] for e in events}) == len(events)  # nothing twice
    by_id = paths.by_id_index.read_bytes().splitlines()
    assert len(by_id) == len(events)


def test_a_last_line_still_being_written_waits_for_the_next_run(
    paths: KernelPaths, tmp_path: Path
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    session = SessionWriter("0d6f3c1e-2c36-4a4e-9d55-0f7f1f6f7a10", parse_iso(f"{DAY}T10:00:00Z"))
    session.user("first request")
    session.user("second request, still being written")
    data = session.jsonl()
    cut = data[: len(data) - 30]  # the second record is cut inside its JSON
    path = project / f"{session.session_id}.jsonl"
    path.write_bytes(cut)
    report = run_import(paths, [Source("claude-code", project)], settle_seconds=3600)
    assert report.user_events == 1 and report.problem_count == 0
    path.write_bytes(data)  # the tool finished the line
    report = run_import(paths, [Source("claude-code", project)], settle_seconds=3600)
    assert report.user_events == 1
    texts = [e["payload"]["text"] for e in _events(paths)]
    assert texts == ["first request", "second request, still being written"]


def test_a_replaced_file_is_read_again_without_duplicates(
    paths: KernelPaths, tmp_path: Path
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    sid = "5b1c8f0e-1111-4a4e-9d55-0f7f1f6f7a10"
    session = SessionWriter(sid, parse_iso(f"{DAY}T10:00:00Z"))
    session.user("keep the first request")
    path = project / f"{sid}.jsonl"
    path.write_bytes(session.jsonl())
    run_import(paths, [Source("claude-code", project)], settle_seconds=0)
    # Rewritten from another copy: a different first record, then the old one again.
    other = SessionWriter(sid, parse_iso(f"{DAY}T09:00:00Z"))
    other.user("an earlier request the copy had")
    path.write_bytes(other.jsonl() + session.jsonl())
    report = run_import(paths, [Source("claude-code", project)], settle_seconds=0)
    assert [f.restarted for f in report.files] == [True]
    assert any("changed before the point already imported" in p for p in report.problems)
    texts = sorted(e["payload"]["text"] for e in _events(paths))
    assert texts == ["an earlier request the copy had", "keep the first request"]


def test_a_late_imported_session_of_a_scanned_day_is_offered_again(
    paths: KernelPaths, tmp_path: Path
) -> None:
    """An overlapping session imported after its day was read has older ts: the tail
    still offers it (no event goes unjudged)."""
    project = tmp_path / "p"
    project.mkdir()
    early = SessionWriter("aaaaaaaa-0000-4000-8000-000000000001", parse_iso(f"{DAY}T12:00:00Z"))
    early.user("the session imported first")
    (project / f"{early.session_id}.jsonl").write_bytes(early.jsonl())
    run_import(paths, [Source("claude-code", project)], settle_seconds=0)
    mark_day_covered(paths, DAY, scan_progress(paths, DAY))
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    assert find_gap(paths, settings) is None

    start = parse_iso(f"{DAY}T12:00:00Z") - timedelta(hours=2)
    late = SessionWriter("bbbbbbbb-0000-4000-8000-000000000002", start)
    late.user("a session that ran at the same time, imported later")
    (project / f"{late.session_id}.jsonl").write_bytes(late.jsonl())
    run_import(paths, [Source("claude-code", project)], settle_seconds=0)
    gap = find_gap(paths, settings)
    assert gap is not None and gap.incremental and gap.external_events == 1
    assert gap.after_ts is not None and gap.after_ts < f"{DAY}T10:00:07.000Z"


def test_source_entries_are_format_and_path(tmp_path: Path) -> None:
    assert parse_source("codex:~/x").root == Path.home() / "x"
    assert [s.fmt for s in parse_sources("claude-code:/a, codex:/b;aider:/c\nspecstory:/d")] == [
        "claude-code",
        "codex",
        "aider",
        "specstory",
    ]
    assert parse_sources(None) == [] and parse_sources("  ") == []
    for bad in ("claude:/a", "/just/a/path", "codex:"):
        with pytest.raises(Exception, match="is not FORMAT:PATH"):
            parse_source(bad)


@pytest.mark.parametrize(
    "text",
    [
        "plain",
        "中文，全角。",
        'quote " back\\slash',
        "ctl \x00\x01\x1f\t\n\r\x08\x0c",
        "\u2028\u2029",
        "😀 é",
        "\x7f/",
    ],
)
def test_batch_lines_are_what_json_stringify_writes(text: str) -> None:
    """The bulk writer's fast rendering is byte for byte the original's."""
    from shared.spine.event import render_event
    from shared.spine.writer import _line

    event = {"type": "channel.message", "payload": {"text": text, "n": 12, "ok": True, "x": None}}
    assert _line(event) == (render_event(event) + "\n").encode("utf-8")
    lone = {"payload": {"text": "cut \ud83d"}}
    assert _line(lone) == (render_event(lone) + "\n").encode("utf-8")
    from shared.spine.writer import index_lines

    for key in (f"claude-code:{text}", "cut \ud83d"):
        indexed = {"id": "evt_1", "ts": "2026-01-06T00:00:00.000Z", "session_key": key}
        by_id, by_session = index_lines(indexed, "2026-01-06.jsonl", 12, 34)
        position = {"partition": "2026-01-06.jsonl", "byte_offset": 12, "byte_len": 34}
        assert by_id == render_event({"event_id": "evt_1", **position})
        assert by_session == render_event(
            {"session_key": key, "event_id": "evt_1", **position, "ts": indexed["ts"]}
        )
