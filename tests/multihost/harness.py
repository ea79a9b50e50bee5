"""What the multi-host tests share: the backfill they run, the workers they expect, the
once-per-session check that namespace hosts can be made, and waiting for a commit."""

from __future__ import annotations

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from testing.hosts import fleet as fleet_mod
from testing.hosts.fleet import Fleet
from testing.waiting import wait_until

# Four whole days: the demo's three and one more with eight hour bands.
DAYS = ("2026-01-03", "2026-01-04", "2026-01-05", "2026-01-06")
BACKFILL = " ".join(f"{d.replace('-', '')}[00,23]" for d in DAYS)
# Small slices, so every day is many scan tasks spread over both scan hosts.
PASS_ENV = {"SUBCON_SCAN_SLICE_EVENTS": "12", "SUBCON_WEAKENING_THRESHOLD": "1"}
SCAN_WORKERS = ("scan@scan-a", "scan@scan-b")
KERNEL_WORKERS = ("kernel@kernel-host", "commit@kernel-host")

_checked: list[str | None] = []


def hosts_unavailable() -> str | None:
    """Checked once per session; leftovers of a crashed run are removed first."""
    if not _checked:
        reason = fleet_mod.unavailable()
        if reason is None:
            fleet_mod.sweep_leftovers()
        _checked.append(reason)
    return _checked[0]


def wait_committed(fleet: Fleet, paths: KernelPaths, before: str) -> str:
    """Settle asked for a commit: wait until HEAD moved and the commit queue is idle."""

    def done() -> str | None:
        head = run_git(paths.kernel, "rev-parse", "HEAD").stdout.strip()
        if head == before:
            return None
        state = fleet.client("kernel-state")
        idle = not state["queued"]["commit"] and not state["active"].get("commit@kernel-host")
        return head if idle else None

    head: str = wait_until(done, 60, "the commit worker's commit", poll=0.5)
    return head
