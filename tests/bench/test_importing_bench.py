"""The import section of the benchmark runner, on tiny workloads: the transcripts it
generates are real Claude Code sessions, its rows are well formed, the re-import writes
nothing, and the peak child reports its own memory. Never how fast anything is."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path

import orjson
import pytest

from bench import importing
from bench import run as bench_run
from bench.importing import (
    MB,
    START,
    bench_peak,
    bench_reimport,
    bench_throughput,
    make_corpus,
    write_session,
)
from shared.importing.run import run_import
from shared.importing.sources import Source
from shared.kernel.paths import KernelPaths
from shared.timestamps import parse_iso

KEYS = {"name", "value", "unit", "target", "met"}


def _shape_ok(rows: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    assert rows
    for r in rows:
        assert set(r) == KEYS, r
        assert isinstance(r["name"], str) and r["name"].startswith("import.")
        assert isinstance(r["unit"], str)
        assert r["value"] is None or isinstance(r["value"], int | float)
        assert r["met"] in (True, False, None)
        if r["target"] is None:
            assert r["met"] is None, r
        if r["value"] is None:
            assert r["unit"].startswith("skipped") and r["met"] is None, r
    names = [str(r["name"]) for r in rows]
    assert len(names) == len(set(names))
    return {str(r["name"]): r for r in rows}


def test_sessions_are_claude_code_transcripts_with_secrets_and_chinese(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    size, records = write_session(path, 300_000, 5, parse_iso(START))
    assert path.stat().st_size == size >= 300_000
    lines = path.read_bytes().splitlines()
    assert len(lines) == records
    parsed = [orjson.loads(line) for line in lines]
    assert Counter(r["type"] for r in parsed).keys() == {"user", "assistant"}
    assert len({r["uuid"] for r in parsed}) == records  # ids stay unique while streaming
    assert len({r["sessionId"] for r in parsed}) == 1
    results = [
        len(block["content"].encode())
        for r in parsed
        if r["type"] == "user" and isinstance(r["message"]["content"], list)
        for block in r["message"]["content"]
        if block["type"] == "tool_result"
    ]
    assert results and max(results) <= 25_000 and any(n >= 2_000 for n in results)
    text = path.read_text(encoding="utf-8")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert '"command":"cat .env"' in text and "AKIA" in text
    # Deterministic for a seed.
    again = tmp_path / "again.jsonl"
    write_session(again, 300_000, 5, parse_iso(START))
    assert again.read_bytes() == path.read_bytes()


def test_the_importer_redacts_the_generated_credentials(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "projects", 400_000, 3, session_bytes=(50_000, 150_000))
    assert len(corpus.files) > 1 and corpus.bytes >= 400_000
    paths = KernelPaths(kernel=tmp_path / "kernel", runtime=tmp_path / "runtime")
    paths.runtime.mkdir()
    report = run_import(paths, [Source("claude-code", corpus.root)], settle_seconds=0)
    assert report.problem_count == 0, report.problems
    assert report.events > 0 and report.user_events > 0
    assert report.redacted["aws-access-key"] > 0 and report.redacted["anthropic-key"] > 0
    spine = b"".join(p.read_bytes() for p in paths.events_dir.glob("*.jsonl"))
    assert b"AKIA" not in spine and b"sk-ant-api03-" not in spine


def test_throughput_rows(tmp_path: Path) -> None:
    rows = _shape_ok(bench_run.normalise(bench_throughput(tmp_path, 200_000, 7, 1)))
    ratio = rows["import.vs_orjson"]
    assert ratio["target"] == "<= 3" and ratio["unit"] == "x"
    assert ratio["met"] == (float(ratio["value"]) <= 3)  # type: ignore[arg-type]
    assert rows["import.mb_per_s"]["unit"] == "MB/s" and rows["import.events"]["value"]
    assert rows["import.problems"]["value"] == 0
    # Each repeat imported into a fresh runtime that is gone afterwards.
    assert not list(tmp_path.glob("runtime-*"))


def test_reimport_writes_nothing(tmp_path: Path) -> None:
    rows = _shape_ok(bench_run.normalise(bench_reimport(tmp_path, 12, 7, 2)))
    assert rows["import.reimport_sessions"]["value"] == 12
    assert rows["import.reimport_unchanged_files"]["value"] == 12
    assert rows["import.reimport_first_events"]["value"]
    assert rows["import.reimport_events"]["value"] == 0
    assert rows["import.reimport_events"]["met"] is True
    assert rows["import.reimport_spine_bytes"]["value"] == 0
    timed = rows["import.reimport_1000_s"]
    assert timed["target"] == "< 1" and timed["unit"] == "s"


def test_peak_child_reports_its_own_memory_and_cleans_up(tmp_path: Path) -> None:
    # A big parent must not leak its peak into the child's report (see bench/memory.py).
    ballast = bytearray(b"\x01") * (200 * MB)
    try:
        rows = _shape_ok(bench_run.normalise(bench_peak(tmp_path, MB, 7)))
    finally:
        del ballast
    for name in ("import.peak_mb_1gb", "import.peak_mb_quarter"):
        assert rows[name]["target"] == "< 150" and rows[name]["unit"] == "MB"
        assert 10 < float(rows[name]["value"]) < 190  # type: ignore[arg-type]
        assert rows[f"{name}_events"]["value"]
    assert rows["import.peak_file_mb"]["value"] == 1
    assert not list(tmp_path.rglob("*.jsonl"))  # the transcripts and spines were deleted


def test_peak_is_skipped_without_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importing, "disk_needed", lambda size: 1 << 60)
    rows = _shape_ok(bench_run.normalise(bench_peak(tmp_path, 1024**3, 7)))
    assert set(rows) == {"import.peak_mb_1gb", "import.peak_mb_quarter"}
    assert all("free disk" in str(r["unit"]) for r in rows.values())
    assert not list(tmp_path.rglob("*.jsonl"))


def test_section_is_wired_into_the_runner(tmp_path: Path) -> None:
    assert "import" in bench_run.SECTIONS and "import" in bench_run.SECTION_FUNCS
    assert "import" in (bench_run.__doc__ or "")
    assert bench_run.parse_sections("import") == ["import"]
    rows = _shape_ok(bench_run.run(["import"], bench_run.Scale.tiny()))
    for name in (
        "import.mb_per_s",
        "import.vs_orjson",
        "import.peak_mb_1gb",
        "import.peak_mb_quarter",
        "import.reimport_1000_s",
        "import.reimport_events",
    ):
        assert name in rows, sorted(rows)
    assert rows["import.reimport_events"]["value"] == 0


def test_sessions_follow_each_other_in_time(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path, 200_000, 9, session_bytes=(40_000, 80_000))
    firsts = sorted(
        orjson.loads(f.read_bytes().split(b"\n", 1)[0])["timestamp"] for f in corpus.files
    )
    start = parse_iso(START)
    assert parse_iso(firsts[0]) - start < timedelta(minutes=1)
    assert len(set(firsts)) == len(firsts)
