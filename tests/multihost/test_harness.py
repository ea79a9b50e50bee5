"""The harness itself: it leaves the machine's own network alone, cleans up after a
crashed run, and the hosts benchmark skips with the reason where it cannot run."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from testing.hosts import fleet as fleet_mod
from testing.waiting import wait_until
from tests.multihost.harness import hosts_unavailable


def _ip(*args: str) -> str:
    return subprocess.run(["ip", *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def root_only() -> None:
    reason = hosts_unavailable()
    if reason is not None:
        pytest.skip(reason)


@pytest.mark.integration
@pytest.mark.usefixtures("root_only")
def test_hosts_live_only_in_their_namespaces(tmp_path: Path) -> None:
    links, addrs = _ip("-o", "link"), _ip("-o", "addr")
    paths = KernelPaths(kernel=tmp_path / "kernel", runtime=tmp_path / "runtime")
    made = fleet_mod.Fleet(paths, tmp_path, tmp_path / "work")
    try:
        made.build(["scan-a", "scan-b"])
        names = [h.netns for h in made.hosts.values()]
        assert set(names) <= set(_ip("netns", "list").split())
        # The machine's own namespace has no new interface and no 10.213 address.
        assert _ip("-o", "link") == links and _ip("-o", "addr") == addrs
        assert "10.213." not in _ip("-o", "addr")
        inside = _ip("-n", made.hosts["scan-a"].netns, "-o", "addr")
        assert "10.213.0.11/24" in inside
    finally:
        made.destroy()
    assert not set(names) & set(_ip("netns", "list").split())


@pytest.mark.integration
@pytest.mark.usefixtures("root_only")
def test_sweep_removes_the_hosts_of_a_dead_run_only() -> None:
    pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
    dead = f"{fleet_mod.PREFIX}{pid_max}-1-kernel"  # no process can have this pid
    alive = f"{fleet_mod.PREFIX}1-1-kernel"  # pid 1 is alive: another run's hosts
    for name in (dead, alive):
        _ip("netns", "add", name)
    orphan = subprocess.Popen(["ip", "netns", "exec", dead, "sleep", "300"])
    try:
        wait_until(lambda: _ip("netns", "pids", dead).strip(), 10, "the orphan")
        removed = fleet_mod.sweep_leftovers()
        assert dead in removed and alive not in removed
        assert orphan.wait(timeout=10) == -9
        listed = _ip("netns", "list").split()
        assert dead not in listed and alive in listed
    finally:
        orphan.kill()
        orphan.wait()
        for name in (dead, alive):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)


def test_hosts_bench_is_skipped_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    import bench.hosts
    from bench.run import Scale, section_hosts

    monkeypatch.setattr(fleet_mod, "unavailable", lambda: "ip netns add failed: no")
    rows = section_hosts(Path("/nonexistent"), Scale.tiny(), 7)
    assert [r["name"] for r in rows] == [f"hosts.{n}" for n in bench.hosts.NAMES]
    assert all(r["value"] is None and r["met"] is None for r in rows)
    assert all(r["unit"] == "skipped: ip netns add failed: no" for r in rows)
    assert rows[-1]["target"] == bench.hosts.TARGET
