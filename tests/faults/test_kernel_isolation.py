"""One kernel's trouble is one kernel's trouble (issue #31, item 5), with real workers.

Each test registers three demo kernels on one cluster (real redis-server, scan, kernel and
commit workers): two healthy ones and one broken in one way (a damaged git repository, an
unreadable board, a partition prompt whose front matter does not parse, a deleted
runtime, a full disk, removal from the registry mid-pass). Beat's tick (``fanout=True``)
ticks all three, then each kernel gets a second tick by hand (``subcon --kernel-name NAME
tick`` sends the same message). Then:

* the healthy kernels' passes and commits complete: their runs are recorded as
  ``success`` in their own runtimes and their git HEAD moves, tick after tick;
* the broken kernel's failure is reported under its name: its run's outcome is recorded
  as ``error`` in its own runtime (where it has one), every failed task is one of its
  own (its message carries ``kernel=broken``, which Flower shows) and says the cause in
  one line, the workers' failure log lines name the kernel, and ``subcon --kernel-name
  broken status`` shows the problem;
* its backoff grows: ``error`` with one consecutive failure and no backoff after the
  first tick, two failures and ``backoff_until`` set after the second (docs/formats.md
  §7.4), so beat stops running the failing partition for a while.

Ticks are 600 s apart (no beat runs; the test sends them) and every partition cools down
for one tick only, so two ticks run both partitions twice.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery

from shared.cadence.ticks import read_mirror
from shared.constants import COMMITTER, WEAVER
from shared.errors import ConfigError
from shared.kernel.git import run_git
from shared.kernel.lock.factory import open_kernel_lock
from shared.kernel.paths import KernelPaths
from shared.kernels.registry import Registry
from shared.partitions.state import PartitionState, read_state
from shared.review.allowlist import classify
from shared.setup.bootstrap import init_kernel
from shared.timestamps import parse_iso
from testing.cluster import REPO, Cluster, settings_for
from testing.kernels import add_banded_day, make_demo
from testing.waiting import wait_until
from tests.faults.harness import FaultReport
from workers import routing
from workers.app import make_app
from workers.waiting import wait_for

pytestmark = pytest.mark.integration

HEALTHY = ("amber", "blue")
BROKEN = "broken"
TICK_SECONDS = "600"
WAIT_S = 60.0
# A temp file an atomic writer left (docs/formats.md §1.2): a write cut off half way.
TEMP_NAME = re.compile(r"^\..+\.[0-9]+\.[0-9]+\.[0-9a-f-]{36}\.tmp$")


# --- the fleet and its cluster ----------------------------------------------------------


def _set_cooldown(paths: KernelPaths, name: str, ticks: int) -> None:
    """Let the partition run on every tick (the demo's front matter waits 5 and 3)."""
    prompt = paths.partition_prompt(name)
    text, count = re.subn(
        r"(?m)^(\s+cooldown_ticks:).*$", rf"\g<1> {ticks}", prompt.read_text("utf-8"), count=1
    )
    assert count == 1, prompt
    prompt.write_text(text, encoding="utf-8")


@pytest.fixture(autouse=True)
def _drop_results() -> Iterator[None]:
    """Collect Celery results while the session's redis-server still runs."""
    yield
    gc.collect()


@pytest.fixture
def fleet(tmp_path: Path, cluster_registry: Registry) -> dict[str, KernelPaths]:
    """Three registered demo kernels, each partition cooling down for one tick only."""
    made = {}
    for name in (*HEALTHY, BROKEN):
        paths = make_demo(tmp_path / name)
        _set_cooldown(paths, WEAVER, 1)
        _set_cooldown(paths, COMMITTER, 1)
        cluster_registry.add(name, paths.kernel, paths.runtime)
        made[name] = paths
    return made


def _start(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], scan: int = 1, **env: str
) -> tuple[Cluster, Celery]:
    """Scan, kernel and commit workers. The settings' own kernel (which every worker
    boots with) is an empty one, with no spine to scan."""
    own = KernelPaths(kernel=tmp_path / "own" / "kernel", runtime=tmp_path / "own" / "runtime")
    init_kernel(own, demo=False, force=False)
    cluster = cluster_factory(own, SUBCON_TICK_SECONDS=TICK_SECONDS, **env)
    cluster.worker("scan", "scan", scan)
    cluster.worker("kernel", "kernel", 2)
    cluster.commit_worker()
    cluster.wait_ready(["scan", "kernel", "commit"])
    return cluster, make_app(cluster.settings)


# --- reading what happened --------------------------------------------------------------


def _head(paths: KernelPaths) -> str | None:
    result = run_git(paths.kernel, "rev-parse", "-q", "--verify", "HEAD", check=False)
    return result.stdout.strip() if result.returncode == 0 else None


def _tick_of(paths: KernelPaths) -> int:
    return read_mirror(paths) if paths.runtime.is_dir() else 0


def _finished(paths: KernelPaths, partition: str, tick: int) -> PartitionState | None:
    """The partition's state once the run ``tick`` started has finished, else None."""
    state = read_state(paths, partition)
    if state.last_run_tick != tick or not state.last_started_at:
        return None
    if not state.last_finished_at or state.last_finished_at < state.last_started_at:
        return None
    return state


def _wait_healthy(fleet: dict[str, KernelPaths], tick: int, heads: dict[str, str | None]) -> None:
    """Both healthy kernels ran both partitions in ``tick``, successfully, and committed."""
    for name in HEALTHY:
        paths = fleet[name]
        for partition in (WEAVER, COMMITTER):

            def finished(p: KernelPaths = paths, n: str = partition) -> PartitionState | None:
                return _finished(p, n, tick)

            state = wait_until(finished, WAIT_S, f"{name}'s {partition} run of tick {tick}")
            assert state.last_result == "success", (name, partition, state)
            assert state.consecutive_failures == 0 and state.backoff_until is None, state

        def committed(p: KernelPaths = paths, n: str = name) -> bool:
            return _head(p) != heads[n]

        wait_until(committed, WAIT_S, f"{name}'s commit")
        assert _tick_of(paths) == tick


def _tick_by_hand(app: Celery, names: list[str]) -> dict[str, Any]:
    """One manual tick per kernel (what ``subcon --kernel-name NAME tick`` sends), sent
    together; each kernel's report, or the project error its tick failed with."""
    sent = {
        name: app.tasks[routing.TICK].apply_async(kwargs={"kernel": name, "manual": True})
        for name in names
    }
    out: dict[str, Any] = {}
    for name, result in sent.items():
        try:
            out[name] = wait_for(result, WAIT_S)
        except Exception as exc:  # kept to assert on: the broken kernel's tick may fail
            out[name] = exc
    return out


def _metas(redis_url: str) -> list[dict[str, Any]]:
    """Every task result the backend holds (``result_extended``: name, kwargs, status)."""
    client = redis.Redis.from_url(redis_url)
    found = []
    for key in client.scan_iter("celery-task-meta-*"):
        raw = client.get(key)
        if raw is not None:
            found.append(json.loads(raw))
    return found


def _message(meta: dict[str, Any]) -> str:
    """A failed task's message as Flower and ``subcon`` show it."""
    result = meta["result"]
    args = result.get("exc_message") or []
    if isinstance(args, list) and len(args) == 1 and isinstance(args[0], dict):
        return str(args[0].get("message", ""))  # a project error (StageFailed payload)
    if isinstance(args, list) and args and isinstance(args[0], int):
        return str(OSError(*args))
    return " ".join(str(a) for a in args) if isinstance(args, list) else str(args)


def _failures(redis_url: str) -> list[dict[str, Any]]:
    """Every failed task: each one must belong to the broken kernel."""
    failed = [m for m in _metas(redis_url) if m.get("status") == "FAILURE"]
    strays = [
        (m.get("name"), m.get("kwargs")) for m in failed if m["kwargs"].get("kernel") != BROKEN
    ]
    assert not strays, f"tasks of other kernels failed: {strays}"
    return failed


def _tick_reports(redis_url: str, kernel: str) -> list[dict[str, Any]]:
    return [
        m["result"]
        for m in _metas(redis_url)
        if m.get("name") == routing.TICK
        and m["kwargs"].get("kernel") == kernel
        and m.get("status") == "SUCCESS"
    ]


def _failure_lines(cluster: Cluster) -> list[str]:
    """The workers' log lines about a failed task or run."""
    lines = []
    for log in sorted(cluster.logdir.glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if re.search(r"\] (task \S+ id=\S+ kernel=\S+ failed|kernel \S+: run of )", line):
                lines.append(line)
    return lines


def _assert_logged_under_its_name(cluster: Cluster) -> None:
    lines = _failure_lines(cluster)
    assert lines, "no failure was logged"
    strays = [ln for ln in lines if f"kernel={BROKEN} " not in ln and f"kernel {BROKEN}:" not in ln]
    assert not strays, strays


def _status(cluster: Cluster, name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workers", "--kernel-name", name, "status"],
        cwd=REPO, env=cluster.env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _assert_status_backed_off(cluster: Cluster, partition: str) -> None:
    """``subcon --kernel-name broken status`` shows the partition failing, backed off."""
    status = _status(cluster, BROKEN)
    assert status.returncode == 0, status.stderr
    shown = rf"{partition}: .*\n\s+last tick run: error .*2 consecutive failure\(s\), backed off"
    assert re.search(shown, status.stdout), status.stdout


def _assert_backoff_grows(before: PartitionState, after: PartitionState) -> None:
    """One failure and no backoff after the first tick, two and a backoff after the
    second (an error backs off from the second consecutive failure on, §7.4)."""
    assert (before.last_result, before.consecutive_failures) == ("error", 1), before
    assert before.backoff_until is None, before
    assert (after.last_result, after.consecutive_failures) == ("error", 2), after
    assert after.backoff_until is not None, after
    assert parse_iso(after.backoff_until) > datetime.now(UTC), after


def _no_half_written_files(*roots: Path) -> None:
    left = [p for root in roots for p in root.rglob("*") if TEMP_NAME.match(p.name)]
    assert not left, f"temp files of cut-off writes left: {left}"


# --- the cases ----------------------------------------------------------------------------


def test_damaged_git_repository_fails_alone(
    tmp_path: Path,
    redis_url: str,
    fleet: dict[str, KernelPaths],
    cluster_factory: Callable[..., Cluster],
    fault_report: FaultReport,
) -> None:
    """A truncated ``.git/HEAD``: git no longer opens the repository. The committer
    reports a damaged repository (an error, one line) instead of skipping the kernel as
    "not a git repository", which recorded a success and never backed off."""
    fault_report.injected("kernel-git-damaged")
    broken = fleet[BROKEN]
    (broken.kernel / ".git" / "HEAD").write_bytes(b"")
    cluster, app = _start(tmp_path, cluster_factory)
    heads = {name: _head(paths) for name, paths in fleet.items()}

    report = app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=WAIT_S)
    assert sorted(report["fanned_out"]) == sorted([*HEALTHY, BROKEN])
    _wait_healthy(fleet, 1, heads)
    first = wait_until(lambda: _finished(broken, COMMITTER, 1), WAIT_S, "broken's commit run")
    # The broken kernel's weaver does not need git: its pass completes.
    weaver = wait_until(lambda: _finished(broken, WEAVER, 1), WAIT_S, "broken's weaver run")
    assert weaver.last_result == "success", weaver

    heads = {name: _head(paths) for name, paths in fleet.items()}
    ticked = _tick_by_hand(app, [*HEALTHY, BROKEN])
    assert all(ticked[name]["tick"] == 2 for name in fleet), ticked
    _wait_healthy(fleet, 2, heads)
    second = wait_until(lambda: _finished(broken, COMMITTER, 2), WAIT_S, "broken's 2nd commit")
    _assert_backoff_grows(first, second)

    failed = [m for m in _failures(redis_url) if m["name"] == routing.COMMIT]
    assert failed, "the broken kernel's commits did not fail"
    for meta in failed:
        message = _message(meta)
        assert "\n" not in message and "is damaged" in message, message
        assert str(broken.kernel / ".git") in message, message
    _assert_logged_under_its_name(cluster)
    _assert_status_backed_off(cluster, COMMITTER)
    # Nothing repaired or re-initialised the repository behind the operator's back.
    assert (broken.kernel / ".git" / "HEAD").read_bytes() == b""
    fault_report.survived("kernel-git-damaged")


def test_unreadable_board_fails_alone(
    tmp_path: Path,
    redis_url: str,
    fleet: dict[str, KernelPaths],
    cluster_factory: Callable[..., Cluster],
    fault_report: FaultReport,
) -> None:
    """The board cannot be read. Not with ``chmod 000``: the tests run as root in CI,
    and root reads a file whatever its mode. A directory where ``memory/CLAUDE.md``
    should be fails every read, for every user, as an unreadable file does."""
    fault_report.injected("kernel-board-unreadable")
    broken = fleet[BROKEN]
    broken.board.unlink()
    broken.board.mkdir()
    cluster, app = _start(tmp_path, cluster_factory)
    heads = {name: _head(paths) for name, paths in fleet.items()}

    app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=WAIT_S)
    _wait_healthy(fleet, 1, heads)
    first = wait_until(lambda: _finished(broken, WEAVER, 1), WAIT_S, "broken's weaver run")

    heads = {name: _head(paths) for name, paths in fleet.items()}
    ticked = _tick_by_hand(app, [*HEALTHY, BROKEN])
    _wait_healthy(fleet, 2, heads)
    second = wait_until(lambda: _finished(broken, WEAVER, 2), WAIT_S, "broken's 2nd weaver run")
    _assert_backoff_grows(first, second)

    # The pass could not even be planned: its tick says why, in one line, per run.
    errors = [
        entry["error"]
        for tick_report in [*_tick_reports(redis_url, BROKEN), ticked[BROKEN]]
        for entry in tick_report.get("dispatched") or []
        if entry.get("error")
    ]
    assert len(errors) >= 2, errors
    for error in errors:
        assert "\n" not in error and f"{broken.board}: not a regular file" in error, error
    _failures(redis_url)  # no task of another kernel failed
    _assert_logged_under_its_name(cluster)
    _assert_status_backed_off(cluster, WEAVER)
    # The broken kernel's committer went on, and never committed the board away.
    assert read_state(broken, COMMITTER).last_result == "success"
    assert (
        run_git(broken.kernel, "cat-file", "-e", "HEAD:memory/CLAUDE.md", check=False).returncode
        == 0
    )
    fault_report.survived("kernel-board-unreadable")


def test_bad_front_matter_fails_alone(
    tmp_path: Path,
    redis_url: str,
    fleet: dict[str, KernelPaths],
    cluster_factory: Callable[..., Cluster],
    fault_report: FaultReport,
) -> None:
    """The weaver's prompt has front matter that does not parse. A partition that cannot
    be read is never started (dropped from scheduling, as with one kernel), so there is
    no failing run to back off from: ``status`` names the file and line, and the same
    kernel's committer goes on."""
    fault_report.injected("kernel-front-matter")
    broken = fleet[BROKEN]
    broken.partition_prompt(WEAVER).write_text(
        "---\nschedule: [unclosed\n---\nbody\n", encoding="utf-8"
    )
    cluster, app = _start(tmp_path, cluster_factory)
    heads = {name: _head(paths) for name, paths in fleet.items()}

    app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=WAIT_S)
    _wait_healthy(fleet, 1, heads)
    wait_until(lambda: _finished(broken, COMMITTER, 1), WAIT_S, "broken's commit run")
    heads = {name: _head(paths) for name, paths in fleet.items()}
    ticked = _tick_by_hand(app, [*HEALTHY, BROKEN])
    _wait_healthy(fleet, 2, heads)
    state = wait_until(lambda: _finished(broken, COMMITTER, 2), WAIT_S, "broken's 2nd commit")
    assert state.last_result == "success", state

    # Two ticks and the weaver was never started: no run, no state, no retry storm.
    assert ticked[BROKEN]["partitions"] == [COMMITTER], ticked[BROKEN]
    assert not broken.partition_state(WEAVER).exists()
    assert not _failures(redis_url)
    status = _status(cluster, BROKEN)
    assert status.returncode == 0, status.stderr
    assert "memory-weaver: NOT RUNNABLE" in status.stdout, status.stdout
    assert re.search(
        rf"cannot be read: {re.escape(str(broken.partition_prompt(WEAVER)))}:2: front matter",
        status.stdout,
    ), status.stdout
    fault_report.survived("kernel-front-matter")


def test_missing_runtime_fails_alone(
    tmp_path: Path,
    redis_url: str,
    fleet: dict[str, KernelPaths],
    cluster_factory: Callable[..., Cluster],
    fault_report: FaultReport,
) -> None:
    """The registered runtime dir was deleted. Its ticks fail in one line naming the
    dir and the fix, and never make up an empty runtime (they used to: the tick made
    ``var/subcon`` again, found no spine, and recorded its passes as successes). With
    no runtime there is nowhere to record a run or a backoff: nothing is started."""
    fault_report.injected("kernel-runtime-missing")
    broken = fleet[BROKEN]
    shutil.rmtree(broken.runtime)
    cluster, app = _start(tmp_path, cluster_factory)
    heads = {name: _head(paths) for name, paths in fleet.items()}

    app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=WAIT_S)
    _wait_healthy(fleet, 1, heads)
    heads = {name: _head(paths) for name, paths in fleet.items()}
    ticked = _tick_by_hand(app, [*HEALTHY, BROKEN])
    _wait_healthy(fleet, 2, heads)

    assert isinstance(ticked[BROKEN], ConfigError), ticked[BROKEN]
    failed = _failures(redis_url)
    assert sorted(m["name"] for m in failed) == [routing.TICK, routing.TICK], failed
    for meta in failed:
        message = _message(meta)
        assert "\n" not in message, message
        assert f"runtime dir {broken.runtime} does not exist" in message, message
    assert not broken.runtime.exists()
    assert _head(broken) == heads[BROKEN]  # nothing was started, nothing committed
    _assert_logged_under_its_name(cluster)
    status = _status(cluster, BROKEN)
    assert status.returncode == 2
    assert f"runtime dir {broken.runtime} does not exist" in status.stderr, status.stderr
    fault_report.survived("kernel-runtime-missing")


@pytest.fixture
def full_disk() -> Iterator[Callable[[Path], None]]:
    """``fill(dir)``: put ``dir`` on a tiny tmpfs of its own (keeping what it held) and
    fill that to the last block, so every write under it fails with ENOSPC. Mounting
    needs root (the project's CI runs as root); elsewhere the test skips."""
    mounted: list[Path] = []

    def fill(directory: Path) -> None:
        if os.geteuid() != 0 or shutil.which("mount") is None:
            pytest.skip("a full disk is a tmpfs mount, which needs root")
        held = directory.with_name(directory.name + ".held")
        directory.rename(held)
        directory.mkdir()
        mount = ["mount", "-t", "tmpfs", "-o", "size=512k,mode=0755", "tmpfs", str(directory)]
        made = subprocess.run(mount, capture_output=True, text=True)
        if made.returncode != 0:
            directory.rmdir()
            held.rename(directory)
            pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
        mounted.append(directory)
        shutil.copytree(held, directory, symlinks=True, dirs_exist_ok=True)
        shutil.rmtree(held)
        # Ignored by the kernel's .gitignore (*.tmp), so git and the committer skip it.
        fd = os.open(directory / ".disk-full.tmp", os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * 65536)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
        try:
            while True:  # the last partial block
                os.write(fd, b"\0")
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
        finally:
            os.close(fd)

    try:
        yield fill
    finally:
        for directory in mounted:
            if subprocess.run(["umount", str(directory)], capture_output=True).returncode:
                subprocess.run(["umount", "-l", str(directory)], capture_output=True)


def test_full_disk_fails_alone(
    tmp_path: Path,
    redis_url: str,
    fleet: dict[str, KernelPaths],
    cluster_factory: Callable[..., Cluster],
    full_disk: Callable[[Path], None],
    fault_report: FaultReport,
) -> None:
    """The disk under the broken kernel's ``memory/`` is full: the weaver's first write
    there (a fragment) fails with ENOSPC, the run is recorded as an error in the
    kernel's runtime (another disk), and nothing is left half-written."""
    broken = fleet[BROKEN]
    full_disk(broken.memory_dir)
    fault_report.injected("kernel-disk-full")
    before = {p: p.read_bytes() for p in broken.memory_dir.rglob("*.md")}
    cluster, app = _start(tmp_path, cluster_factory)
    heads = {name: _head(paths) for name, paths in fleet.items()}

    app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=WAIT_S)
    _wait_healthy(fleet, 1, heads)
    first = wait_until(lambda: _finished(broken, WEAVER, 1), WAIT_S, "broken's weaver run")
    heads = {name: _head(paths) for name, paths in fleet.items()}
    _tick_by_hand(app, [*HEALTHY, BROKEN])
    _wait_healthy(fleet, 2, heads)
    second = wait_until(lambda: _finished(broken, WEAVER, 2), WAIT_S, "broken's 2nd weaver run")
    _assert_backoff_grows(first, second)

    failed = _failures(redis_url)
    assert any(m["name"] == routing.CRYSTALLIZE for m in failed), failed
    for meta in failed:
        message = _message(meta)
        assert "\n" not in message and "No space left on device" in message, message
    _assert_logged_under_its_name(cluster)
    _assert_status_backed_off(cluster, WEAVER)
    # Every memory file is as it was: no fragment, no torn file, no temp file left.
    assert {p: p.read_bytes() for p in broken.memory_dir.rglob("*.md")} == before
    _no_half_written_files(broken.kernel, broken.runtime)
    fault_report.survived("kernel-disk-full")


LEAVING_DAY = "2026-01-09"


def test_kernel_removed_mid_pass_stops_cleanly(
    tmp_path: Path,
    redis_url: str,
    fleet: dict[str, KernelPaths],
    cluster_registry: Registry,
    cluster_factory: Callable[..., Cluster],
    fault_report: FaultReport,
) -> None:
    """The broken kernel's pass is held at a scan of a day only it has; it is removed
    from the registry meanwhile, then let go. The pass's next task fails in one line
    naming the kernel; nothing of it is half-written, its lock is free, and the other
    kernels' passes and commits went on while it was held and after."""
    fault_report.injected("kernel-removed-mid-pass")
    leaving = fleet[BROKEN]
    add_banded_day(leaving, LEAVING_DAY, range(3, 4), per_hour=2)
    flag = tmp_path / "release-scan"
    # Two scan processes: the held scan keeps one, the healthy kernels' scans use the other.
    cluster, app = _start(
        tmp_path, cluster_factory, scan=2,
        SUBCON_TEST_PAUSE=f"scan:{flag}", SUBCON_TEST_PAUSE_MATCH=LEAVING_DAY.replace("-", ""),
    )  # fmt: skip
    board = leaving.board.read_bytes()
    heads = {name: _head(paths) for name, paths in fleet.items()}

    app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=WAIT_S)
    reached = flag.with_name(flag.name + ".reached")
    wait_until(reached.is_file, WAIT_S, "the leaving kernel's scan to be held")
    _wait_healthy(fleet, 1, heads)  # the others' passes and commits go on meanwhile

    cluster_registry.remove(BROKEN)
    flag.write_text("go\n", encoding="utf-8")

    def stopped() -> list[dict[str, Any]]:
        return [m for m in _failures(redis_url) if m["name"] == routing.CRYSTALLIZE]

    failed = wait_until(stopped, WAIT_S, "the leaving kernel's pass to stop")
    for meta in failed:
        message = _message(meta)
        assert "\n" not in message and f"no kernel named '{BROKEN}'" in message, message
    _assert_logged_under_its_name(cluster)
    # Stopped cleanly: no fragment of the held day, the board as it was, no temp file,
    # only allowlisted files dirty, and the kernel lock free.
    assert not (leaving.fragments_dir / LEAVING_DAY).exists()
    assert leaving.board.read_bytes() == board
    _no_half_written_files(leaving.kernel, leaving.runtime)
    dirty = run_git(leaving.kernel, "status", "--porcelain", "-uall").stdout.splitlines()
    assert all(classify(line[3:]) is not None for line in dirty), dirty
    lock = open_kernel_lock(settings_for(leaving, {}, broker_url=redis_url), leaving)
    assert lock.holder() is None
    # The run stays started, not finished: no error callback may write to a kernel the
    # cluster no longer serves.
    state = read_state(leaving, WEAVER)
    assert state.last_run_tick == 1 and state.last_finished_at is None, state

    # The others go on: a tick by hand runs their passes and commits again, and beat's
    # tick no longer sends one to the removed kernel.
    heads = {name: _head(paths) for name, paths in fleet.items()}
    ticked = _tick_by_hand(app, list(HEALTHY))
    assert all(ticked[name]["tick"] == 2 for name in HEALTHY), ticked
    _wait_healthy(fleet, 2, heads)
    report = app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=WAIT_S)
    assert sorted(report["fanned_out"]) == sorted(HEALTHY)
    fault_report.survived("kernel-removed-mid-pass")
