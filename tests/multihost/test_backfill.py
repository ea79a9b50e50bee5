"""A distributed weave over a four-day backfill, every slice scanned on two other hosts
(one over TLS), equals the embedded run byte for byte; the scan hosts write nothing
and have no kernel to read."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.weaver.pipeline import plan_pass
from shared.weaver.records import SlicePlan
from testing.cluster import settings_for
from testing.hosts.fleet import KEEP_RW_TYPES, Fleet
from testing.kernels import copy_roots, tree_bytes
from tests.multihost.harness import (
    BACKFILL,
    DAYS,
    KERNEL_WORKERS,
    PASS_ENV,
    SCAN_WORKERS,
    wait_committed,
)

# Multi-host fleets (namespaces, Redis, workers per host): the slow tier.
pytestmark = pytest.mark.slow


def assert_writes_nothing(fleet: Fleet, host: str, paths: KernelPaths) -> None:
    """On ``host``: no kernel, only var/events of the runtime, read-only everywhere but
    the host's own empty scratch tmpfs."""
    got = fleet.on_host(
        host,
        [
            sys.executable,
            "-c",
            "import os, sys, json; k, r = sys.argv[1:3];"
            "print(json.dumps({'kernel': os.path.exists(k), 'runtime': sorted(os.listdir(r)),"
            " 'var': sorted(os.listdir(os.path.join(r, 'var'))),"
            " 'mounts': open('/proc/self/mounts').read().splitlines()}))",
            str(paths.kernel),
            str(paths.runtime),
        ],
    )
    assert got.returncode == 0, got.stderr
    seen: dict[str, Any] = json.loads(got.stdout)
    assert seen["kernel"] is False, "the kernel dir is visible on a scan host"
    assert seen["runtime"] == ["var"] and seen["var"] == ["events"]
    writable = []
    for line in seen["mounts"]:
        _, point, fstype, options = line.split()[:4]
        if "rw" in options.split(",") and fstype not in KEEP_RW_TYPES:
            writable.append((point, fstype))
    # stacked mounts: the machine's /dev/shm lies under the host's own
    assert {p for p, _ in writable} <= {"/tmp", "/dev/shm"}, writable
    events = fleet.on_host(host, ["sh", "-c", f": > {paths.events_dir}/probe"])
    assert events.returncode != 0 and "Read-only file system" in events.stderr
    # Nothing was written even to the scratch space (-xdev: not into the bind mounts).
    files = fleet.on_host(host, ["find", "/tmp", "/dev/shm", "-xdev", "-type", "f"])
    assert files.returncode == 0 and files.stdout == "", files.stdout


def test_backfill_on_two_scan_hosts_matches_embedded(
    base: KernelPaths,
    reference: dict[str, Any],
    tmp_path: Path,
    fleet_factory: Callable[..., Fleet],
) -> None:
    paths = copy_roots(base, tmp_path / "dist")
    planned = plan_pass(paths, settings_for(paths, PASS_ENV), interval=BACKFILL).slices
    assert {s.spine.date for s in planned} == set(DAYS) and len(planned) >= 12
    fleet = fleet_factory(paths, ["scan-a", "scan-b"], **PASS_ENV)
    fleet.start_kernel_workers()
    fleet.start_scan_host("scan-a")
    fleet.start_scan_host("scan-b", tls=True)  # rediss:// with the test CA, verified
    fleet.wait_ready([*KERNEL_WORKERS, *SCAN_WORKERS])
    head = run_git(paths.kernel, "rev-parse", "HEAD").stdout.strip()

    got = fleet.client("weave", interval=BACKFILL, commit=True)
    wait_committed(fleet, paths, head)

    report = got["report"]
    assert report["text"] == reference["report"]["text"]
    tree = tree_bytes(paths.memory_dir)
    assert sorted(tree) == sorted(reference["tree"])
    assert tree == reference["tree"]
    for day in DAYS:
        assert any(name.startswith(f"fragments/{day}/") for name in tree), day
    assert any(name.startswith("effectiveness/") for name in tree)
    assert tree["CLAUDE.md"] != tree_bytes(base.memory_dir)["CLAUDE.md"], "board unchanged"
    assert run_git(paths.kernel, "rev-parse", "HEAD^{tree}").stdout.strip() == reference["git_tree"]
    assert run_git(paths.kernel, "status", "--porcelain", "-uall").stdout == reference["status"]

    # Every planned slice was scanned once, successfully, on a scan host; both took part.
    scans = list(fleet.client("scans")["scans"].values())
    assert len(scans) == len(planned)
    assert {s["status"] for s in scans} == {"SUCCESS"}
    assert sorted({s["worker"] for s in scans}) == sorted(SCAN_WORKERS)
    assert sorted(s["slice"] for s in scans) == sorted(
        f"{p['token']}:{p['byte_start']}:{p.get('role', '')}"
        for p in map(SlicePlan.to_json, planned)
    )
    assert sum(s["fragments"] for s in scans) > 0
    for host in ("scan-a", "scan-b"):
        log = fleet.log(host)
        assert log.count("subcon.memory-weaver.scan[") >= 1
        assert "ERROR" not in log and "Traceback" not in log, log[-3000:]
        assert_writes_nothing(fleet, host, paths)
    kernel_log = fleet.log("kernel")
    assert "subcon.memory-weaver.scan[" not in kernel_log  # no scan ran on the kernel host
    assert kernel_log.count("subcon.memory-weaver.crystallize[") >= 1
