"""The spine benchmark's workload generators are deterministic and realistic."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.spine import run
from bench.workloads import write_spine_day, write_spine_year
from shared.spine.event import is_external
from shared.spine.reader import ReadStats, iter_day


def test_day_generator_is_deterministic_and_mixed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert write_spine_day(a, "2026-01-05", 200_000, seed=3) == write_spine_day(
        b, "2026-01-05", 200_000, seed=3
    )
    assert a.read_bytes() == b.read_bytes()
    stats = ReadStats()
    events = [r.event for r in iter_day(a, stats, 1 << 20)]
    assert stats.malformed_count == 0
    kinds = Counter(e["source"]["kind"] for e in events)
    assert {"stdio", "feishu", "runner", "job", "system", "meta"} <= set(kinds)
    assert 0 < sum(map(is_external, events)) < len(events)
    assert any("结论" in str(e["payload"]) for e in events)
    assert all(e["ts"].startswith("2026-01-05T") for e in events)


def test_year_generator_has_external_events_only_on_the_oldest_day(tmp_path: Path) -> None:
    dates = write_spine_year(tmp_path, 5, "2026-12-31", 4096)
    assert dates == ["2026-12-27", "2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31"]
    externals = []
    for date in dates:
        stats = ReadStats()
        list(iter_day(tmp_path / f"{date}.jsonl", stats, 1 << 20))
        externals.append(stats.external)
    assert externals[0] > 0 and externals[1:] == [0, 0, 0, 0]


def test_quick_bench_reports_every_metric(tmp_path: Path) -> None:
    results = run(tmp_path / "out", quick=True, seed=7)
    names = {r["name"] for r in results}
    assert {"spine.gated_vs_bare", "gap.warm", "gap.cold", "spine.read_gated"} <= names
    assert all(set(r) == {"name", "value", "unit", "target", "met"} for r in results)
    cold_reads = next(r for r in results if r["name"] == "gap.cold_files_read")
    assert cold_reads["value"] == 30
