"""A scan host whose link is cut mid-slice loses nothing: the broker redelivers its
unacknowledged slice to the other scan host after the visibility timeout, the pass
completes byte-identical to the embedded run with nothing duplicated; when the cut
host comes back and delivers its stale result, the kernel does not change."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from testing.hosts.fleet import Fleet
from testing.kernels import copy_roots, fragment_ids, tree_bytes
from testing.waiting import wait_until
from tests.multihost.harness import BACKFILL, KERNEL_WORKERS, PASS_ENV, SCAN_WORKERS, wait_committed

# Multi-host fleets (namespaces, Redis, workers per host): the slow tier.
pytestmark = pytest.mark.slow

# Short, so the test waits seconds; well above the longest task here (about 1 s).
VISIBILITY_S = 8


def test_cut_scan_host_is_redelivered_and_its_late_result_changes_nothing(
    base: KernelPaths,
    reference: dict[str, Any],
    tmp_path: Path,
    fleet_factory: Callable[..., Fleet],
) -> None:
    paths = copy_roots(base, tmp_path / "dist")
    env = {**PASS_ENV, "SUBCON_VISIBILITY_TIMEOUT_SECONDS": str(VISIBILITY_S)}
    fleet = fleet_factory(paths, ["scan-a", "scan-b"], **env)
    fleet.start_kernel_workers()
    # scan-a stops in its first slice, after reading it, before returning the result.
    control = tmp_path / "control-a"
    flag = control / "go"
    fleet.start_scan_host("scan-a", control=control, env={"SUBCON_TEST_PAUSE": f"scan:{flag}"})
    fleet.start_scan_host("scan-b")
    fleet.wait_ready([*KERNEL_WORKERS, *SCAN_WORKERS])
    head = run_git(paths.kernel, "rev-parse", "HEAD").stdout.strip()

    sent = fleet.client("send", interval=BACKFILL, commit=True)
    reached = control / "go.reached"
    wait_until(reached.is_file, 60, "scan-a paused in a slice")
    held = re.findall(r"subcon\.memory-weaver\.scan\[([0-9a-f-]+)\] received", fleet.log("scan-a"))
    assert len(held) == 1, fleet.log("scan-a")
    task_id = held[0]
    fleet.link("scan-a", up=False)

    report = fleet.client("wait", id=sent["id"], timeout=150)["report"]
    wait_committed(fleet, paths, head)

    # The pass completed without scan-a, exactly as the embedded run.
    assert report["text"] == reference["report"]["text"]
    tree = tree_bytes(paths.memory_dir)
    assert tree == reference["tree"]
    ids = fragment_ids(tree)
    assert ids and len(ids) == len(set(ids))
    git_tree = run_git(paths.kernel, "rev-parse", "HEAD^{tree}").stdout.strip()
    assert git_tree == reference["git_tree"]
    # The held slice was redelivered to scan-b, and only after the visibility timeout.
    scans = fleet.client("scans")["scans"]
    assert scans[task_id]["worker"] == "scan@scan-b" and scans[task_id]["status"] == "SUCCESS"
    assert f"subcon.memory-weaver.scan[{task_id}] succeeded" in fleet.log("scan-b")
    assert f"subcon.memory-weaver.scan[{task_id}] succeeded" not in fleet.log("scan-a")
    assert {s["worker"] for s in scans.values()} <= set(SCAN_WORKERS)
    assert {s["status"] for s in scans.values()} == {"SUCCESS"}
    # Nothing else ran twice: each slice succeeded once, the pass's kernel stages once.
    done = re.findall(
        r"subcon\.memory-weaver\.scan\[([0-9a-f-]+)\] succeeded",
        fleet.log("scan-a") + fleet.log("scan-b"),
    )
    assert sorted(done) == sorted(scans)
    for stage in ("crystallize", "update", "settle"):
        assert fleet.log("kernel").count(f"subcon.memory-weaver.{stage}[") == 2  # received, done

    # The cut host comes back and finishes its slice: a stale, duplicate result.
    settled = fleet.client("kernel-state")
    crystallized = fleet.log("kernel").count("subcon.memory-weaver.crystallize[")
    commits = run_git(paths.kernel, "rev-list", "--count", "HEAD").stdout.strip()
    fleet.link("scan-a", up=True)
    flag.write_text("go\n", encoding="utf-8")
    wait_until(
        lambda: f"subcon.memory-weaver.scan[{task_id}] succeeded" in fleet.log("scan-a"),
        60,
        "scan-a's late result",
    )
    # Redis refuses it twice over: the stored result stays scan-b's (a SUCCESS is never
    # overwritten), and the pass's chord join, complete and marked done, takes no part.
    assert fleet.client("scans")["scans"][task_id]["worker"] == "scan@scan-b"
    after = fleet.client("kernel-state")
    assert settled["open_joins"] == after["open_joins"] == {}
    assert list(settled["join_markers"].values()) == ["done"]
    assert after["join_markers"] == settled["join_markers"]
    assert "ERROR" not in fleet.log("scan-a"), fleet.log("scan-a")[-3000:]
    # Nothing follows from it: no crystallize is queued, running or run again; no
    # kernel lock was taken (the fence is unchanged); the kernel's files and history
    # are as the pass left them.
    assert after["fence"] == settled["fence"] > 0
    assert after["queued"] == {"scan": 0, "kernel": 0, "commit": 0}
    assert not any(after["active"].get(w) for w in KERNEL_WORKERS), after["active"]
    assert fleet.log("kernel").count("subcon.memory-weaver.crystallize[") == crystallized
    assert tree_bytes(paths.memory_dir) == reference["tree"]
    assert run_git(paths.kernel, "rev-list", "--count", "HEAD").stdout.strip() == commits
    assert "Traceback" not in fleet.log("kernel") + fleet.log("commit")
