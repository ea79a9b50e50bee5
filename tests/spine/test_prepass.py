"""The planner's pre-pass shortcuts plan exactly what a line-by-line pre-pass plans."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.kernel.paths import KernelPaths
from shared.spine.event import ts_hour, ts_key
from shared.spine.interval import Band, Window, merge_hours
from shared.spine.lines import iter_raw_lines
from shared.spine.prepass import _canonical_tails, quick_ts
from shared.spine.slices import plan_slices

DATE = "2026-01-05"
_TAIL = rb',"ts":"\d{4}-\d\d-\d\dT(?:[01]\d|2[0-3]):\d\d:\d\d\.\d{3}Z"\}'
_TAILS = re.compile(rb"(?:" + _TAIL + rb"\n)*" + _TAIL)

CANONICAL_TS = st.builds(
    "{}T{:02d}:{:02d}:{:02d}.{:03d}Z".format,
    st.just(DATE),
    st.integers(0, 29),  # 24..29: canonical shape, invalid hour
    st.integers(0, 59),
    st.integers(0, 59),
    st.integers(0, 999),
)
TS = st.one_of(
    CANONICAL_TS,
    st.sampled_from(
        [
            DATE,
            f"{DATE}T3:00:00Z",
            f"{DATE}T 3:00:00.000Z",
            f"{DATE}T١٢:00:00.000Z",
            f"{DATE}T05:00:00+01:00",
            f"{DATE}T05:00:00.000",
            "garbage",
            "",
        ]
    ),
)
BAD = st.sampled_from(
    [
        b"",
        b"   ",
        b"{broken",
        b"[1,2]",
        b'{"a":1}\r',
        b',"ts":"2026-01-05T03:04:05.678Z"}',
        b'{"ts":"2026-01-05T02:00:00.000Z"}\r',
        b'{"a":"\xff","ts":"2026-01-05T02:00:00.000Z"}',
        b'{"a":"' + b"z" * 1100 + b'","ts":"2026-01-05T04:00:00.000Z"}',
        b'{"a":"x\\",\\"ts\\":\\"2026-01-05T09:00:00.000Z"}',
    ]
)


def _line(ts: str | int | None, spaced: bool, ts_first: bool) -> bytes:
    event: dict[str, object] = {"type": "channel.message", "source": {"kind": "stdio"}}
    if ts is not None:
        event = {"ts": ts, **event} if ts_first else {**event, "ts": ts}
    separators = (", ", ": ") if spaced else (",", ":")
    return json.dumps(event, ensure_ascii=False, separators=separators).encode()


LINES = st.lists(
    st.one_of(
        st.builds(_line, TS, st.booleans(), st.booleans()),
        st.builds(_line, st.sampled_from([None, 7]), st.just(False), st.just(False)),
        BAD,
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(
    canonical=st.lists(st.builds(_line, CANONICAL_TS, st.just(False), st.just(False)), min_size=1),
    other=st.lists(st.one_of(st.builds(_line, TS, st.booleans(), st.booleans()), BAD)),
    at=st.integers(0, 100),
)
def test_canonical_tails_is_the_tail_regex(
    canonical: list[bytes], other: list[bytes], at: int
) -> None:
    for lines in (canonical, canonical[:at] + other[:1] + canonical[at:]):
        _check_tails(lines)


def _check_tails(lines: list[bytes]) -> None:
    tails = b"\n".join(line[-33:] for line in lines)
    expected = tails if _TAILS.fullmatch(tails) else None
    assert _canonical_tails(lines) == expected


def _reference_plan(
    path: Path, items: list[Band | Window], max_events: int, limit: int
) -> list[tuple[int, int, int, int, int]]:
    """The plan of a line-by-line pre-pass: (start, end, first line, part, parts)."""
    runs = merge_hours(
        h for i in items if isinstance(i, Band) for h in range(i.start_hour, i.end_hour + 1)
    )
    windows = [i for i in items if isinstance(i, Window)]
    bounds = [(ts_key(w.after_ts) or "", ts_key(w.until_ts) or "") for w in windows]

    def classify(ts: str) -> int | None:
        if runs:
            hour = ts_hour(ts)
            hits = [n for n, (a, b) in enumerate(runs) if hour is not None and a <= hour <= b]
        else:
            key = ts_key(ts)
            hits = [n for n, (lo, hi) in enumerate(bounds) if key and lo < key <= hi]
        return hits[0] if hits else None

    matched: list[list[tuple[int, int, int]]] = [[] for _ in range(len(runs) or len(windows))]
    with open(path, "rb") as handle:
        for raw in iter_raw_lines(handle, offset=0, end=None, first_line=1, max_line_bytes=limit):
            ts = quick_ts(raw.data) if raw.data is not None else None
            index = classify(ts) if ts is not None else None
            if index is not None:
                matched[index].append((raw.offset, raw.offset + raw.length, raw.lineno))
    out = []
    for lines in matched:
        chunks = [lines[i : i + max_events] for i in range(0, len(lines), max_events)] or [[]]
        for part, c in enumerate(chunks, start=1):
            start, end, first = (c[0][0], c[-1][1], c[0][2]) if c else (0, 0, 1)
            out.append((start, end, first, part, len(chunks)))
    return out


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=LINES,
    bands=st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23)).map(sorted), max_size=3),
    window=st.tuples(st.integers(0, 23), st.integers(0, 23)).map(sorted),
    max_events=st.integers(1, 9),
    newline_at_end=st.booleans(),
)
def test_plan_equals_a_line_by_line_prepass(
    paths: KernelPaths,
    lines: list[bytes],
    bands: list[list[int]],
    window: list[int],
    max_events: int,
    newline_at_end: bool,
) -> None:
    path = paths.day_file(DATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\n".join(lines) + (b"\n" if newline_at_end else b""))
    after, until = f"{DATE}T{window[0]:02d}:00:00.000Z", f"{DATE}T{window[1]:02d}:30:00.000Z"
    items: list[Band | Window] = (
        [Band(DATE, a, b) for a, b in bands] if bands else [Window(DATE, after, until)]
    )
    for limit in (1024, 1 << 20):
        got = plan_slices(paths, items, max_events, max_line_bytes=limit)
        expected = _reference_plan(path, items, max_events, limit)
        assert [(s.byte_start, s.byte_end, s.first_line, s.part, s.parts) for s in got] == expected
        assert {s.file_size for s in got} == {path.stat().st_size}
