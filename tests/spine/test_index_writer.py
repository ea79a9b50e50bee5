"""The append writer (envelope, partitions, indexes, concurrency) and by-id reads."""

from __future__ import annotations

import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.index import read_event_by_id
from shared.spine.reader import ReadStats, iter_day
from shared.spine.writer import append_event
from tests.spine.helpers import write_lines

UUID4 = re.compile(r"evt_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def _jsonl(path: Path) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_envelope_keeps_caller_order_then_id_then_ts(paths: KernelPaths) -> None:
    fields = {
        "type": "channel.message",
        "source": {"kind": "stdio", "name": "stdio-default"},
        "session_key": "stdio:default:28d3ca682f86",
        "payload": {"text": "héllo 你好"},
        "routing_hint": {"target": "session"},
    }
    now = datetime(2026, 1, 5, 9, 12, 33, 123000, tzinfo=UTC)
    written = append_event(paths, fields, now=now)
    assert list(written) == [*fields, "id", "ts"]
    assert UUID4.fullmatch(str(written["id"]))
    assert written["ts"] == "2026-01-05T09:12:33.123Z"
    raw = paths.day_file("2026-01-05").read_text("utf-8")
    assert raw == (
        '{"type":"channel.message","source":{"kind":"stdio","name":"stdio-default"},'
        '"session_key":"stdio:default:28d3ca682f86","payload":{"text":"héllo 你好"},'
        f'"routing_hint":{{"target":"session"}},"id":"{written["id"]}",'
        '"ts":"2026-01-05T09:12:33.123Z"}\n'
    )


def test_partition_is_the_utc_date_of_ts_at_midnight(paths: KernelPaths) -> None:
    late = append_event(
        paths,
        {
            "type": "a",
            "source": {"kind": "stdio"},
            "session_key": "k",
            "payload": {},
            "ts": "2026-01-05T23:59:59.999Z",
        },
    )
    early = append_event(
        paths,
        {
            "type": "b",
            "source": {"kind": "system"},
            "payload": {},
            "ts": "2026-01-06T00:00:00.001Z",
        },
    )
    assert [e["id"] for e in _jsonl(paths.day_file("2026-01-05"))] == [late["id"]]
    assert [e["id"] for e in _jsonl(paths.day_file("2026-01-06"))] == [early["id"]]
    by_id = _jsonl(paths.by_id_index)
    assert by_id == [
        {
            "event_id": late["id"],
            "partition": "2026-01-05.jsonl",
            "byte_offset": 0,
            "byte_len": len(paths.day_file("2026-01-05").read_bytes()),
        },
        {
            "event_id": early["id"],
            "partition": "2026-01-06.jsonl",
            "byte_offset": 0,
            "byte_len": len(paths.day_file("2026-01-06").read_bytes()),
        },
    ]
    # by_session only for the event with a truthy session_key
    (entry,) = _jsonl(paths.by_session_index)
    assert list(entry) == ["session_key", "event_id", "partition", "byte_offset", "byte_len", "ts"]
    assert entry["event_id"] == late["id"] and entry["ts"] == "2026-01-05T23:59:59.999Z"


def test_empty_session_key_skips_by_session(paths: KernelPaths) -> None:
    append_event(
        paths, {"type": "a", "source": {"kind": "stdio"}, "session_key": "", "payload": {}}
    )
    assert not paths.by_session_index.exists()
    assert len(_jsonl(paths.by_id_index)) == 1


def test_bad_ts_is_rejected_and_nothing_written(paths: KernelPaths) -> None:
    with pytest.raises(InputError):
        append_event(paths, {"type": "a", "source": {"kind": "stdio"}, "ts": "soon"})
    assert not paths.events_dir.exists() or not any(paths.events_dir.glob("*.jsonl"))


@pytest.mark.parametrize(
    ("given", "stored"),
    [  # what the original's createSpineEvent writes: new Date(ts).toISOString()
        ("2026-01-05T01:00:00+08:00", "2026-01-04T17:00:00.000Z"),
        ("2026-01-05T10:00:00Z", "2026-01-05T10:00:00.000Z"),
        ("2026-01-05T10:00:00.123456Z", "2026-01-05T10:00:00.123Z"),
        ("2026-01-05T23:30:00-01:00", "2026-01-06T00:30:00.000Z"),
        ("2026-01-05", "2026-01-05T00:00:00.000Z"),
    ],
)
def test_caller_ts_is_stored_in_to_iso_string_form(
    paths: KernelPaths, given: str, stored: str
) -> None:
    written = append_event(
        paths, {"type": "channel.message", "source": {"kind": "stdio"}, "payload": {}, "ts": given}
    )
    assert written["ts"] == stored
    line = paths.day_file(stored[:10]).read_bytes()
    assert line.endswith(f'"ts":"{stored}"}}\n'.encode())
    (record,) = iter_day(paths.day_file(stored[:10]), ReadStats(), 4 << 20)
    assert record.event["ts"] == stored


def test_unparseable_ts_is_refused_naming_the_value(paths: KernelPaths) -> None:
    with pytest.raises(InputError, match="'2026-13-05T10:00:00Z'"):
        append_event(
            paths, {"type": "a", "source": {"kind": "stdio"}, "ts": "2026-13-05T10:00:00Z"}
        )


def test_caller_id_is_replaced(paths: KernelPaths) -> None:
    written = append_event(
        paths, {"id": "evt_caller", "type": "x.y", "source": {"kind": "stdio"}, "payload": {}}
    )
    assert written["id"] != "evt_caller" and UUID4.fullmatch(str(written["id"]))
    assert list(written) == ["type", "source", "payload", "id", "ts"]


def _append_many(root: str, worker: int, count: int) -> list[str]:
    runtime = Path(root)
    paths = KernelPaths(kernel=runtime.parent / "kernel", runtime=runtime)
    ids = []
    for i in range(count):
        event = append_event(
            paths,
            {
                "type": "channel.message",
                "source": {"kind": "stdio", "name": f"w{worker}"},
                "session_key": f"stdio:w{worker}:abc",
                "payload": {"text": f"进程 {worker} 消息 {i} " + "x" * (i * 37 % 500)},
                "ts": f"2026-01-05T10:00:{i % 60:02d}.{worker:03d}Z",
            },
        )
        ids.append(str(event["id"]))
    return ids


def test_concurrent_appenders_in_processes_keep_lines_and_offsets_exact(
    paths: KernelPaths,
) -> None:
    workers, count = 4, 40
    # spawn, not fork: forking a pytest process that already runs threads (lock renewers,
    # timeout watchers) can deadlock the child on a lock held at fork time.
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        futures = [pool.submit(_append_many, str(paths.runtime), w, count) for w in range(workers)]
        ids = [i for f in futures for i in f.result()]
    day = paths.day_file("2026-01-05")
    stats = ReadStats()
    records = list(iter_day(day, stats, 1 << 20))
    assert stats.malformed_count == 0
    assert sorted(r.event["id"] for r in records) == sorted(ids)
    data = day.read_bytes()
    index = _jsonl(paths.by_id_index)
    assert len(index) == workers * count
    for entry in index:
        start, length = int(entry["byte_offset"]), int(entry["byte_len"])  # type: ignore[call-overload]
        assert orjson.loads(data[start : start + length])["id"] == entry["event_id"]
        assert data[start + length - 1 : start + length] == b"\n"
    assert len(_jsonl(paths.by_session_index)) == workers * count


def test_read_by_id_uses_the_index(paths: KernelPaths) -> None:
    first = append_event(
        paths,
        {
            "type": "a",
            "source": {"kind": "stdio"},
            "payload": {"t": "一"},
            "ts": "2026-01-05T01:00:00.000Z",
        },
    )
    second = append_event(
        paths,
        {"type": "b", "source": {"kind": "stdio"}, "payload": {}, "ts": "2026-01-05T02:00:00.000Z"},
    )
    assert read_event_by_id(paths, str(second["id"])) == second
    assert read_event_by_id(paths, str(first["id"])) == first
    assert read_event_by_id(paths, "evt_missing") is None


def test_read_by_id_falls_back_to_a_linear_scan_on_a_stale_offset(paths: KernelPaths) -> None:
    event = append_event(
        paths,
        {"type": "a", "source": {"kind": "stdio"}, "payload": {}, "ts": "2026-01-05T01:00:00.000Z"},
    )
    day = paths.day_file("2026-01-05")
    # Something prepended lines: the indexed offset now points at the wrong line.
    day.write_bytes(b'{"type":"other","id":"evt_other"}\n' + day.read_bytes())
    assert read_event_by_id(paths, str(event["id"])) == event


def test_later_index_lines_win_and_paths_in_index_are_not_followed(paths: KernelPaths) -> None:
    event = append_event(
        paths,
        {"type": "a", "source": {"kind": "stdio"}, "payload": {}, "ts": "2026-01-05T01:00:00.000Z"},
    )
    secret = paths.runtime / "secret.jsonl"
    secret.write_text('{"id":"evt_x","stolen":true}\n')
    with open(paths.by_id_index, "ab") as handle:
        handle.write(
            b'{"event_id":"evt_x","partition":"../../secret.jsonl","byte_offset":0,"byte_len":29}\n'
        )
    assert read_event_by_id(paths, "evt_x") is None
    # a later correct line for the same id wins over an earlier wrong one
    write_lines(
        paths.by_id_index,
        [
            b'{"event_id":"%s","partition":"2026-01-05.jsonl","byte_offset":999,"byte_len":5}'
            % str(event["id"]).encode(),
            b'{"event_id":"%s","partition":"2026-01-05.jsonl","byte_offset":0,"byte_len":%d}'
            % (str(event["id"]).encode(), paths.day_file("2026-01-05").stat().st_size),
        ],
    )
    assert read_event_by_id(paths, str(event["id"])) == event
