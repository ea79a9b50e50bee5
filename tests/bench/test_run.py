"""The benchmark runner's machinery: its JSON shape, sections, skips and script mode.

These run the runner on a tiny workload; they check what it reports, never how fast.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import run as bench_run
from bench.memory import bench_memory, measure
from bench.scan import make_workload, read_turns, scan_day

REPO = Path(__file__).resolve().parents[2]
KEYS = {"name", "value", "unit", "target", "met"}


def _shape_ok(rows: list[dict[str, object]]) -> None:
    assert rows
    for r in rows:
        assert set(r) == KEYS, r
        assert isinstance(r["name"], str) and isinstance(r["unit"], str)
        assert r["value"] is None or isinstance(r["value"], int | float)
        assert r["met"] in (True, False, None)
        if r["target"] is None:
            assert r["met"] is None, r
        if r["value"] is None:
            assert r["unit"].startswith(("skipped", "error")), r
            assert r["met"] is (False if r["unit"].startswith("error") else None), r


def test_script_mode_prints_the_json_list_for_chosen_sections() -> None:
    proc = subprocess.run(
        [sys.executable, "bench/run.py", "--tiny", "--json", "--only", "scan,gap"],
        cwd=REPO,
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode in (0, 1), proc.stderr.decode()
    rows = json.loads(proc.stdout)
    _shape_ok(rows)
    names = [r["name"] for r in rows]
    assert {"scan.vs_bare", "scan.turns", "gap.warm", "gap.cold"} <= set(names)
    assert not any(n.startswith(("spine.", "commit.", "memory.")) for n in names)
    # Sections run in the runner's fixed order whatever order --only names them in.
    assert names.index("scan.vs_bare") < names.index("gap.warm")
    ratio = next(r for r in rows if r["name"] == "scan.vs_bare")
    assert ratio["target"] == "<= 3" and ratio["met"] == (ratio["value"] <= 3)
    # Exit status says whether a target was missed.
    assert proc.returncode == (1 if any(r["met"] is False for r in rows) else 0)


def test_table_mode_names_the_machine_and_every_row() -> None:
    proc = subprocess.run(
        [sys.executable, "bench/run.py", "--tiny", "--only", "gap"],
        cwd=REPO,
        capture_output=True,
        check=False,
        timeout=120,
    )
    out = proc.stdout.decode()
    assert "CPUs" in out and "Python" in out
    for name in ("gap.days", "gap.cold", "gap.warm", "gap.section_time"):
        assert name in out
    assert "target" in out.splitlines()[1]


def test_unknown_section_is_refused() -> None:
    with pytest.raises(SystemExit) as exc:
        bench_run.main(["--tiny", "--only", "scan,nonsense"])
    assert exc.value.code == 2


def test_workers_section_is_skipped_without_redis_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    rows = bench_run.normalise(bench_run.section_workers(tmp_path, bench_run.Scale.tiny(), 7))
    _shape_ok(rows)
    assert {r["name"] for r in rows} == set(bench_run.WORKER_TARGETS)
    assert all(r["value"] is None and "redis-server" in r["unit"] for r in rows)


def test_a_failing_section_reports_an_error_row_and_the_rest_still_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def boom(root: Path, scale: bench_run.Scale, seed: int) -> list[dict[str, object]]:
        raise RuntimeError("exploded")

    monkeypatch.setitem(bench_run.SECTION_FUNCS, "scan", boom)
    rows = bench_run.run(["scan", "gap"], bench_run.Scale.tiny())
    _shape_ok(rows)
    error = next(r for r in rows if r["name"] == "scan.error")
    assert error["met"] is False and "exploded" in error["unit"]
    assert any(r["name"] == "gap.warm" for r in rows)


def test_normalise_turns_numeric_targets_into_text() -> None:
    rows = bench_run.normalise(
        [
            {"name": "a", "value": 1.23456789, "unit": "x", "target": 2.0, "met": True},
            {"name": "b", "value": 5, "unit": "ms", "target": None, "met": True},
        ]
    )
    assert rows[0] == {"name": "a", "value": 1.2346, "unit": "x", "target": "<= 2", "met": True}
    assert rows[1]["met"] is None


def test_scan_workload_is_deterministic_and_judged(tmp_path: Path) -> None:
    a = make_workload(tmp_path / "a", 200_000, seed=3)
    b = make_workload(tmp_path / "b", 200_000, seed=3)
    assert a.day_file.read_bytes() == b.day_file.read_bytes()
    assert len(a.board.lines) == 100
    turns = read_turns(a)
    counted, fragments = scan_day(a)
    assert counted == len(turns) > 0
    assert fragments > 0
    assert any("\u4e00" <= ch <= "\u9fff" for t in turns for ch in t["text"])


def test_memory_child_reports_a_peak_per_day_size(tmp_path: Path) -> None:
    rows = bench_memory(tmp_path, (0.1, 0.2))
    _shape_ok(rows)
    peaks = [r for r in rows if r["name"].startswith("memory.scan_worker_")]
    assert len(peaks) == 2
    assert all(10 < r["value"] < 10_000 for r in peaks)
    assert peaks[0]["target"] is None and peaks[1]["target"] == "< 200"
    assert any(r["name"].startswith("memory.growth_") for r in rows)


def test_memory_child_does_not_report_its_parents_peak(tmp_path: Path) -> None:
    # Linux carries a parent's ru_maxrss into a fork+exec child; the child must report
    # its own address space's peak, not this (deliberately big) test process's.
    w = make_workload(tmp_path, 50_000)
    ballast = bytearray(b"\x01") * (300 * 1024 * 1024)
    try:
        report = measure(w.paths.kernel, w.paths.runtime, w.date)
    finally:
        del ballast
    assert report["slices"] >= 1 and report["turns"] > 0
    assert 10 < report["maxrss_mb"] < 250


@pytest.mark.integration
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_fanout_rows_from_real_workers_on_a_tiny_day() -> None:
    from bench.fanout import run as fanout_run

    rows = bench_run.normalise(fanout_run(seed=7, repeat=1, day_bytes=150_000))
    _shape_ok(rows)
    by_name = {r["name"]: r for r in rows}
    assert set(bench_run.WORKER_TARGETS) == {f"workers.{n}" for n in by_name} & set(
        bench_run.WORKER_TARGETS
    )
    two = by_name["two_vs_one_scan_workers"]
    assert two["value"] > 0 and two["target"] == ">= 1.6"
    assert two["value"] == pytest.approx(
        by_name["scan_stage_one_worker"]["value"] / by_name["scan_stage_two_workers"]["value"],
        rel=0.01,
    )
    # The pass through Redis and the in-process pass wrote the same report.
    assert by_name["pass_redis_vs_inprocess"]["unit"] == "x"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_kernels_rows_from_real_workers_on_tiny_kernels(tmp_path: Path) -> None:
    from bench.kernels import bench_fairness, bench_sharing

    rows = bench_run.normalise(bench_sharing(tmp_path / "sharing", 2))
    rows += bench_run.normalise(bench_fairness(tmp_path / "fair", 1, 3, 2, 4.0))
    _shape_ok(rows)
    by_name = {r["name"]: r for r in rows}
    # Both kernels ticked together ran their pass and their commit.
    assert by_name["kernels.passes_completed"]["value"] == 2
    shared = by_name["kernels.shared_vs_alone"]
    assert shared["value"] == pytest.approx(
        by_name["kernels.ticks_together_s"]["value"]
        / (2 * by_name["kernels.tick_alone_s"]["value"]),
        rel=0.01,
    )
    # A registry entry is a small JSON field; the backfill scanned a day per tick.
    assert 50 < by_name["kernels.redis_bytes_per_entry"]["value"] < 2000
    assert by_name["kernels.fairness_backfill_days_scanned"]["value"] >= 1
    assert by_name["kernels.fairness_small_ticks"]["value"] == 2
    assert by_name["kernels.fairness_p95_start_delay_s"]["value"] >= 0
