"""One cluster, many kernels (issue #31), through a real broker: real redis-server, real
kernel and commit workers, kernels registered in the Redis registry.

Every task message names its kernel (``kernel=<name>``); the workers resolve it when the
task runs. Commits of one kernel never overlap (a committer holds its kernel's lock, a
second one skips), commits of different kernels run side by side on a commit worker of
concurrency 2, and beat's tick fans out one tick per registered kernel.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.kernels.registry import Registry
from testing.cluster import REPO, Cluster
from testing.kernels import make_demo
from workers import routing
from workers.app import make_app

pytestmark = pytest.mark.integration


def _head(paths: KernelPaths) -> str:
    return run_git(paths.kernel, "rev-parse", "HEAD").stdout.strip()


def _wait(what: str, done: Callable[[], bool], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.fixture
def kernels(tmp_path: Path, cluster_registry: Registry) -> dict[str, KernelPaths]:
    """The settings' own demo kernel and two registered ones, each with an uncommitted
    dossier edit for a commit to land."""
    made = {name: make_demo(tmp_path / name) for name in ("default", "blue", "green")}
    for name in ("blue", "green"):
        cluster_registry.add(name, made[name].kernel, made[name].runtime)
    return made


def _task_kwargs(redis_url: str, task_id: str) -> dict[str, Any]:
    """The keyword arguments the result backend recorded for a task (result_extended)."""
    raw = redis.Redis.from_url(redis_url).get(f"celery-task-meta-{task_id}")
    assert raw is not None, task_id
    meta: dict[str, Any] = json.loads(raw)
    kwargs: dict[str, Any] = meta["kwargs"]
    return kwargs


def test_commits_of_one_kernel_never_overlap_and_other_kernels_do_not_wait(
    tmp_path: Path,
    redis_url: str,
    kernels: dict[str, KernelPaths],
    cluster_registry: Registry,
    cluster_factory: Callable[..., Cluster],
) -> None:
    flag = tmp_path / "release-blue"
    blue, green = kernels["blue"], kernels["green"]
    cluster = cluster_factory(
        kernels["default"],
        SUBCON_COMMIT_CONCURRENCY="2",
        SUBCON_TEST_PAUSE=f"commit:{flag}",
        SUBCON_TEST_PAUSE_MATCH=str(blue.kernel.resolve()),
    )
    cluster.commit_worker()
    cluster.wait_ready(["commit"])
    app = make_app(cluster.settings)
    commit = app.tasks[routing.COMMIT]
    heads = {name: _head(paths) for name, paths in kernels.items()}

    # blue's committer stops under blue's lock ...
    first_blue = commit.apply_async(kwargs={"kernel": "blue"})
    reached = flag.with_name(flag.name + ".reached")
    _wait("blue's committer to hold its lock", reached.exists)
    # ... green's commit does not wait for it: it lands while blue's is still held,
    green_report = commit.apply_async(kwargs={"kernel": "green"}).get(timeout=120)
    assert green_report["commit"], green_report
    assert _head(green) != heads["green"] and _head(blue) == heads["blue"]
    assert first_blue.state != "SUCCESS"
    # ... and a second committer of blue skips instead of committing beside the first.
    second_blue = commit.apply_async(kwargs={"kernel": "blue"}).get(timeout=120)
    assert second_blue["commit"] is None, second_blue
    assert "kernel lock held" in str(second_blue["skipped"]), second_blue

    flag.write_text("go\n", encoding="utf-8")
    blue_report = first_blue.get(timeout=120)
    assert blue_report["commit"] and _head(blue) == blue_report["commit"]
    # Each kernel committed its own files, and the settings' kernel was not touched.
    assert _head(kernels["default"]) == heads["default"]
    for name in ("blue", "green"):
        log = run_git(kernels[name].kernel, "log", "--name-only", "--format=", "-1").stdout
        assert log.split() and all(not p.startswith("/") for p in log.split())
    # Each kernel's decisions went to its own audit stream.
    client = redis.Redis.from_url(redis_url)
    for name in ("blue", "green"):
        records: list[tuple[bytes, dict[bytes, bytes]]] = client.xrange(f"subcon:audit:{name}")  # type: ignore[assignment]
        files = {json.loads(f[b"record"])["file"] for _, f in records if b"record" in f}
        assert records, name
        assert files, records[:2]
    # The messages named their kernel (Flower shows and filters the same keyword).
    assert _task_kwargs(redis_url, first_blue.id) == {"kernel": "blue"}


def test_beat_tick_fans_out_to_every_kernel_and_a_removed_kernel_stops_cleanly(
    redis_url: str,
    kernels: dict[str, KernelPaths],
    cluster_registry: Registry,
    cluster_factory: Callable[..., Cluster],
) -> None:
    cluster = cluster_factory(kernels["default"], SUBCON_TICK_SECONDS="600")
    cluster.worker("scan", "scan", 1)
    cluster.worker("kernel", "kernel", 2)
    cluster.commit_worker()
    cluster.wait_ready(["scan", "kernel", "commit"])
    app = make_app(cluster.settings)
    heads = {name: _head(paths) for name, paths in kernels.items()}

    # What beat sends: it ticks the settings' kernel and sends one tick per entry.
    report = app.tasks[routing.TICK].apply_async(kwargs={"fanout": True}).get(timeout=180)
    assert report["tick"] == 1, report
    assert sorted(report["fanned_out"]) == ["blue", "green"]
    # Every kernel's tick ran its passes and its commit: each demo edit landed in its
    # own repository.
    for name, paths in kernels.items():

        def committed(p: KernelPaths = paths, n: str = name) -> bool:
            return _head(p) != heads[n]

        _wait(f"{name}'s tick to commit", committed, 240)

    # An operator's tick for one kernel, through the CLI: the workers tick that kernel
    # (its second tick), the settings' own kernel is left alone.
    proc = subprocess.run(
        [sys.executable, "-m", "workers", "--kernel-name", "green", "tick", "--json"],
        cwd=REPO, env=cluster.env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr + cluster.logs()
    assert json.loads(proc.stdout)["tick"] == 2
    own = app.tasks[routing.TICK].apply_async(kwargs={"manual": True}).get(timeout=180)
    assert own["tick"] == 2  # the default kernel's count: one fanned tick, one manual

    # A kernel removed from the registry: its next task fails in one line, naming it.
    cluster_registry.remove("green")
    failed = app.tasks[routing.COMMIT].apply_async(kwargs={"kernel": "green"})
    with pytest.raises(Exception) as caught:
        failed.get(timeout=120)
    assert "no kernel named 'green'" in str(caught.value)
    # Removing it deleted nothing.
    assert kernels["green"].board.is_file()
