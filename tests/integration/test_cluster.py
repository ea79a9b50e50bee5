"""(b) cadence, (c) Flower and (d) enqueue on one running cluster: redis-server, scan,
kernel and commit workers, beat with a one-second tick, Flower on loopback.

The tests share the cluster (module scope) and run in file order: (b) drives the
cadence, (c) reads what Flower saw of it, (d) enqueues by hand.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from shared.cadence.ticks import read_mirror
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.partitions.state import read_state
from testing.cluster import REPO, Cluster
from testing.kernels import make_demo
from testing.redis_server import free_port
from testing.waiting import wait_until

pytestmark = pytest.mark.integration

WEAVER = "memory-weaver"
COMMITTER = "memory-committer"
FLOWER_AUTH = ("subcon", "s3cret-for-tests")


def set_schedule(paths: KernelPaths, name: str, key: str, value: str) -> None:
    prompt = paths.partition_prompt(name)
    text = prompt.read_text(encoding="utf-8")
    text, count = re.subn(rf"(?m)^(\s+{key}:).*$", rf"\g<1> {value}", text, count=1)
    assert count == 1, f"{key} not in {prompt}"
    # write-then-rename: a tick never reads a half-written front matter
    tmp = prompt.with_name(".CLAUDE.md.edit.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, prompt)


@dataclass
class Running:
    cluster: Cluster
    paths: KernelPaths
    flower_port: int
    runs: dict[str, set[int]] = field(default_factory=lambda: {WEAVER: set(), COMMITTER: set()})

    def sample(self) -> int:
        """Record every partition's last_run_tick now; return the current tick."""
        for name, seen in self.runs.items():
            tick = read_state(self.paths, name).last_run_tick
            if tick is not None:
                seen.add(tick)
        return read_mirror(self.paths)

    def watch(self, until: Any, timeout: float, what: str) -> Any:
        def probe() -> Any:
            self.sample()
            return until()

        return wait_until(probe, timeout, what, poll=0.05)

    def finished(self, name: str) -> bool:
        state = read_state(self.paths, name)
        return bool(
            state.last_finished_at
            and state.last_started_at
            and state.last_finished_at >= state.last_started_at
        )


@pytest.fixture(scope="module")
def running(redis_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    redis_server.flush()
    root = tmp_path_factory.mktemp("cluster")
    paths = make_demo(root)
    # The demo leaves deliberately rejectable lines on the board (they would hold every
    # board change back); this kernel starts from the clean committed board instead.
    run_git(paths.kernel, "checkout", "--", "memory/CLAUDE.md")
    set_schedule(paths, WEAVER, "cooldown_ticks", "1")
    set_schedule(paths, COMMITTER, "cooldown_ticks", "1")
    logdir = root / "logs"
    logdir.mkdir()
    cluster = Cluster(paths, redis_server.url, logdir, {"SUBCON_TICK_SECONDS": "1"})
    port = free_port()
    try:
        cluster.worker("scan", "scan", 2)
        cluster.worker("kernel", "kernel", 2)
        cluster.commit_worker()
        cluster.spawn(
            "flower",
            [
                "flower",
                "--address=127.0.0.1",
                f"--port={port}",
                f"--basic-auth={FLOWER_AUTH[0]}:{FLOWER_AUTH[1]}",
            ],
        )
        cluster.wait_ready(["scan", "kernel", "commit"])
        wait_until(lambda: _flower(port, "/api/workers") is not None, 60, "flower")
        cluster.beat("beat1")
        beat1 = logdir / "beat1.log"
        wait_until(
            lambda: "beat: Acquired lock" in beat1.read_text(errors="replace"),
            60,
            "the first beat to hold RedBeat's lock",
        )
        yield Running(cluster, paths, port)
    finally:
        cluster.stop()


def _flower(port: int, path: str) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    token = base64.b64encode(f"{FLOWER_AUTH[0]}:{FLOWER_AUTH[1]}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return json.loads(response.read())
    except OSError:
        return None


def _commits(paths: KernelPaths) -> list[str]:
    out = run_git(paths.kernel, "log", "--format=%H%x00%B%x01").stdout
    return [c.strip() for c in out.split("\x01") if c.strip()]


ALLOWLISTED = ("memory/CLAUDE.md", "memory/topics/", "memory/entities/")


def _weaver_changes(paths: KernelPaths) -> set[str]:
    changed: set[str] = set()
    for log in paths.weaver_report_dir.glob("*.jsonl"):
        for line in log.read_text(encoding="utf-8").splitlines():
            changed.update(json.loads(line).get("changed") or [])
    return {c for c in changed if c.startswith(ALLOWLISTED)}


def _weaver_change_committed(paths: KernelPaths) -> str | None:
    """An allowlisted file the weaver changed that is now committed (clean, in the log)."""
    root = run_git(paths.kernel, "rev-list", "--max-parents=0", "HEAD").stdout.strip()
    logged = run_git(paths.kernel, "log", "--name-only", "--format=", f"{root}..HEAD").stdout
    for path in sorted(_weaver_changes(paths)):
        dirty = run_git(paths.kernel, "status", "--porcelain", "--", path).stdout.strip()
        if not dirty and path in logged.split("\n"):
            return path
    return None


def _sends(log: Path) -> int:
    text = log.read_text(errors="replace") if log.exists() else ""
    return text.count("Sending due task")


def test_b_cadence_follows_front_matter_and_commits(running: Running) -> None:
    paths, cluster = running.paths, running.cluster
    cluster.beat("beat2")  # started beside the first: must never fire

    # both partitions complete passes; the weaver's changes reach a commit
    running.watch(
        lambda: len(running.runs[WEAVER]) >= 3 and running.finished(WEAVER),
        120,
        "three weaver runs",
    )
    weaver_state = read_state(paths, WEAVER)
    assert weaver_state.last_result == "success"
    assert (paths.inbox_dir(WEAVER) / "scan-gap.md.pending").exists() or any(
        (paths.fragments_dir).iterdir()
    )
    committed = running.watch(
        lambda: _weaver_change_committed(paths), 90, "a weaver change committed"
    )
    assert committed.startswith("memory/")
    newest = _commits(paths)[0]
    assert "Meta-Tick:" in newest and "Partition: memory-committer" in newest

    # cooldown 1 -> 3 takes effect at the next tick
    before = sorted(running.runs[WEAVER])
    edit_tick = running.sample()
    set_schedule(paths, WEAVER, "cooldown_ticks", "3")
    running.watch(
        lambda: (
            len([t for t in running.runs[WEAVER] if t > edit_tick + 1]) >= 2
            and running.finished(WEAVER)
        ),
        120,
        "two weaver runs after the cooldown edit",
    )
    after = sorted(t for t in running.runs[WEAVER] if t > edit_tick)
    gaps_after = [b - a for a, b in itertools.pairwise(after)]
    assert gaps_after and min(gaps_after) >= 3, (before, after)
    gaps_before = [b - a for a, b in itertools.pairwise(before)]
    assert min(gaps_before) < 3, before

    # enabled: false stops it from the next tick on
    off_tick = running.sample()
    set_schedule(paths, WEAVER, "enabled", "false")
    running.watch(lambda: running.sample() >= off_tick + 5, 60, "five more ticks")
    assert max(running.runs[WEAVER]) <= off_tick + 1
    assert running.runs[COMMITTER] and max(running.runs[COMMITTER]) > off_tick + 1

    # the second beat never sent a tick; the first sent every one that ran
    log1, log2 = cluster.logdir / "beat1.log", cluster.logdir / "beat2.log"
    assert _sends(log2) == 0
    assert _sends(log1) >= 5
    assert read_mirror(paths) <= _sends(log1)


def test_c_flower_sees_every_stage(running: Running) -> None:
    workers = _flower(running.flower_port, "/api/workers?refresh=1") or {}
    commit = next(v for k, v in workers.items() if k.startswith("commit@"))
    assert commit["stats"]["pool"]["max-concurrency"] == 1
    wanted = {
        "subcon.memory-weaver.scan",
        "subcon.memory-weaver.crystallize",
        "subcon.memory-weaver.update",
        "subcon.memory-committer.commit",
    }

    def seen() -> set[str]:
        tasks = _flower(running.flower_port, "/api/tasks") or {}
        return {t.get("name") for t in tasks.values() if t.get("state") == "SUCCESS"}

    found = wait_until(lambda: wanted <= (s := seen()) and s, 60, "tasks in Flower")
    assert wanted <= found
    # Flower refuses requests without the basic-auth credentials
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(f"http://127.0.0.1:{running.flower_port}/api/tasks", timeout=2)
    assert err.value.code == 401


def _subcon(running: Running, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workers", *args],
        cwd=REPO,
        env=running.cluster.env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_d_enqueue_wait_prints_report_and_item_is_acked(running: Running) -> None:
    inbox = running.paths.inbox_dir(WEAVER)
    proc = _subcon(
        running,
        "enqueue",
        "--partition",
        WEAVER,
        "--name",
        "operator-rescan.pending",
        "--wait",
        "please scan 20260103[00,23] again for evidence",
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert re.fullmatch(r"[0-9a-f-]{36}", lines[0])
    assert "operator-rescan.pending" in proc.stdout
    assert lines[1].startswith(("UPDATED:", "NO_NEW_GRADIENT:", "NO-OP:"))
    assert not (inbox / "operator-rescan.pending").exists()

    before = sorted(p.name for p in inbox.iterdir())
    bad = _subcon(running, "enqueue", "--partition", WEAVER, "--name", "bad:name.pending", "x")
    assert bad.returncode == 2
    assert "must not contain ':'" in bad.stderr
    assert sorted(p.name for p in inbox.iterdir()) == before


def test_e_scan_and_weave_commands_run_on_the_workers(running: Running) -> None:
    scan = _subcon(running, "scan", "--from", "2026-01-03", "--to", "2026-01-04")
    assert scan.returncode == 0, scan.stderr
    assert scan.stdout.startswith("scan 20260103[00,23] 20260104[00,23]: ")
    # not a TTY: progress comes as plain lines, ending at 100%
    assert scan.stderr.strip().splitlines()[-1].startswith("scan: 100% (")
    weave = _subcon(running, "weave", "--json", "--no-commit")
    assert weave.returncode == 0, weave.stderr
    report = json.loads(weave.stdout)
    assert report["text"].startswith(("UPDATED:", "NO_NEW_GRADIENT:", "NO-OP:"))


def test_f_expired_run_fails_through_the_errback_as_timeout(running: Running) -> None:
    from dataclasses import replace
    from datetime import UTC, datetime

    from shared.cadence.runs import RunContext
    from shared.partitions.state import write_state
    from workers.app import make_app
    from workers.canvas import dispatch_weaver

    paths = running.paths
    tick = read_mirror(paths)
    run = replace(RunContext.start(WEAVER, tick, 60_000, datetime.now(UTC)), deadline=0.0)
    prev = read_state(paths, WEAVER)
    write_state(paths, WEAVER, replace(prev, last_started_at=run.started_at, last_run_tick=tick))
    result = dispatch_weaver(make_app(running.cluster.settings), run=run)
    with pytest.raises(Exception, match="deadline"):
        result.get(timeout=60)
    state = wait_until(
        lambda: (s := read_state(paths, WEAVER)).last_result == "timeout" and s,
        60,
        "the error callback to record the timeout",
    )
    assert state.last_finished_at is not None and state.last_finished_at >= run.started_at
    assert state.consecutive_failures == prev.consecutive_failures + 1
