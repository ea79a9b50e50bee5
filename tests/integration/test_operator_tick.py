"""Manual ticks and passes through a real broker: real redis-server, real Celery workers.

A manual ``subcon tick`` always runs (the duplicate guard is for beat), and the command
waits for the runs it started and prints their reports; ``weave`` says what its commit
request became.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from shared.kernel.git import run_git
from testing.cluster import REPO, Cluster
from testing.kernels import make_demo
from workers import routing
from workers.app import make_app

pytestmark = pytest.mark.integration


def _subcon(cluster: Cluster, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workers", *args],
        cwd=REPO,
        env=cluster.env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def _head(kernel: Path) -> str:
    return run_git(kernel, "rev-parse", "HEAD").stdout.strip()


def test_manual_ticks_run_and_print_their_reports(
    tmp_path: Path, cluster_factory: Callable[..., Cluster]
) -> None:
    paths = make_demo(tmp_path / "demo")
    cluster = cluster_factory(paths, SUBCON_TICK_SECONDS="600")
    cluster.worker("scan", "scan", 1)
    cluster.worker("kernel", "kernel", 1)
    cluster.commit_worker()
    cluster.wait_ready(["scan", "kernel", "commit"])

    first = _subcon(cluster, "tick")
    assert first.returncode == 0, first.stderr + cluster.logs()
    out = first.stdout
    assert out.startswith("tick 1 (manual)\n"), out
    assert "dispatched as task" not in out  # every run's report was waited for
    assert re.search(r"^  memory-weaver: (UPDATED|NO_NEW_GRADIENT|NO-OP):", out, re.M), out
    assert re.search(r"^  memory-committer: (Committed: |NO_NEW_GRADIENT)", out, re.M), out
    assert re.search(r"^    board: ", out, re.M)
    commit = re.search(r"^    commit: (.*)$", out, re.M)
    assert commit is not None and "not waited for" not in commit.group(1), out

    # a second manual tick within half a period is not dropped as a duplicate
    second = _subcon(cluster, "tick", "--json")
    assert second.returncode == 0, second.stderr
    assert '"tick": 2' in second.stdout and "duplicate" not in second.stdout
    assert '"manual": true' in second.stdout

    # the guard still drops a second beat tick (no manual flag) within half a period
    app = make_app(cluster.settings)
    beat_one = app.tasks[routing.TICK].apply_async().get(timeout=120)
    beat_two = app.tasks[routing.TICK].apply_async().get(timeout=120)
    assert beat_one["tick"] == 3 and beat_one["manual"] is False
    assert beat_two["tick"] is None and "duplicate" in beat_two["skipped"]

    no_wait = _subcon(cluster, "tick", "--no-wait")
    assert no_wait.returncode == 0
    assert re.fullmatch(r"[0-9a-f-]{36}\n", no_wait.stdout)


def test_distributed_weave_reports_its_commit(
    tmp_path: Path, cluster_factory: Callable[..., Cluster]
) -> None:
    paths = make_demo(tmp_path / "demo")
    cluster = cluster_factory(paths)
    cluster.worker("kernel", "kernel", 1)
    cluster.commit_worker()
    cluster.wait_ready(["kernel", "commit"])
    before = _head(paths.kernel)
    weave = _subcon(cluster, "weave")
    assert weave.returncode == 0, weave.stderr + cluster.logs()
    lines = weave.stdout.splitlines()
    assert lines[0] == "NO_NEW_GRADIENT: no external evidence changed memory."
    after = _head(paths.kernel)
    assert after != before  # the demo's uncommitted dossier edit
    assert lines[-1].startswith(f"commit: made {after} ("), weave.stdout
    quiet = _subcon(cluster, "weave", "--no-commit")
    assert quiet.stdout.splitlines()[-1].startswith("commit: not requested (--no-commit)")
