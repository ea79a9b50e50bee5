"""A ``subcon import`` process killed with SIGKILL at each step of a batch append leaves a
spine that the next run completes: every record once, every event indexed once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from shared.importing.run import run_import
from shared.importing.sources import Source
from shared.kernel.paths import KernelPaths
from shared.setup.demo.transcripts import write_demo_project
from shared.testhooks import PAUSE_ENV
from testing.waiting import wait_until

DAY = "2026-01-06"


def _cli(paths: KernelPaths, project: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "workers", "--kernel", str(paths.kernel)]
    args += ["--runtime", str(paths.runtime), "import", "--from", "claude-code"]
    args += [str(project), "--settle", "0"]
    return subprocess.Popen(
        args, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _spine(paths: KernelPaths) -> list[dict[str, object]]:
    events = []
    for day in sorted(paths.events_dir.glob("*.jsonl")):
        events += [orjson.loads(line) for line in day.read_bytes().splitlines()]
    return events


def _index_is_exact(paths: KernelPaths) -> None:
    """One by_id line per event, each pointing at that event's bytes."""
    rows = [orjson.loads(line) for line in paths.by_id_index.read_bytes().splitlines()]
    events = _spine(paths)
    assert sorted(r["event_id"] for r in rows) == sorted(str(e["id"]) for e in events)
    for row in rows:
        data = (paths.events_dir / row["partition"]).read_bytes()
        line = data[row["byte_offset"] : row["byte_offset"] + row["byte_len"]]
        assert orjson.loads(line)["id"] == row["event_id"]


@pytest.mark.parametrize("point", ["import", "spine-index"])
def test_kill_during_a_batch_then_rerun_completes_without_duplicates(
    tmp_path: Path, point: str, fault_report
) -> None:
    project = write_demo_project(tmp_path / "projects", DAY)
    reference = KernelPaths(kernel=tmp_path / "k0", runtime=tmp_path / "r0")
    reference.runtime.mkdir()
    run_import(reference, [Source("claude-code", project)], settle_seconds=0)
    expected = sorted(str(e["id"]) for e in _spine(reference))

    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    paths.kernel.mkdir()
    paths.runtime.mkdir()
    flag = tmp_path / "go"
    proc = _cli(paths, project, {PAUSE_ENV: f"{point}:{flag}"})
    reached = flag.with_name(flag.name + ".reached")
    wait_until(reached.exists, timeout=60, what=f"the import to reach {point}")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    fault_report.faults_injected[f"import-{point}"] = (
        fault_report.faults_injected.get(f"import-{point}", 0) + 1
    )
    if point == "spine-index":
        assert _spine(paths), "the day files were written before the kill"

    rerun = _cli(paths, project, {})
    out, err = rerun.communicate(timeout=60)
    assert rerun.returncode == 0, err.decode()
    assert sorted(str(e["id"]) for e in _spine(paths)) == expected
    _index_is_exact(paths)
    # A third run has nothing left to do.
    again = _cli(paths, project, {})
    out, _ = again.communicate(timeout=60)
    assert b"events: 0 written" in out
    fault_report.faults_survived[f"import-{point}"] = (
        fault_report.faults_survived.get(f"import-{point}", 0) + 1
    )
