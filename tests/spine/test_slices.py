"""Slice planning: every matching event is read by exactly one slice."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.event import render_event, ts_hour
from shared.spine.interval import Band, Window, parse_interval
from shared.spine.reader import ReadStats, iter_day, iter_slice
from shared.spine.slices import SpineSlice, plan_slices, quick_ts
from tests.spine.helpers import event, msg, write_day, write_lines

DATE = "2026-01-05"


def _ts(hour: int, second: int) -> str:
    return f"{DATE}T{hour:02d}:{second // 60:02d}:{second % 60:02d}.000Z"


def _read_all(paths: KernelPaths, slices: list[SpineSlice]) -> Counter[int]:
    seen: Counter[int] = Counter()
    for s in slices:
        restored = SpineSlice.from_json(s.to_json())
        assert restored == s
        for record in iter_slice(paths, restored, ReadStats(), 1 << 20):
            seen[record.lineno] += 1
    return seen


def _expected(paths: KernelPaths, match_hours: set[int]) -> set[int]:
    path = paths.day_file(DATE)
    return {
        r.lineno
        for r in iter_day(path, ReadStats(), 1 << 20)
        if isinstance(r.event.get("ts"), str) and ts_hour(r.event["ts"]) in match_hours
    }


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    hours=st.lists(st.integers(0, 23), min_size=0, max_size=60),
    bands=st.lists(
        st.tuples(st.integers(0, 23), st.integers(0, 23)).map(lambda t: (min(t), max(t))),
        min_size=1,
        max_size=4,
    ),
    max_events=st.integers(1, 7),
    internal_every=st.integers(2, 5),
)
def test_slices_cover_matching_events_exactly_once(
    paths: KernelPaths,
    hours: list[int],
    bands: list[tuple[int, int]],
    max_events: int,
    internal_every: int,
) -> None:
    # hours are in arbitrary (out-of-order) sequence in the file.
    events = [
        event("agent.result", "runner", _ts(h, i))
        if i % internal_every == 0
        else msg("stdio", _ts(h, i), f"第{i}条")
        for i, h in enumerate(hours)
    ]
    write_day(paths, DATE, events)
    items: list[Band | Window] = [Band(DATE, a, b) for a, b in bands]
    slices = plan_slices(paths, items, max_events)
    wanted = {h for a, b in bands for h in range(a, b + 1)}
    seen = _read_all(paths, slices)
    assert set(seen) == _expected(paths, wanted)
    assert all(n == 1 for n in seen.values())
    per_slice = [len(list(iter_slice(paths, s, ReadStats(), 1 << 20))) for s in slices]
    assert all(n <= max_events for n in per_slice)


def test_dense_band_is_split_into_line_aligned_ranges(paths: KernelPaths) -> None:
    events = [msg("stdio", _ts(3, i)) for i in range(25)]
    path = write_day(paths, DATE, events)
    slices = plan_slices(paths, parse_interval("20260105[03,05]"), 10)
    assert [(s.part, s.parts) for s in slices] == [(1, 3), (2, 3), (3, 3)]
    data = path.read_bytes()
    for s in slices:
        assert s.byte_start == 0 or data[s.byte_start - 1 : s.byte_start] == b"\n"
        assert data[s.byte_end - 1 : s.byte_end] == b"\n"
        assert s.file_size == len(data)
    assert [s.first_line for s in slices] == [1, 11, 21]
    assert sum(_read_all(paths, slices).values()) == 25


def test_every_band_gets_a_slice_even_when_empty(paths: KernelPaths) -> None:
    write_day(paths, DATE, [msg("stdio", _ts(3, 0))])
    slices = plan_slices(paths, parse_interval("20260105[03,05] 20260105[14,15]"), 100)
    assert [s.token() for s in slices] == ["20260105[03,05]", "20260105[14,15]"]
    assert (slices[1].byte_start, slices[1].byte_end) == (0, 0)
    assert list(iter_slice(paths, slices[1], ReadStats(), 1024)) == []


def test_missing_day_file_gives_empty_slices(paths: KernelPaths) -> None:
    (s,) = plan_slices(paths, parse_interval("20260107[00,23]"), 100)
    assert (s.byte_start, s.byte_end, s.file_size) == (0, 0, 0)


def test_overlapping_bands_are_merged_so_nothing_is_read_twice(paths: KernelPaths) -> None:
    write_day(paths, DATE, [msg("stdio", _ts(h, h)) for h in (3, 4, 5, 6)])
    slices = plan_slices(paths, parse_interval("20260105[03,05] 20260105[04,06]"), 100)
    assert [s.token() for s in slices] == ["20260105[03,06]"]
    assert sorted(_read_all(paths, slices)) == [1, 2, 3, 4]


def test_window_slices_select_by_timestamp(paths: KernelPaths) -> None:
    events = [msg("stdio", _ts(10, i)) for i in range(6)]
    # an out-of-order line: ts inside the window but early in the file
    early = _ts(10, 3).replace(".000Z", ".500Z")
    events.insert(0, msg("feishu", early))
    write_day(paths, DATE, events)
    token = f"{DATE}[{_ts(10, 2)},{_ts(10, 4)}]"
    slices = plan_slices(paths, parse_interval(token), 2)
    got = [r.event["ts"] for s in slices for r in iter_slice(paths, s, ReadStats(), 1 << 20)]
    assert sorted(got) == [_ts(10, 3), early, _ts(10, 4)]


def test_overlapping_windows_merge(paths: KernelPaths) -> None:
    write_day(paths, DATE, [msg("stdio", _ts(10, i)) for i in range(6)])
    token = f"{DATE}[{_ts(10, 0)},{_ts(10, 3)}] {DATE}[{_ts(10, 2)},{_ts(10, 5)}]"
    slices = plan_slices(paths, parse_interval(token), 100)
    assert len(slices) == 1
    assert sorted(_read_all(paths, slices)) == [2, 3, 4, 5, 6]


def test_bands_and_windows_for_one_date_are_rejected(paths: KernelPaths) -> None:
    token = f"20260105[03,05] {DATE}[,{_ts(10, 0)}]"
    with pytest.raises(InputError, match="mixes hour bands and a time window"):
        plan_slices(paths, parse_interval(token), 10)


def test_slices_are_small_json_without_event_content(paths: KernelPaths) -> None:
    write_day(paths, DATE, [msg("stdio", _ts(3, 0), "secret 秘密 text")])
    (s,) = plan_slices(paths, parse_interval("20260105[03,03]"), 10)
    text = render_event(s.to_json())
    assert "secret" not in text and "秘密" not in text
    assert s.to_json()["partition"] == "var/events/2026-01-05.jsonl"


def test_from_json_rejects_garbage() -> None:
    with pytest.raises(InputError):
        SpineSlice.from_json({"date": DATE})


@pytest.mark.parametrize(
    ("line", "ts"),
    [
        (b'{"a":1,"ts":"2026-01-05T03:00:00.000Z"}\n', "2026-01-05T03:00:00.000Z"),
        (b'{"ts":"2026-01-05T03:00:00.000Z","a":1}\n', "2026-01-05T03:00:00.000Z"),
        (
            b'{"a":{"ts":"2026-01-05T04:00:00.000Z"},"ts":"2026-01-05T03:00:00.000Z"}\n',
            "2026-01-05T03:00:00.000Z",
        ),
        (
            b'{"ts":"2026-01-05T03:00:00.000Z","p":{"ts":"2026-01-05T04:00:00.000Z"}}\n',
            "2026-01-05T03:00:00.000Z",
        ),
        (b'{"a":"x\\",\\"ts\\":\\"2026-01-05T09:00:00.000Z"}\n', None),
        (b'{"a":1}\n', None),
        (b"{broken\n", None),
    ],
)
def test_quick_ts_finds_the_top_level_ts(line: bytes, ts: str | None) -> None:
    assert quick_ts(line) == ts


def test_malformed_and_huge_lines_inside_a_range_are_counted(paths: KernelPaths) -> None:
    path = paths.day_file(DATE)
    write_lines(
        path,
        [
            render_event(msg("stdio", _ts(3, 0))).encode(),
            b"{not json",
            b'{"x":"' + b"z" * 3000 + b'"}',
            render_event(msg("stdio", _ts(3, 1))).encode(),
        ],
    )
    (s,) = plan_slices(paths, parse_interval("20260105[03,03]"), 10, max_line_bytes=1024)
    stats = ReadStats()
    got = list(iter_slice(paths, s, stats, 1024))
    assert [r.lineno for r in got] == [1, 4]
    assert stats.malformed_count == 2


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seconds=st.lists(st.integers(0, 59), max_size=40),
    windows=st.lists(
        st.tuples(st.integers(0, 59), st.integers(0, 59)).filter(lambda t: t[0] < t[1]),
        min_size=1,
        max_size=3,
    ),
    max_events=st.integers(1, 5),
)
def test_window_slices_cover_the_union_exactly_once(
    paths: KernelPaths,
    seconds: list[int],
    windows: list[tuple[int, int]],
    max_events: int,
) -> None:
    write_day(paths, DATE, [msg("stdio", _ts(10, s), f"{i}") for i, s in enumerate(seconds)])
    items: list[Band | Window] = [Window(DATE, _ts(10, a), _ts(10, b)) for a, b in windows]
    seen = _read_all(paths, plan_slices(paths, items, max_events))
    wanted = {n for n, s in enumerate(seconds, start=1) if any(a < s <= b for a, b in windows)}
    assert set(seen) == wanted
    assert all(count == 1 for count in seen.values())


@settings(max_examples=300, deadline=None)
@given(
    stamps=st.lists(
        st.one_of(
            st.sampled_from([f"{DATE}T{h:02d}:00:00.000Z" for h in range(0, 30)]),
            st.sampled_from([DATE, f"{DATE}T", f"{DATE}T 7:00", f"{DATE}T٣:00", f"{DATE}T1.5"]),
            st.text(max_size=16),
            st.integers(),
        ),
        max_size=40,
    ),
    band=st.tuples(st.integers(0, 23), st.integers(0, 23)).map(sorted),
)
def test_band_predicate_remembers_the_hour_test_exactly(
    stamps: list[object], band: list[int]
) -> None:
    """The predicate caches its verdict per ``ts[11:13]``; it must equal ts_hour's."""
    s = SpineSlice(DATE, ((band[0], band[1]),), None, None, 0, 1, 1, 1)
    match = s.predicate()
    for _ in range(2):  # the second round answers from the cache
        for ts in stamps:
            hour = ts_hour(ts) if isinstance(ts, str) else None
            assert match({"ts": ts}) == (hour is not None and band[0] <= hour <= band[1])
