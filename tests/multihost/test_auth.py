"""Across hosts Redis asks for the password, over TLS as well: a scan host with the
wrong one is refused and says so in its log, and never joins the fleet."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from testing.hosts.fleet import PASSWORD, Fleet
from testing.kernels import copy_roots
from testing.waiting import wait_until

# Multi-host fleets (namespaces, Redis, workers per host): the slow tier.
pytestmark = pytest.mark.slow

WRONG = "not-the-password-31"


def test_wrong_password_is_refused_and_logged(
    base: KernelPaths, tmp_path: Path, fleet_factory: Callable[..., Fleet]
) -> None:
    paths = copy_roots(base, tmp_path / "dist")
    fleet = fleet_factory(paths, ["scan-a", "scan-b", "scan-c"])
    fleet.start_scan_host("scan-a", tls=True)  # the right password, over TLS
    # As deployed: deploy/scan-worker.sh checks the broker first and stops at once.
    deployed = fleet.start_scan_host("scan-b", tls=True, password=WRONG)
    # A bare Celery worker: it keeps retrying, and says why each time.
    bare = fleet.start_scan_host(
        "scan-c",
        password=WRONG,
        program=[
            sys.executable,
            "-m",
            "celery",
            "-A",
            "workers.app",
            "worker",
            "-Q",
            "scan",
            "-n",
            "scan@%h",
            "--without-gossip",
            "--without-mingle",
        ],
    )
    fleet.wait_ready(["scan@scan-a"])

    assert deployed.wait(timeout=30) != 0
    log_b = fleet.log("scan-b")
    assert "refused the password" in log_b and "invalid username-password pair" in log_b
    assert "rediss://***@10.213.0.1:6380/0" in log_b
    wait_until(lambda: "invalid username-password pair" in fleet.log("scan-c"), 30, "scan-c")
    log_c = fleet.log("scan-c")
    assert "Cannot connect to redis://:**@10.213.0.1:6379/0" in log_c
    assert bare.poll() is None  # still retrying, and still outside:
    workers = fleet.client("ping")["workers"]
    assert workers == ["scan@scan-a"]
    for log in (log_b, log_c):
        assert WRONG not in log and PASSWORD not in log  # no password in any log
