"""Deterministic synthetic spine workloads, shaped like the runtime's (kernel-format 2.6).

Importable by any benchmark: ``write_spine_day`` writes one realistic day file,
``write_spine_year`` a year of small days for gap-check timing.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import date as Date
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson

_EN = (
    "please lead with the answer and skip the filler",
    "can you check the deploy logs for the payment service",
    "the quarterly report for acme-corp is due on friday",
    "remember that I prefer tables over long paragraphs",
    "why did the nightly job fail again",
    "thanks, that fixed it",
    "let's revisit the 600519.SS thesis after earnings",
)
_ZH = (
    "以后回复先给结论，不要寒暄。",
    "帮我看一下昨天的部署日志，支付服务好像有问题。",
    "这个季度的报告周五之前要交给客户。",
    "记住我更喜欢表格，不要写太长的段落。",
    "为什么每晚的任务又失败了？",
    "谢谢，问题解决了。",
    "财报出来以后再看一下贵州茅台的投资逻辑。",
)


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _text(rng: random.Random, words: int) -> str:
    pool = _ZH if rng.random() < 0.5 else _EN
    return " ".join(rng.choice(pool) for _ in range(max(1, words)))


def _event(rng: random.Random, ts: str) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.22:
        kind = rng.choice(("stdio", "feishu", "feishu", "acp"))
        key = f"{'lark' if kind == 'feishu' else kind}:default:{rng.getrandbits(48):012x}"
        fields: dict[str, Any] = {
            "type": "channel.message",
            "source": {"kind": kind, "name": f"{kind}-default", "channel_id": f"{kind}-default"},
            "session_key": key,
            "payload": {
                "text": _text(rng, rng.randint(1, 6)),
                "raw_path": f"/home/u/.aladuo/var/ingress/{rng.getrandbits(64):016x}/evt.json",
            },
            "routing_hint": {"target": "session"},
        }
    elif roll < 0.42:
        fields = {
            "type": "agent.result",
            "source": {"kind": "runner", "name": "runner"},
            "session_key": "stdio:default:28d3ca682f86",
            "payload": {
                "outbox_id": _uuid(rng),
                "text": _text(rng, rng.randint(3, 30)),
                "fanout_index": 0,
                "fanout_total": 1,
            },
        }
    elif roll < 0.62:
        fields = {
            "type": "agent.tool_use",
            "source": {"kind": "runner", "name": "runner"},
            "session_key": "stdio:default:28d3ca682f86",
            "payload": {
                "tool_use_id": f"toolu_{rng.getrandbits(64):016x}",
                "tool_name": rng.choice(("Bash", "Read", "Write", "Grep")),
                "input_summary": _text(rng, rng.randint(1, 4)),
            },
        }
    elif roll < 0.80:
        fields = {
            "type": "agent.tool_result",
            "source": {"kind": "runner", "name": "runner"},
            "session_key": "stdio:default:28d3ca682f86",
            "payload": {
                "tool_use_id": f"toolu_{rng.getrandbits(64):016x}",
                "tool_name": "Bash",
                "is_error": rng.random() < 0.1,
                "summary": _text(rng, rng.randint(1, 12)),
            },
        }
    elif roll < 0.86:
        job = rng.choice(("daily-digest", "inbox-sweep"))
        fields = {
            "type": rng.choice(("job.spawn", "job.complete", "job.fail")),
            "source": {"kind": "job", "name": job},
            "session_key": f"job:{job}.1a2b3c4",
            "payload": {"job_id": job, "result_summary": _text(rng, 1)[:200]},
        }
    elif roll < 0.92:
        fields = {
            "type": "system.cadence_tick",
            "source": {"kind": "system", "name": "cadence"},
            "payload": {"count": rng.randint(0, 3)},
        }
    elif roll < 0.97:
        fields = {
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
    else:
        fields = {
            "type": "route.deliver",
            "source": {"kind": "route", "name": "route-1"},
            "session_key": "stdio:default:28d3ca682f86",
            "payload": {"route_id": "route-1", "source_event_type": "job.complete"},
        }
    fields["id"] = f"evt_{_uuid(rng)}"
    fields["ts"] = ts
    return fields


def spine_day_lines(date: str, target_bytes: int, seed: int) -> Iterator[bytes]:
    """Compact JSON lines (with LF) of one day, about ``target_bytes`` long in total."""
    rng = random.Random(f"{seed}:{date}")
    # Estimate the event count so timestamps spread over the whole day.
    estimate = max(1, target_bytes // 420)
    step_ms = max(1, 86_400_000 // estimate)
    written = 0
    ms = 0
    while written < target_bytes and ms < 86_400_000:
        h, rem = divmod(ms, 3_600_000)
        m, rem = divmod(rem, 60_000)
        s, milli = divmod(rem, 1000)
        line = orjson.dumps(_event(rng, f"{date}T{h:02d}:{m:02d}:{s:02d}.{milli:03d}Z")) + b"\n"
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
