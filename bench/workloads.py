"""Deterministic synthetic spine workloads, shaped like the runtime's (docs/formats.md §4.6).

Importable by any benchmark: ``write_spine_day`` writes one realistic day file,
``write_spine_year`` a year of small days for gap-check timing.

A day is a simulation of sessions: a user message arrives in one of a few dozen
chat sessions (terminal, Feishu, ACP), and the agent answers it in that session with
tool calls, tool results and a reply, interleaved with other sessions' traffic and
with internal noise (cadence ticks, jobs, subconscious results, route deliveries).
What users say comes from :mod:`bench.conversation`: most messages relate to no
board line, some touch one, a few correct, instruct or approve.
"""

from __future__ import annotations

import random
import uuid
from collections import deque
from collections.abc import Iterator
from datetime import date as Date
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson

from bench.conversation import Message, Speaker, board_topics

SESSIONS = 40
NOISE = 0.2  # share of events that are internal noise
ROW_FIRST = 0.8  # when answers are pending, the next event is one of them this often
BOARD_SIZE = 100


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _sessions(rng: random.Random) -> list[tuple[str, str]]:
    """(source kind, session_key) of the day's chat sessions."""
    out = []
    for _ in range(SESSIONS):
        kind = rng.choice(("stdio", "feishu", "feishu", "acp"))
        out.append(
            (kind, f"{'lark' if kind == 'feishu' else kind}:default:{rng.getrandbits(48):012x}")
        )
    return out


def _message(rng: random.Random, kind: str, key: str, text: str) -> dict[str, Any]:
    return {
        "type": "channel.message",
        "source": {"kind": kind, "name": f"{kind}-default", "channel_id": f"{kind}-default"},
        "session_key": key,
        "payload": {
            "text": text,
            "raw_path": f"/home/u/.aladuo/var/ingress/{rng.getrandbits(64):016x}/evt.json",
        },
        "routing_hint": {"target": "session"},
    }


def _answer(rng: random.Random, speaker: Speaker, key: str, msg: Message) -> list[dict[str, Any]]:
    """The agent's rows for one message: tool calls with results, then a reply."""
    runner = {"kind": "runner", "name": "runner"}
    rows: list[dict[str, Any]] = []
    for _ in range(rng.randint(0, 3)):
        use_id = f"toolu_{rng.getrandbits(64):016x}"
        tool = rng.choice(("Bash", "Read", "Write", "Grep"))
        rows.append(
            {
                "type": "agent.tool_use",
                "source": runner,
                "session_key": key,
                "payload": {
                    "tool_use_id": use_id,
                    "tool_name": tool,
                    "input_summary": speaker.tool_input(msg),
                },
            }
        )
        rows.append(
            {
                "type": "agent.tool_result",
                "source": runner,
                "session_key": key,
                "payload": {
                    "tool_use_id": use_id,
                    "tool_name": tool,
                    "is_error": rng.random() < 0.1,
                    "summary": speaker.tool_output(),
                },
            }
        )
    rows.append(
        {
            "type": "agent.result",
            "source": runner,
            "session_key": key,
            "payload": {
                "outbox_id": _uuid(rng),
                "text": speaker.reply(msg),
                "fanout_index": 0,
                "fanout_total": 1,
            },
        }
    )
    return rows


def _noise(rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.3:
        job = rng.choice(("daily-digest", "inbox-sweep"))
        return {
            "type": rng.choice(("job.spawn", "job.complete", "job.fail")),
            "source": {"kind": "job", "name": job},
            "session_key": f"job:{job}.1a2b3c4",
            "payload": {
                "job_id": job,
                "result_summary": f"{job} finished {rng.randint(0, 99)} items",
            },
        }
    if roll < 0.6:
        return {
            "type": "system.cadence_tick",
            "source": {"kind": "system", "name": "cadence"},
            "payload": {"count": rng.randint(0, 3)},
        }
    if roll < 0.85:
        return {
            "type": "agent.result",
            "source": {"kind": "meta", "name": "subconscious:memory-weaver"},
            "session_key": "meta:subconscious",
            "payload": {
                "text": "NO_NEW_GRADIENT: no external evidence changed memory.",
                "tick_type": "subconscious",
                "partition": "memory-weaver",
                "runtime": "claude",
                "runtime_source": "default",
            },
        }
    return {
        "type": "route.deliver",
        "source": {"kind": "route", "name": "route-1"},
        "session_key": "stdio:default:28d3ca682f86",
        "payload": {"route_id": "route-1", "source_event_type": "job.complete"},
    }


def day_events(seed: int, date: str, board_size: int = BOARD_SIZE) -> Iterator[dict[str, Any]]:
    """An endless, deterministic stream of one day's events, without ``id``/``ts``."""
    rng = random.Random(f"{seed}:{date}")
    speaker = Speaker(random.Random(f"text:{seed}:{date}"), board_topics(board_size, seed))
    sessions = _sessions(rng)
    pending: deque[dict[str, Any]] = deque()
    while True:
        if rng.random() < NOISE:
            yield _noise(rng)
        elif pending and rng.random() < ROW_FIRST:
            yield pending.popleft()
        else:
            kind, key = rng.choice(sessions)
            msg = speaker.message()
            yield _message(rng, kind, key, msg.text)
            pending.extend(_answer(rng, speaker, key, msg))


def spine_day_lines(date: str, target_bytes: int, seed: int) -> Iterator[bytes]:
    """Compact JSON lines (with LF) of one day, about ``target_bytes`` long in total."""
    rng = random.Random(f"ids:{seed}:{date}")
    # Estimate the event count so timestamps spread over the whole day.
    estimate = max(1, target_bytes // 350)
    step_ms = max(1, 86_400_000 // estimate)
    written = 0
    ms = 0
    events = day_events(seed, date)
    while written < target_bytes and ms < 86_400_000:
        h, rem = divmod(ms, 3_600_000)
        m, rem = divmod(rem, 60_000)
        s, milli = divmod(rem, 1000)
        fields = next(events)
        fields["id"] = f"evt_{_uuid(rng)}"
        fields["ts"] = f"{date}T{h:02d}:{m:02d}:{s:02d}.{milli:03d}Z"
        line = orjson.dumps(fields) + b"\n"
        written += len(line)
        ms += rng.randint(1, 2 * step_ms)
        yield line


def write_spine_day(path: Path, date: str, target_bytes: int, seed: int = 7) -> int:
    """Write one day file; returns the number of events written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with open(path, "wb") as handle:
        for line in spine_day_lines(date, target_bytes, seed):
            handle.write(line)
            count += 1
    return count


def internal_only_line(date: str, i: int) -> bytes:
    return (
        orjson.dumps(
            {
                "type": "system.cadence_tick",
                "source": {"kind": "system", "name": "cadence"},
                "payload": {"count": i % 3},
                "id": f"evt_{uuid.UUID(int=i, version=4)}",
                "ts": f"{date}T{(i // 60) % 24:02d}:{i % 60:02d}:00.000Z",
            }
        )
        + b"\n"
    )


def write_spine_year(
    events_dir: Path, days: int, end_date: str, per_day_bytes: int, seed: int = 7
) -> list[str]:
    """``days`` day files ending at ``end_date``. Only the oldest day has external
    events, so a cold gap check must read every file and a warm one none."""
    end = Date.fromisoformat(end_date)
    dates = [(end - timedelta(days=n)).isoformat() for n in range(days - 1, -1, -1)]
    events_dir.mkdir(parents=True, exist_ok=True)
    for n, day in enumerate(dates):
        if n == 0:
            write_spine_day(events_dir / f"{day}.jsonl", day, per_day_bytes, seed)
            continue
        lines = []
        size = 0
        i = 0
        while size < per_day_bytes:
            line = internal_only_line(day, i)
            lines.append(line)
            size += len(line)
            i += 1
        (events_dir / f"{day}.jsonl").write_bytes(b"".join(lines))
    return dates
