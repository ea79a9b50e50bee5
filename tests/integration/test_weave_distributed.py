"""(a) A weaver pass through real scan and kernel workers equals the embedded pass, byte
for byte, over a day of twelve bands (two copies of the same kernel)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from shared.memcheck.check import run_memory_check
from shared.settings import Settings
from shared.spine.gap import find_gap
from testing.cluster import Cluster
from testing.kernels import add_banded_day, copy_roots, make_demo, tree_bytes
from workers.app import make_app
from workers.canvas import dispatch_weaver
from workers.embedded import run_partition

pytestmark = pytest.mark.integration

DAY = "2026-01-07"


def test_distributed_pass_matches_embedded_pass(
    tmp_path: Path, cluster_factory: Callable[..., Cluster]
) -> None:
    base = make_demo(tmp_path / "base")
    add_banded_day(base, DAY, range(0, 24, 2), per_hour=3)
    base_settings = Settings(kernel_dir=base.kernel, runtime_dir=base.runtime)
    gap = find_gap(base, base_settings)
    assert gap is not None and gap.date == DAY and len(gap.bands) == 12
    # the memory check posts scan-gap.md.pending, the weaver's Stage-1 input
    run_memory_check(base, base_settings)
    assert (base.inbox_dir("memory-weaver") / "scan-gap.md.pending").is_file()
    embedded = copy_roots(base, tmp_path / "embedded")
    distributed = copy_roots(base, tmp_path / "distributed")

    # small slices, so the dense bands are split too and the chord is wide
    local = Settings(kernel_dir=embedded.kernel, runtime_dir=embedded.runtime, scan_slice_events=4)
    local_report = run_partition(local, "memory-weaver", commit=False)

    cluster = cluster_factory(distributed, SUBCON_SCAN_SLICE_EVENTS="4")
    cluster.worker("scan", "scan", 2)
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["scan", "kernel"])
    app = make_app(cluster.settings)
    result = dispatch_weaver(app, commit=False)
    remote_report = result.get(timeout=120)

    assert remote_report["text"] == local_report["text"]
    assert (distributed.fragments_dir / DAY).is_dir()
    local_tree = tree_bytes(embedded.memory_dir)
    remote_tree = tree_bytes(distributed.memory_dir)
    assert sorted(remote_tree) == sorted(local_tree)
    assert remote_tree == local_tree
    assert any(name.startswith(f"fragments/{DAY}/") for name in local_tree)
    # the scan-gap item was acked by the distributed pass, as by the embedded one
    for paths in (embedded, distributed):
        assert not (paths.inbox_dir("memory-weaver") / "scan-gap.md.pending").exists()
    # the scans really ran on the scan worker, in parallel slices
    log = (cluster.logdir / "scan.log").read_text(errors="replace")
    assert log.count("subcon.memory-weaver.scan[") >= 12
