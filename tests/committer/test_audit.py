"""Audit records: JSONL round trip, filters, torn tails, Redis stream."""

from __future__ import annotations

import json

import pytest
import redis

from shared.committer.audit import AuditLog, AuditRecord, audit_file, publish, read_audit
from shared.errors import InputError
from shared.kernel.paths import KernelPaths


def rec(ts: str, decision: str = "held", file: str | None = "memory/CLAUDE.md") -> AuditRecord:
    return AuditRecord(
        decision=decision,
        ts=ts,
        tick=3,
        fence=9,
        kernel="/k",
        file=file,
        line=4,
        gate="gradient",
        rule="gradient.no-action-direction",
        reason="gradient: no action direction",
        quote='引用 "x"',
        duration_ms=12,
    )


def test_append_groups_by_utc_day_and_reads_back(paths: KernelPaths) -> None:
    records = [
        rec("2026-01-05T23:59:59.999Z"),
        rec("2026-01-06T00:00:00.000Z", "committed", "memory/entities/a.md"),
    ]
    written = AuditLog(paths).append(records)
    assert [p.name for p in written] == ["2026-01-05.jsonl", "2026-01-06.jsonl"]
    line = audit_file(paths, "2026-01-05").read_text("utf-8")
    assert line.endswith("\n") and line.count("\n") == 1
    assert '"quote":"引用 \\"x\\""' in line  # compact, raw UTF-8
    assert json.loads(line)["duration_ms"] == 12
    assert read_audit(paths) == records
    assert read_audit(paths, since="2026-01-06") == records[1:]
    assert read_audit(paths, since="2026-01-05T23:59:59.999Z") == records
    assert read_audit(paths, file="memory/entities/a.md") == records[1:]


def test_torn_tail_is_repaired_and_bad_lines_are_named(paths: KernelPaths) -> None:
    path = audit_file(paths, "2026-01-05")
    path.parent.mkdir(parents=True)
    path.write_text('{"decision":"held","ts":"2026-01-05T00:00:00.000Z"}\n{"decis', "utf-8")
    AuditLog(paths).append([rec("2026-01-05T01:00:00.000Z")])
    with pytest.raises(InputError) as err:
        read_audit(paths)
    assert str(err.value).startswith(f"{path}:2: malformed audit line")
    assert path.read_text("utf-8").splitlines()[2].startswith('{"decision":"held"')


def test_a_record_names_its_rule_and_one_written_before_rules_reads_back(
    paths: KernelPaths,
) -> None:
    line = audit_file(paths, "2026-01-05")
    AuditLog(paths).append([rec("2026-01-05T00:00:00.000Z")])
    written = json.loads(line.read_text("utf-8"))
    assert written["rule"] == "gradient.no-action-direction"
    assert list(written)[7:11] == ["gate", "rule", "reading", "reason"]
    assert written["reading"] is None  # this rule read the line one way only
    # a record from before rule ids and readings (no such keys) still reads, both unknown
    del written["rule"], written["reading"]
    line.write_text(json.dumps(written) + "\n", "utf-8")
    (old,) = read_audit(paths)
    assert old.rule is None and old.reading is None
    assert old.reason == "gradient: no action direction"


def test_bad_since_is_an_input_error(paths: KernelPaths) -> None:
    with pytest.raises(InputError):
        read_audit(paths, since="last tuesday")


def test_publish_on_a_real_stream(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    records = [rec(f"2026-01-05T00:00:0{i}.000Z") for i in range(5)]
    assert publish(client, "subcon:audit", records, maxlen=3) == 5
    entries = client.xrange("subcon:audit")
    assert entries is not None
    assert 3 <= len(entries) <= 5  # MAXLEN ~ trims lazily
    fields = entries[-1][1]
    assert fields is not None
    last = json.loads(fields[b"record"])
    assert AuditRecord.from_json(last) == records[-1]
