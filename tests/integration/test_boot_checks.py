"""A worker that fails its boot checks exits non-zero, naming the missing root; a
scan-only worker needs no kernel dir (scan hosts have none)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from shared.kernel.paths import KernelPaths
from testing.cluster import Cluster
from testing.kernels import make_demo
from workers.hooks import BOOT_FAILED_EXIT, boot_problems

EXIT_WAIT_S = 60


def without_kernel(root: Path) -> KernelPaths:
    """Demo roots whose kernel dir has been taken away."""
    paths = make_demo(root)
    gone = paths.kernel.with_name("kernel-gone")
    paths.kernel.rename(gone)
    return paths


def test_kernel_worker_without_kernel_dir_exits_non_zero(
    cluster_factory: Callable[..., Cluster], tmp_path: Path
) -> None:
    paths = without_kernel(tmp_path / "demo")
    cluster = cluster_factory(paths)
    cluster.worker("kernel", "kernel")
    proc = cluster.procs[-1][1]
    try:
        returncode = proc.wait(timeout=EXIT_WAIT_S)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"worker kept running; logs:\n{cluster.logs()}") from None
    log = (cluster.logdir / "kernel.log").read_text(errors="replace")
    assert returncode == BOOT_FAILED_EXIT != 0
    assert f"subcon worker: kernel dir {paths.kernel} does not exist" in log
    assert "SUBCON_KERNEL_DIR" in log
    assert "ready." not in log


def test_scan_only_worker_runs_without_kernel_dir(
    cluster_factory: Callable[..., Cluster], tmp_path: Path
) -> None:
    paths = without_kernel(tmp_path / "demo")
    cluster = cluster_factory(paths)
    cluster.worker("scan", "scan")
    cluster.wait_ready(["scan"])
    assert cluster.procs[-1][1].poll() is None
    assert "does not exist" not in (cluster.logdir / "scan.log").read_text(errors="replace")


def test_boot_problems_names_each_missing_root(tmp_path: Path) -> None:
    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    both = boot_problems(paths, {"kernel", "scan"})
    assert [line.split(" dir ")[0] for line in both] == [
        "subcon worker: kernel",
        "subcon worker: runtime",
    ]
    assert boot_problems(paths, {"scan"}) == [
        f"subcon worker: runtime dir {paths.runtime} does not exist (set SUBCON_RUNTIME_DIR)"
    ]
    paths.runtime.mkdir()
    assert boot_problems(paths, {"scan"}) == []
    # No queue list (a worker consuming the defaults) is not scan-only.
    assert len(boot_problems(paths, set())) == 1
