"""The batch reader of a slice's turns equals the record-by-record reader it replaced."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.kernel.paths import KernelPaths
from shared.language.text import one_line
from shared.spine.event import is_external, kind_label
from shared.spine.interval import Band, Window
from shared.spine.reader import ReadStats, iter_records, open_partition, parse_line
from shared.spine.slices import SpineSlice, plan_slices
from shared.weaver.scan import reading
from shared.weaver.scan import turns as turns_module
from shared.weaver.scan.reading import read_slice_turns
from shared.weaver.scan.turns import Turn, TurnBuilder, _one_line, row_text, row_texts

DATE = "2026-01-05"
SESSIONS = ["a", "b", "c", "", 7, None, "é-ü", 'q"x', "s\\1"]
KINDS = ["stdio", "feishu", "runner", "runner", "meta", "", None, 5]
TYPES = ["channel.message", "agent.tool_use", "agent.tool_result", "agent.result", "x", None]
TEXTS = ["hi", " pad  me ", "tab\there", "nul\0x", "", "中文　全角", "w " * 400, 0, 1.5, True]
RAW = [
    b"",
    b"  ",
    b"{broken",
    b"[1]",
    b"42",
    b'{"a":"\xff"}',
    b'{"source":{"kind":"runner"},"type":"agent.result","session_key":"a",'
    b'"payload":{"text":"\\ud800 lone"},"ts":"2026-01-05T03:00:00.000Z"}',
    b'{"session_key":"zz","source":{"kind":"runner"},"type":"agent.result",'
    b'"session_key":"a","payload":{"text":"dup"},"ts":"2026-01-05T03:00:00.000Z"}',
    b'{"source":{"kind":"runner"},"type":"agent.result","payload":{"session_key":"a"},'
    b'"ts":"2026-01-05T03:00:00.000Z"}',
    b'{"a":"' + b"z" * 1100 + b'","ts":"2026-01-05T04:00:00.000Z"}',
]


@st.composite
def spine_line(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(RAW))
    event: dict[str, Any] = {"type": draw(st.sampled_from(TYPES))}
    kind = draw(st.sampled_from(KINDS))
    if kind is not None:
        event["source"] = {"kind": kind}
    session = draw(st.sampled_from(SESSIONS))
    if session is not None:
        event["session_key"] = session
    keys = ["text", "tool_name", "summary", "input_summary", "command"]
    event["payload"] = {
        k: draw(st.sampled_from(TEXTS)) for k in draw(st.sets(st.sampled_from(keys)))
    }
    if draw(st.booleans()):
        event["id"] = draw(st.sampled_from(["evt_1", "", 3]))
    event["ts"] = draw(st.sampled_from([f"{DATE}T0{h}:00:00.000Z" for h in range(4)] + [DATE, 1]))
    spaced = draw(st.booleans())
    text = json.dumps(
        event,
        ensure_ascii=draw(st.booleans()),
        separators=(", ", ": ") if spaced else (",", ":"),
    )
    return text.encode()


def _reference(
    paths: KernelPaths,
    s: SpineSlice,
    stats: ReadStats,
    limit: int,
    progress: Callable[[int, int], None],
) -> list[Turn]:
    """The record-by-record reader (iter_records + TurnBuilder.feed) it replaced."""
    if s.byte_end <= s.byte_start:
        return []
    builder, match, path = TurnBuilder(s.date), s.predicate(), paths.day_file(s.date)
    last_line = s.first_line - 1
    with open_partition(path) as handle:
        handle.seek(s.byte_start)
        for rec in iter_records(
            handle,
            str(path),
            stats,
            max_line_bytes=limit,
            offset=s.byte_start,
            end=s.byte_end,
            first_line=s.first_line,
        ):
            last_line = rec.lineno
            if stats.lines % 1000 == 0:
                progress(rec.offset - s.byte_start, s.byte_end - s.byte_start)
            external = is_external(rec.event)
            origin = external and match(rec.event)
            builder.feed(rec.lineno, rec.event, origin=origin, lookahead=False, external=external)
        if builder.has_open:
            newlines = path.read_bytes()[s.byte_start : s.byte_end].count(b"\n")
            for rec in iter_records(
                handle,
                str(path),
                ReadStats(),
                max_line_bytes=limit,
                offset=s.byte_end,
                end=None,
                first_line=max(s.first_line + newlines, last_line + 1),
            ):
                builder.feed(rec.lineno, rec.event, origin=False, lookahead=True)
                if not builder.has_open:
                    break
    return builder.turns


def _recorder(out: list[tuple[int, int]]) -> Callable[[int, int], None]:
    def record(done: int, total: int) -> None:
        out.append((done, total))

    return record


def _compare(paths: KernelPaths, items: list[Band | Window], max_events: int) -> None:
    for limit in (1024, 1 << 20):
        for s in plan_slices(paths, items, max_events, max_line_bytes=limit):
            calls: list[tuple[int, int]] = []
            ref_calls: list[tuple[int, int]] = []
            stats, ref_stats = ReadStats(lines=5), ReadStats(lines=5)
            got = read_slice_turns(paths, s, stats, limit, progress=_recorder(calls))
            expected = _reference(paths, s, ref_stats, limit, _recorder(ref_calls))
            assert got == expected
            assert stats.to_json() == ref_stats.to_json()
            assert calls == ref_calls


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(spine_line(), max_size=80),
    max_events=st.sampled_from([1, 2, 5, 30]),
    lookahead=st.integers(1, 6),
    band=st.sampled_from([(0, 23), (0, 1), (2, 2)]),
    newline_at_end=st.booleans(),
)
def test_batch_reader_equals_the_record_reader(
    paths: KernelPaths,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[bytes],
    max_events: int,
    lookahead: int,
    band: tuple[int, int],
    newline_at_end: bool,
) -> None:
    monkeypatch.setattr(turns_module, "LOOKAHEAD_LINES", lookahead)
    path = paths.day_file(DATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\n".join(lines) + (b"\n" if newline_at_end else b""))
    _compare(paths, [Band(DATE, *band)], max_events)
    _compare(paths, [Window(DATE, f"{DATE}T00:30:00.000Z", f"{DATE}T02:00:00.000Z")], max_events)


@pytest.mark.parametrize("lookahead", [6, 7, 2000])  # rows come every 7 lines
def test_progress_and_long_look_ahead_match_the_record_reader(
    paths: KernelPaths, monkeypatch: pytest.MonkeyPatch, lookahead: int
) -> None:
    """Thousands of lines: progress ticks, sessions open across slice ends, and turns
    expiring in the middle of a batch."""
    monkeypatch.setattr(turns_module, "LOOKAHEAD_LINES", lookahead)
    ts = f"{DATE}T03:00:00.000Z"
    lines = []
    for i in range(3500):
        session = f"s{i % 7}"
        if i % 97 == 0:
            lines.append("{bad line")
        elif i % 11 == 0:
            event = {"type": "channel.message", "source": {"kind": "stdio"}}
            lines.append(json.dumps({**event, "session_key": session, "ts": ts}))
        else:
            event = {"type": "agent.result", "source": {"kind": "runner"}, "session_key": session}
            lines.append(json.dumps({**event, "payload": {"text": f"r{i}"}, "ts": ts}))
    path = paths.day_file(DATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _compare(paths, [Band(DATE, 0, 23)], 1200)


def test_a_long_turn_keeps_its_last_tool_calls_past_the_row_cap(paths: KernelPaths) -> None:
    """A coding agent's long turn (a CI wait of hundreds of polls) still shows the command
    it ran at the end; both readers keep the same rows."""
    ts = f"{DATE}T03:00:00.000Z"
    runner = {"source": {"kind": "runner"}, "session_key": "s", "ts": ts}
    lines = [
        json.dumps(
            {
                "type": "channel.message",
                "source": {"kind": "codex"},
                "session_key": "s",
                "ts": ts,
                "payload": {"text": "merge it"},
            }
        )
    ]
    for i in range(turns_module.MAX_ROWS + 40):
        lines.append(
            json.dumps(
                {
                    **runner,
                    "type": "agent.tool_result",
                    "payload": {"tool_name": "wait", "summary": f"poll {i}"},
                }
            )
        )
    lines.append(
        json.dumps(
            {
                **runner,
                "type": "agent.tool_use",
                "payload": {"tool_name": "Bash", "input_summary": "gh pr merge 1"},
            }
        )
    )
    lines.append(json.dumps({**runner, "type": "agent.result", "payload": {"text": "merged"}}))
    path = paths.day_file(DATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _compare(paths, [Band(DATE, 0, 23)], 1200)
    (s,) = plan_slices(paths, [Band(DATE, 0, 23)], 1200, max_line_bytes=1 << 20)
    (turn,) = read_slice_turns(paths, s, ReadStats(), 1 << 20)
    rows = turn["rows"]
    # polls past the cap are dropped, the last call is kept, the reply after it is not
    assert len(rows) == turns_module.MAX_ROWS + 1
    assert rows[-1] == {"type": "agent.tool_use", "text": "Bash gh pr merge 1"}  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(" \t\n\r\x0b\x1c\x85\xa0\u3000\u2028\0ab中")))
def test_one_line_equals_the_shared_one_line(text: str) -> None:
    for limit in (3, 600):
        assert _one_line(text, limit) == one_line(text, limit)


@settings(max_examples=300, deadline=None)
@given(
    payload=st.dictionaries(
        st.sampled_from(["tool_name", "input_summary", "summary", "text", "other"]),
        st.one_of(st.none(), st.text(max_size=5), st.integers(), st.floats(), st.booleans()),
    )
)
def test_row_text_equals_its_general_form(payload: dict[str, Any]) -> None:
    keys = ("tool_name", "input_summary", "summary", "text")
    parts = [
        str(payload[k])
        for k in keys
        if isinstance(payload.get(k), str | int | float) and str(payload.get(k))
    ]
    assert row_text({"payload": payload}) == one_line(" ".join(parts), 600)


ROW_VALUES = st.one_of(
    st.none(),
    st.sampled_from(
        ["", " ", "a  b", " lead", "trail ", "x\ny", "nul\0", "中文　全角", "w " * 400]
    ),
    st.text(alphabet=st.sampled_from(" ab\t\u3000中"), max_size=8),
    st.integers(),
    st.floats(),
    st.booleans(),
)


@settings(max_examples=500, deadline=None)
@given(
    events=st.lists(
        st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "payload": st.one_of(
                        st.dictionaries(
                            st.sampled_from(["tool_name", "input_summary", "summary", "text", "o"]),
                            ROW_VALUES,
                        ),
                        st.none(),
                        st.just([1]),
                    )
                },
            ),
        ),
        max_size=12,
    )
)
def test_row_texts_equal_row_text_one_by_one(events: list[dict[str, Any]]) -> None:
    """The column-at-a-time texts of a batch's rows, on every payload shape."""
    assert row_texts(events) == [row_text(event) for event in events]


TEXT_VALUES = st.one_of(
    st.none(),
    st.sampled_from(
        ["", "Bash", "var/x.md", "中文", " lead", "trail ", "a  b", "t\tab", "w " * 400]
    ),
    st.text(alphabet=st.sampled_from(" ab\n\x85\u3000中"), max_size=6),
)


@settings(max_examples=500, deadline=None)
@given(
    payloads=st.lists(
        st.dictionaries(
            st.sampled_from(["tool_name", "input_summary", "summary", "text"]), TEXT_VALUES
        ),
        max_size=12,
    )
)
def test_row_texts_of_text_payloads_equal_row_text(payloads: list[dict[str, Any]]) -> None:
    """The usual shape (text or nothing under each key): the batch's one-test shortcut."""
    events = [{"payload": payload} for payload in payloads]
    assert row_texts(events) == [row_text(event) for event in events]


@pytest.mark.parametrize("session", ["a", "é-ü", 'q"x', "s\\1"])
def test_look_ahead_finds_rows_however_the_session_is_written(
    paths: KernelPaths, session: str
) -> None:
    """Past the slice end rows are picked by their raw bytes; any spelling of the
    session (escaped, spaced, a repeated key) must still be parsed and taken."""
    ts = f"{DATE}T03:00:00.000Z"
    row = {"type": "agent.result", "source": {"kind": "runner"}}

    def line(text: str, session_key: dict[str, str], **dumps: Any) -> str:
        return json.dumps({**row, **session_key, "payload": {"text": text}, "ts": ts}, **dumps)

    origin = {"type": "channel.message", "source": {"kind": "stdio"}, "session_key": session}
    lines = [
        json.dumps({**origin, "ts": ts}, ensure_ascii=False),
        line("plain", {"session_key": session}, ensure_ascii=False),
        line("ascii", {"session_key": session}, ensure_ascii=True),
        line("spaced", {"session_key": session}, separators=(", ", ": ")),
        line("dup", {"session_key": "zz"})[:-1] + f', "session_key": {json.dumps(session)}}}',
        json.dumps({**row, "payload": {"text": "nested", "session_key": session}, "ts": ts}),
    ]
    path = paths.day_file(DATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _compare(paths, [Band(DATE, 0, 23)], 1)
    first = plan_slices(paths, [Band(DATE, 0, 23)], 1)[0]
    turns = read_slice_turns(paths, first, ReadStats(), 1 << 20)
    assert [r["text"] for r in turns[0]["rows"]] == ["plain", "ascii", "spaced", "dup"]


AHEAD_LINES = [
    b'{"session_key":"a","x":1}',
    b'{"session_key":"\xc3\xa9-\xc3\xbc"}',
    b'{"session_key":"\xff"}',
    b'{"session_key":"\xed\xa0\x80"}',
    b'{"session_key": "a"}',
    b'{"session_key":"a',
    b'{"session_key":7}',
    b'{"session_key":"b","p":{"session_key":"a"}}',
    b'{"session_key":"q\\"x"}',
    b'{"p":"session_key"}',
]


@settings(max_examples=500, deadline=None)
@given(
    lines=st.lists(st.one_of(spine_line(), st.sampled_from(AHEAD_LINES)), max_size=12),
    sessions=st.sets(st.sampled_from(["a", "b", "zz", "é-ü", 'q"x', "\ud800", ""])),
)
def test_look_ahead_line_test_of_a_batch_equals_the_line_by_line_one(
    lines: list[bytes], sessions: set[str]
) -> None:
    wanted = {key.encode("utf-8", "surrogatepass") for key in sessions}
    touch = reading._touching(lines, sessions)
    assert touch is None or touch == [reading._may_touch(line, wanted) for line in lines]


@settings(max_examples=300, deadline=None)
@given(line=spine_line())
def test_origin_of_a_parsed_event_equals_make_origin(line: bytes) -> None:
    """The feed loop's origin (source gate values passed in) equals make_origin's."""
    stats = ReadStats()
    event = parse_line(line, "x", 1, stats)
    if event is None or not is_external(event):
        return
    session = event.get("session_key")
    key = session if isinstance(session, str) else ""
    kind = kind_label(event["source"]["kind"])
    made = turns_module._origin(event, DATE, 9, kind, event["ts"], key)
    assert made == turns_module.make_origin(event, DATE, 9)
    assert list(made) == list(turns_module.make_origin(event, DATE, 9))


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_leaves_the_cyclic_collector_as_it_found_it(
    paths: KernelPaths, enabled: bool
) -> None:
    """The reader pauses the collector for a slice and restores its state after."""
    ts = f"{DATE}T03:00:00.000Z"
    path = paths.day_file(DATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    origin = {"type": "channel.message", "source": {"kind": "stdio"}, "session_key": "a"}
    path.write_text(json.dumps({**origin, "ts": ts}) + "\n", encoding="utf-8")
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        for s in plan_slices(paths, [Band(DATE, 0, 23)], 10):
            read_slice_turns(paths, s, ReadStats(), 1 << 20)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
