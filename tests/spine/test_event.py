"""Spine event records: round trip, source gate, hour and date semantics."""

from __future__ import annotations

import json

import pytest

from shared.errors import InputError
from shared.spine.event import (
    event_date,
    is_external,
    js_number,
    kind_label,
    parse_event_line,
    render_event,
    ts_hour,
)

RUNTIME_LINES = [  # one event per line, exactly as the runtime writes them
    '{"type":"channel.message","source":{"kind":"stdio","name":"stdio-default","channel_id":"stdio-default"},"session_key":"stdio:default:28d3ca682f86","payload":{"text":"héllo","raw_path":"/home/u/.aladuo/var/ingress/ab/evt_2f45.json"},"routing_hint":{"target":"session"},"id":"evt_2f45c67f-9337-440d-98c4-3f5b8de55d78","ts":"2026-01-05T23:59:59.999Z"}',
    '{"type":"system.cadence_tick","source":{"kind":"system","name":"cadence"},"payload":{"count":0},"id":"evt_0d899d59-2691-4e7d-b8a8-66e45f933d35","ts":"2026-01-06T00:00:00.001Z"}',
    '{"type":"channel.message","source":{"kind":"feishu","name":"feishu-oc_1","channel_id":"feishu-oc_1"},"session_key":"lark:oc_1:9f","payload":{"text":"以后回复先给结论，不要寒暄。\\n谢谢！","media":[{"type":"image","path":"a.png"}],"raw_path":"/r/x.json"},"dedup":{"source_id":"m-1"},"routing_hint":{"target":"session","tags":["zh"]},"id":"evt_1","ts":"2026-01-05T03:10:00.000Z"}',
    '{"type":"job.spawn","source":{"kind":"cadence","name":"job-scanner"},"session_key":"job:daily-digest.1a2b3c4","payload":{"job_id":"daily-digest","cron":"0 9 * * *","tick":{"run_number":3,"triggered_at":"2026-01-05T09:00:12.000Z","previous_run_at":null}},"id":"evt_2","ts":"2026-01-05T09:00:12.001Z"}',  # noqa: E501
    '{"type":"agent.tool_result","source":{"kind":"runner","name":"runner"},"session_key":"s","payload":{"tool_use_id":"t1","tool_name":"Bash","is_error":false,"summary":"ok \\"quoted\\" \\u0001 tab\\t","ratio":0.25,"big":1e+21,"small":1e-7},"id":"evt_3","ts":"2026-01-05T10:00:00.000Z"}',  # noqa: E501
    '{"type":"x","source":{"kind":"stdio"},"payload":{"emoji":"😀","cjk":"记忆编织"},"id":"evt_4","ts":"2026-01-05T10:00:00.000Z"}',
]


@pytest.mark.parametrize("line", RUNTIME_LINES)
def test_render_parse_round_trip_is_byte_exact(line: str) -> None:
    event = parse_event_line(line.encode("utf-8"), "day.jsonl", 1)
    assert render_event(event) == line


def test_render_keeps_insertion_order_and_raw_utf8() -> None:
    out = render_event({"z": 1, "a": "中文", "m": {"b": True, "a": None}})
    assert out == '{"z":1,"a":"中文","m":{"b":true,"a":null}}'


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1"),
        (0.5, "0.5"),
        (1e-7, "1e-7"),
        (1e21, "1e+21"),
        (1e16, "10000000000000000"),
        (1.2345678901234568e20, "123456789012345680000"),
        (-2.5e-5, "-0.000025"),
        (-0.0, "0"),
    ],
)
def test_floats_render_like_javascript(value: float, text: str) -> None:
    assert js_number(value) == text


def test_parse_accepts_lf_and_crlf_tail() -> None:
    assert parse_event_line(b'{"a":1}\n', "f", 1) == {"a": 1}
    assert parse_event_line(b'{"a":1}\r\n', "f", 1) == {"a": 1}


def test_parse_accepts_lone_surrogate_escape_like_json_parse() -> None:
    assert parse_event_line(b'{"a":"\\ud800"}', "f", 1) == {"a": "\ud800"}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b'{"a":', "invalid JSON"),
        (b"[1,2]", "not a JSON object (list)"),
        (b'"str"', "not a JSON object (str)"),
        (b'{"a":"\xff\xfe"}', "not valid UTF-8"),
        (b'{"a":NaN}', "invalid JSON"),
    ],
)
def test_parse_errors_name_file_and_line(line: bytes, reason: str) -> None:
    with pytest.raises(InputError) as info:
        parse_event_line(line, "var/events/2026-01-05.jsonl", 418)
    assert str(info.value).startswith("var/events/2026-01-05.jsonl:418:")
    assert reason in str(info.value)


@pytest.mark.parametrize(
    ("line", "column"),
    [(b'{"a":"\xff\xfe"}', 7), (b'{"a":"\xe4\xb8\xad\xe6\x96\x87\xff"}', 9), (b"\xff{}", 1)],
)
def test_a_byte_that_is_not_utf8_is_named_by_line_and_column(line: bytes, column: int) -> None:
    """``file:LINE:COL: not valid UTF-8``, 1-based, the column in characters (issue #32):
    not "(byte 121)", an offset the reader has to count out."""
    with pytest.raises(InputError) as info:
        parse_event_line(line, "var/events/2026-01-05.jsonl", 418)
    assert str(info.value) == f"var/events/2026-01-05.jsonl:418:{column}: not valid UTF-8"


# Every event type the original daemon appends, with its source kind (docs/formats.md §4.6).
CATALOGUE = [
    ("channel.message", "stdio", True),
    ("channel.message", "feishu", True),
    ("channel.message", "rpc", True),
    ("channel.message", "ws", True),
    ("channel.command", "stdio", True),
    ("channel.attached", "lark", True),
    ("agent.result", "runner", False),
    ("agent.result", "gateway", False),
    ("agent.result", "meta", False),
    ("agent.error", "runner", False),
    ("agent.error", "meta", False),
    ("agent.tool_use", "runner", False),
    ("agent.tool_use", "meta", False),
    ("agent.tool_result", "runner", False),
    ("agent.tool_result", "meta", False),
    ("job.spawn", "cadence", False),
    ("job.spawn", "job", True),
    ("job.complete", "job", True),
    ("job.fail", "job", True),
    ("route.deliver", "route", False),
    ("config.changed", "rpc", True),
    ("system.cadence_tick", "system", False),
]


@pytest.mark.parametrize(("type_", "kind", "external"), CATALOGUE)
def test_source_gate_on_every_catalogued_event(type_: str, kind: str, external: bool) -> None:
    event = {
        "type": type_,
        "source": {"kind": kind, "name": "n"},
        "payload": {},
        "id": "evt_x",
        "ts": "2026-01-05T03:00:00.000Z",
    }
    assert is_external(event) is external


@pytest.mark.parametrize(
    "event",
    [
        {"source": {"kind": ""}, "ts": "2026-01-05T03:00:00.000Z"},
        {"source": {"kind": 0}, "ts": "2026-01-05T03:00:00.000Z"},
        {"source": {"kind": 0.0}, "ts": "2026-01-05T03:00:00.000Z"},
        {"source": {"kind": False}, "ts": "2026-01-05T03:00:00.000Z"},
        {"source": {"kind": None}, "ts": "2026-01-05T03:00:00.000Z"},
        {"source": {}, "ts": "2026-01-05T03:00:00.000Z"},
        {"source": "stdio", "ts": "2026-01-05T03:00:00.000Z"},
        {"ts": "2026-01-05T03:00:00.000Z"},
        {"source": {"kind": "stdio"}},
        {"source": {"kind": "stdio"}, "ts": 1767582000000},
    ],
)
def test_source_gate_rejects_missing_kind_or_ts(event: dict[str, object]) -> None:
    assert not is_external(event)


@pytest.mark.parametrize(
    ("line", "label"),
    [  # duoduo's gap-lint tests `!source.kind`: every truthy JSON value is a kind
        ('{"source":{"kind":5},"ts":"2026-01-07T11:00:00.000Z"}', "5"),
        ('{"source":{"kind":true},"ts":"2026-01-07T11:00:00.000Z"}', "true"),
        ('{"source":{"kind":[]},"ts":"2026-01-07T11:00:00.000Z"}', "[]"),
        ('{"source":{"kind":{}},"ts":"2026-01-07T11:00:00.000Z"}', "{}"),
        ('{"source":{"kind":["stdio"]},"ts":"2026-01-07T11:00:00.000Z"}', '["stdio"]'),
        ('{"source":{"kind":["system"]},"ts":"2026-01-07T11:00:00.000Z"}', '["system"]'),
    ],
)
def test_truthy_non_string_kind_is_external_as_in_the_original(line: str, label: str) -> None:
    event = parse_event_line(line.encode(), "day.jsonl", 1)
    assert is_external(event)
    assert kind_label(event["source"]["kind"]) == label


@pytest.mark.parametrize(
    ("ts", "hour"),
    [
        ("2026-01-05T03:10:00.000Z", 3),
        ("2026-01-05T23:59:59.999Z", 23),
        ("2026-01-05", 0),
        ("2026-01-05T", 0),
        ("2026-01-05T24:00:00Z", None),
        ("2026-01-05Tab:00:00Z", None),
        ("2026-01-05T 7:00", 7),
    ],
)
def test_ts_hour_follows_number_slice_semantics(ts: str, hour: int | None) -> None:
    assert ts_hour(ts) == hour


def test_event_date_is_utc_date_of_ts() -> None:
    assert event_date("2026-01-05T23:59:59.999Z") == "2026-01-05"
    assert event_date("2026-01-06T00:00:00.001Z") == "2026-01-06"
    assert event_date("2026-01-06T01:00:00.000+02:00") == "2026-01-05"
    with pytest.raises(InputError):
        event_date("yesterday")


def test_render_matches_stdlib_compact_for_plain_values() -> None:
    event = json.loads(RUNTIME_LINES[2])
    assert render_event(event) == json.dumps(event, ensure_ascii=False, separators=(",", ":"))
