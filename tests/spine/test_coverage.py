"""Coverage dirs and the .scan.json progress file."""

from __future__ import annotations

import pytest

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.coverage import (
    ScanProgress,
    covered_dates,
    mark_day_covered,
    read_progress,
    scan_progress,
)
from shared.spine.interval import parse_interval
from shared.spine.slices import plan_slices
from tests.spine.helpers import event, msg, write_day


def test_mark_covered_writes_pretty_progress_dot_file(paths: KernelPaths) -> None:
    progress = ScanProgress("evt_1", 1234, "2026-01-05T09:12:33.200Z")
    mark_day_covered(paths, "2026-01-05", progress)
    path = paths.fragment_day_dir("2026-01-05") / ".scan.json"
    assert path.read_text("utf-8") == (
        '{\n  "last_event_id": "evt_1",\n  "byte_offset": 1234,\n'
        '  "last_ts": "2026-01-05T09:12:33.200Z"\n}\n'
    )
    assert read_progress(paths, "2026-01-05") == progress
    assert covered_dates(paths) == {"2026-01-05"}


def test_mark_covered_without_progress_makes_an_empty_dir(paths: KernelPaths) -> None:
    mark_day_covered(paths, "2026-01-05", None)
    assert list(paths.fragment_day_dir("2026-01-05").iterdir()) == []
    assert read_progress(paths, "2026-01-05") is None


@pytest.mark.parametrize("date", ["2026-1-5", "../x", "2026-01-05/..", ""])
def test_bad_dates_are_rejected(paths: KernelPaths, date: str) -> None:
    with pytest.raises(InputError):
        mark_day_covered(paths, date, None)


@pytest.mark.parametrize(
    "text",
    [
        "{oops",
        "[]",
        '{"byte_offset": -1}',
        '{"byte_offset": "3"}',
        '{"byte_offset": 3, "last_ts": "later"}',
        '{"byte_offset": 3, "last_event_id": 7}',
    ],
)
def test_bad_progress_files_raise_input_error_naming_the_file(
    paths: KernelPaths, text: str
) -> None:
    mark_day_covered(paths, "2026-01-05", None)
    (paths.fragment_day_dir("2026-01-05") / ".scan.json").write_text(text)
    with pytest.raises(InputError) as info:
        read_progress(paths, "2026-01-05")
    assert ".scan.json" in str(info.value)


def test_scan_progress_up_to_a_slice_plan(paths: KernelPaths) -> None:
    events = [
        msg("stdio", "2026-01-05T03:00:00.000Z"),
        msg("stdio", "2026-01-05T05:00:00.000Z"),
        event("system.cadence_tick", "system", "2026-01-05T04:00:00.000Z"),
    ]
    path = write_day(paths, "2026-01-05", events)
    (s,) = plan_slices(paths, parse_interval("20260105[03,05]"), 100)
    with open(path, "ab") as handle:
        handle.write(
            b'{"type":"late","source":{"kind":"stdio"},"id":"evt_late",'
            b'"ts":"2026-01-05T23:00:00.000Z"}\n'
        )
    progress = scan_progress(paths, "2026-01-05", s.file_size)
    assert progress.byte_offset == s.file_size < path.stat().st_size
    assert progress.last_event_id == events[2]["id"]
    assert progress.last_ts == "2026-01-05T05:00:00.000Z"  # the greatest ts, not the last line's
    whole = scan_progress(paths, "2026-01-05")
    assert (whole.last_event_id, whole.byte_offset) == ("evt_late", path.stat().st_size)


def test_scan_progress_of_a_missing_day(paths: KernelPaths) -> None:
    assert scan_progress(paths, "2026-01-05") == ScanProgress(None, 0, None)
