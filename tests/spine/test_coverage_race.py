"""Coverage records only what a pass judged (`docs/formats.md` §9.5): external events
appended after the gap was posted, or while the pass runs, are offered by a later tail
exactly once.

Interop finding: with the gap posted for 20260105[11,11], an event appended at 12:00
before the pass ran was marked read (``.scan.json`` held the file end) and never
offered again.
"""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from shared.constants import SCAN_GAP_PENDING, WEAVER
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.spine.coverage import pass_progress, read_progress
from shared.spine.gap import find_gap, post_gap
from shared.spine.writer import append_event
from shared.testhooks import MATCH_ENV, PAUSE_ENV
from shared.weaver.pipeline import crystallize, plan_pass, scan_slice, settle, update
from tests.weaver.helpers import TinyLease

DATE = "2026-01-05"


def _msg(ts: str, text: str) -> dict[str, Any]:
    return {
        "type": "channel.message",
        "source": {"kind": "stdio", "name": "stdio-default"},
        "session_key": "stdio:default:1",
        "payload": {"text": text},
        "ts": ts,
    }


def _internal(ts: str) -> dict[str, Any]:
    return {
        "type": "agent.result",
        "source": {"kind": "runner", "name": "runner"},
        "session_key": "stdio:default:1",
        "payload": {"text": "ok"},
        "ts": ts,
    }


def _one_pass(paths: KernelPaths, settings: Settings) -> list[str]:
    """One weaver pass stage by stage; returns the ids of the external events judged."""
    lease = TinyLease()
    plan = plan_pass(paths, settings)
    results = [scan_slice(paths, settings, plan, s) for s in plan.slices]
    crystallized = crystallize(paths, settings, plan, results, lease)
    updated = update(paths, settings, plan, crystallized, lease)
    settle(paths, settings, plan, crystallized, updated, lease)
    return [turn["id"] for r in results for turn in r["turns"]]


def _post(paths: KernelPaths, settings: Settings) -> bool:
    gap = find_gap(paths, settings)
    if gap is None:
        return False
    assert post_gap(paths, gap).posted
    return True


def test_events_appended_before_and_during_a_pass_are_each_judged_once(
    paths: KernelPaths, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths.memory_dir.mkdir(parents=True)
    paths.board.write_text("- Lead with the answer, no filler openers.\n")
    ids = [append_event(paths, _msg(f"{DATE}T11:00:00.000Z", "first"))["id"]]
    append_event(paths, _internal(f"{DATE}T11:00:05.000Z"))
    assert _post(paths, settings)
    inbox = paths.inbox_dir(WEAVER) / SCAN_GAP_PENDING
    assert inbox.read_text().startswith("[scan-gap] 20260105[11,11]\n")

    # After the gap was posted, before the pass: another hour, and the posted hour.
    ids.append(append_event(paths, _msg(f"{DATE}T12:00:00.000Z", "no, lead with it"))["id"])
    ids.append(append_event(paths, _msg(f"{DATE}T11:30:00.000Z", "late in the band"))["id"])

    # During the pass: pause at the write of .scan.json and append two more.
    flag = tmp_path / "go"
    monkeypatch.setenv(PAUSE_ENV, f"write:{flag}")
    monkeypatch.setenv(MATCH_ENV, ".scan.json")
    judged: list[str] = []
    failure: list[BaseException] = []

    def first_pass() -> None:
        try:
            judged.extend(_one_pass(paths, settings))
        except BaseException as exc:  # surfaced below
            failure.append(exc)

    worker = threading.Thread(target=first_pass)
    worker.start()
    reached = flag.with_name(flag.name + ".reached")
    for _ in range(3000):
        if reached.exists() or not worker.is_alive():
            break
        threading.Event().wait(0.01)
    assert reached.exists(), failure
    ids.append(append_event(paths, _msg(f"{DATE}T13:00:00.000Z", "during the pass"))["id"])
    ids.append(append_event(paths, _msg(f"{DATE}T11:45:00.000Z", "during, in band"))["id"])
    append_event(paths, _internal(f"{DATE}T13:00:01.000Z"))
    flag.write_text("")
    worker.join(60)
    assert not failure and not worker.is_alive()
    assert sorted(judged) == sorted([ids[0], ids[2]])  # hour 11 of the planned file
    assert not inbox.exists()

    progress = read_progress(paths, DATE)
    assert progress is not None
    day = paths.day_file(DATE).read_bytes()
    # Stops at the 12:00 line: appended after the gap was posted, never judged.
    assert progress.byte_offset == day.rfind(b"\n", 0, day.index(b'"no, lead with it"')) + 1
    assert progress.last_ts == f"{DATE}T11:30:00.000Z"

    for _ in range(5):  # later ticks: gap check, then a pass, until nothing is left
        if not _post(paths, settings):
            break
        judged.extend(_one_pass(paths, settings))
    assert find_gap(paths, settings) is None
    assert Counter(judged) == Counter(ids)  # every external event exactly once


def test_band_pass_progress_stops_before_the_first_unjudged_event(paths: KernelPaths) -> None:
    first = append_event(paths, _msg(f"{DATE}T11:00:00.000Z", "a"))
    append_event(paths, _internal(f"{DATE}T11:00:01.000Z"))
    later = append_event(paths, _msg(f"{DATE}T12:00:00.000Z", "b"))
    size = paths.day_file(DATE).stat().st_size
    offset = paths.day_file(DATE).read_bytes().index(later["id"].encode())
    progress = pass_progress(
        paths,
        DATE,
        hours=frozenset({11}),
        window=None,
        file_size=size,
        last_event_id=first["id"],
        last_ts=first["ts"],
    )
    line_start = paths.day_file(DATE).read_bytes().rfind(b"\n", 0, offset) + 1
    assert progress.byte_offset == line_start
    assert progress.last_ts == f"{DATE}T11:00:00.000Z"
    # Every hour judged: the file end, as before.
    whole = pass_progress(
        paths,
        DATE,
        hours=frozenset({11, 12}),
        window=None,
        file_size=size,
        last_event_id=later["id"],
        last_ts=later["ts"],
    )
    assert (whole.byte_offset, whole.last_ts) == (size, later["ts"])


def test_tail_pass_progress_keeps_events_past_its_window(paths: KernelPaths) -> None:
    append_event(paths, _msg(f"{DATE}T11:00:00.000Z", "a"))
    mid = append_event(paths, _msg(f"{DATE}T12:00:00.000Z", "b"))
    append_event(paths, _msg(f"{DATE}T14:00:00.000Z", "c"))
    size = paths.day_file(DATE).stat().st_size
    progress = pass_progress(
        paths,
        DATE,
        hours=frozenset(),
        window=(f"{DATE}T11:00:00.000Z", f"{DATE}T12:00:00.000Z"),
        file_size=size,
        last_event_id=mid["id"],
        last_ts=mid["ts"],
    )
    data = paths.day_file(DATE).read_bytes()
    assert progress.byte_offset == data.rfind(b"\n", 0, data.index(b'"c"')) + 1
    assert progress.last_ts == f"{DATE}T12:00:00.000Z"
    assert progress.last_event_id == mid["id"]
