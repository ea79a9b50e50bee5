"""Fixtures for the multi-host tests: a prepared kernel, its embedded reference run, and
fleets of namespace hosts (``testing/hosts/fleet.py``) torn down after each test.

The tests skip, with the reason, where namespaces cannot be made (not root, no
``ip netns``, no mount namespaces); on the project's CI machine (root) they run.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.constants import WEAVER
from shared.kernel.paths import KernelPaths
from testing.cluster import settings_for
from testing.hosts import fleet as fleet_mod
from testing.hosts.fleet import Fleet
from testing.kernels import add_banded_day, copy_roots, make_demo, tree_bytes
from tests.multihost.harness import BACKFILL, DAYS, PASS_ENV, hosts_unavailable


@pytest.fixture
def fleet_factory(tmp_path: Path) -> Iterator[Callable[..., Fleet]]:
    """``make(paths, scan_hosts, **env)``: a fleet whose network and Redis are up."""
    reason = hosts_unavailable()
    if reason is not None:
        pytest.skip(reason)
    made: list[Any] = []

    def make(paths: KernelPaths, scan_hosts: list[str], **env: str) -> Fleet:
        ctx = fleet_mod.fleet(
            paths, paths.kernel.parent, tmp_path / f"fleet-{len(made)}", scan_hosts, **env
        )
        made.append(ctx)
        return ctx.__enter__()

    try:
        yield make
    finally:
        gc.collect()  # results subscribed to a fleet's Redis go while it is up
        for ctx in reversed(made):
            ctx.__exit__(None, None, None)


@pytest.fixture(scope="session")
def base(tmp_path_factory: pytest.TempPathFactory) -> KernelPaths:
    """The demo kernel plus 2026-01-06 (eight bands), nothing scanned yet."""
    paths = make_demo(tmp_path_factory.mktemp("mh-base") / "roots")
    add_banded_day(paths, DAYS[-1], range(0, 24, 3), per_hour=4)
    return paths


@pytest.fixture(scope="session")
def reference(base: KernelPaths, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The embedded (in-process) backfill pass with its commit, on a copy of ``base``."""
    from shared.kernel.git import run_git
    from workers.embedded import run_partition

    paths = copy_roots(base, tmp_path_factory.mktemp("mh-embedded"))
    report = run_partition(settings_for(paths, PASS_ENV), WEAVER, interval=BACKFILL, commit=True)
    return {
        "report": report,
        "tree": tree_bytes(paths.memory_dir),
        "git_tree": run_git(paths.kernel, "rev-parse", "HEAD^{tree}").stdout.strip(),
        "status": run_git(paths.kernel, "status", "--porcelain", "-uall").stdout,
        "paths": paths,
    }
