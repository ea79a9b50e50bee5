"""Streaming reads: bad lines are skipped and counted, never fatal."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.event import render_event
from shared.spine.reader import MALFORMED_KEEP, ReadStats, iter_day
from tests.spine.helpers import event, msg, write_lines


def _line(e: dict[str, object]) -> bytes:
    return render_event(e).encode("utf-8")


def test_bad_lines_are_skipped_counted_and_located(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    good = [msg("stdio", f"2026-01-05T0{h}:00:00.000Z", "早上好") for h in range(4)]
    write_lines(
        path,
        [
            _line(good[0]),
            b'{"type":"broken",',
            b"",
            b"[1,2,3]",
            b'{"type":"x","payload":{"text":"\xff\xfe bad"}}',
            _line(good[1]),
            _line(event("system.cadence_tick", "system", "2026-01-05T05:00:00.000Z")),
            _line(good[2]),
        ],
    )
    stats = ReadStats()
    records = list(iter_day(path, stats, 1024))
    assert [r.lineno for r in records] == [1, 6, 7, 8]
    assert records[1].event == good[1]
    assert stats.lines == 8
    assert stats.events == 4
    assert stats.external == 3
    assert stats.malformed_count == 3
    assert [m.split(": ", 1)[0] for m in stats.malformed] == [
        f"{path}:2",
        f"{path}:4",
        f"{path}:5:32",  # line 5, column 32: the first byte that is not UTF-8
    ]
    assert "not valid UTF-8" in stats.malformed[2]
    assert "not a JSON object" in stats.malformed[1]


def test_offsets_point_at_line_starts(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    lines = [_line(msg("feishu", f"2026-01-05T1{h}:00:00.000Z", "中文" * h)) for h in range(5)]
    write_lines(path, lines)
    data = path.read_bytes()
    for record in iter_day(path, ReadStats(), 1 << 20):
        end = data.index(b"\n", record.offset)
        assert data[record.offset : end] == lines[record.lineno - 1]


def test_ten_megabyte_line_is_skipped_and_later_lines_still_read(
    paths: KernelPaths, tmp_path: Path
) -> None:
    path = paths.day_file("2026-01-05")
    huge = b'{"type":"channel.message","payload":{"text":"' + b"x" * (10 * 1024 * 1024) + b'"}}'
    after = msg("stdio", "2026-01-05T09:00:00.000Z")
    write_lines(path, [_line(msg("stdio", "2026-01-05T08:00:00.000Z")), huge, _line(after)])
    stats = ReadStats()
    records = list(iter_day(path, stats, 4 * 1024 * 1024))
    assert [r.lineno for r in records] == [1, 3]
    assert records[1].event == after
    assert records[1].offset == len(huge) + 1 + len(_line(records[0].event)) + 1
    assert stats.malformed_count == 1
    assert stats.malformed[0].startswith(f"{path}:2: line longer than")


def test_over_long_final_line_without_newline(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    path.parent.mkdir(parents=True)
    path.write_bytes(_line(msg("stdio", "2026-01-05T08:00:00.000Z")) + b"\n" + b"y" * 5000)
    stats = ReadStats()
    assert len(list(iter_day(path, stats, 1024))) == 1
    assert stats.malformed_count == 1


def test_final_line_without_newline_is_read(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    path.parent.mkdir(parents=True)
    path.write_bytes(_line(msg("stdio", "2026-01-05T08:00:00.000Z")))
    assert len(list(iter_day(path, ReadStats(), 1024))) == 1


def test_carriage_return_is_not_a_line_break(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    path.parent.mkdir(parents=True)
    e = msg("stdio", "2026-01-05T08:00:00.000Z", "a\rb")
    path.write_bytes(_line(e) + b"\r\n")
    (record,) = iter_day(path, ReadStats(), 1024)
    assert record.event["payload"]["text"] == "a\rb"


def test_malformed_list_is_capped_but_count_is_complete(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    write_lines(path, [b"{bad"] * (MALFORMED_KEEP + 50))
    stats = ReadStats()
    assert list(iter_day(path, stats, 1024)) == []
    assert stats.malformed_count == MALFORMED_KEEP + 50
    assert len(stats.malformed) == MALFORMED_KEEP


def test_external_only_filter(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    write_lines(
        path,
        [
            _line(event("agent.result", "runner", "2026-01-05T01:00:00.000Z")),
            _line(msg("stdio", "2026-01-05T02:00:00.000Z")),
        ],
    )
    stats = ReadStats()
    records = list(iter_day(path, stats, 1024, external_only=True))
    assert [r.lineno for r in records] == [2]
    assert (stats.events, stats.external) == (2, 1)


def test_missing_file_is_a_clear_input_error(paths: KernelPaths) -> None:
    with pytest.raises(InputError) as info:
        list(iter_day(paths.day_file("2026-01-05"), ReadStats(), 1024))
    assert "2026-01-05.jsonl" in str(info.value)


def test_stats_merge_and_json_round_trip() -> None:
    a = ReadStats(lines=2, events=1, external=1, malformed=["f:1: x"], malformed_count=1)
    b = ReadStats(lines=3, events=3, external=0, malformed=["f:9: y"], malformed_count=1)
    a.merge(b)
    assert a == ReadStats.from_json(a.to_json())
    assert (a.lines, a.events, a.malformed_count, a.malformed) == (5, 4, 2, ["f:1: x", "f:9: y"])


def test_offsets_and_line_numbers_across_many_chunks(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    lines = [
        _line(msg("stdio", f"2026-01-05T{i % 24:02d}:00:00.000Z", "消息" * (i % 50)))
        for i in range(3000)
    ]
    lines[1500] = b'{"x":"' + b"q" * 5000 + b'"}'  # over-long, mid-file
    write_lines(path, lines)
    data = path.read_bytes()
    stats = ReadStats()
    records = list(iter_day(path, stats, 4096))
    assert len(records) == 2999 and stats.malformed_count == 1
    for record in records:
        end = data.index(b"\n", record.offset)
        assert data[record.offset : end] == lines[record.lineno - 1]


def test_stats_are_live_at_every_yielded_record(paths: KernelPaths) -> None:
    path = paths.day_file("2026-01-05")
    write_lines(
        path,
        [
            _line(msg("stdio", "2026-01-05T01:00:00.000Z")),
            b"{bad",
            _line(event("agent.result", "runner", "2026-01-05T02:00:00.000Z")),
            _line(msg("stdio", "2026-01-05T03:00:00.000Z")),
        ],
    )
    stats = ReadStats()
    seen = [
        (r.lineno, stats.lines, stats.events, stats.external, stats.malformed_count)
        for r in iter_day(path, stats, 1024)
    ]
    assert seen == [(1, 1, 1, 1, 0), (3, 3, 2, 1, 1), (4, 4, 3, 2, 1)]
