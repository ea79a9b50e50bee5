"""Duplicates and races: one scan task delivered twice at once, two committers on one
kernel, an operator's enqueue racing the pass that acks the same item, a writer
editing a file while the committer reviews it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import write_item
from shared.settings import Settings
from testing.cluster import Cluster, committer_cmd, committer_env
from testing.gitrepo import BAD_LINE as REJECTED
from testing.gitrepo import DOSSIER
from testing.kernels import copy_roots, tree_bytes
from testing.waiting import wait_until
from tests.faults.harness import (
    PASS_ENV,
    SCAN_GAP,
    WEAVER,
    FaultReport,
    audit_into,
    clean_reference,
    inbox_names,
    prepared_kernel,
    seed_repo,
)
from workers import routing
from workers.app import make_app
from workers.canvas import dispatch_weaver

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def test_same_scan_task_delivered_twice_at_once(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], fault_report: FaultReport
) -> None:
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "dist")
    cluster = cluster_factory(paths, **PASS_ENV)
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["kernel"])
    result = dispatch_weaver(make_app(cluster.settings), commit=False)
    # No scan worker yet: the chord header waits in the `scan` list. Put a second copy
    # of every message right next to the first, then let two processes consume them.
    client = redis.Redis.from_url(cluster.redis_url)
    wait_until(lambda: client.llen("scan") > 0, 30, "the scan messages")
    messages = client.lrange("scan", 0, -1)
    ids = [json.loads(m)["headers"]["id"] for m in messages]
    pipe = client.pipeline(transaction=True)
    pipe.delete("scan")
    for message in reversed(messages):
        pipe.lpush("scan", message, message)
    pipe.execute()
    assert client.llen("scan") == 2 * len(messages)
    fault_report.injected("duplicate-scan-delivery")
    cluster.worker("scan", "scan", 2)
    report = result.get(timeout=120)

    assert report["text"] == clean["report"]["text"]
    assert tree_bytes(paths.memory_dir) == clean["tree"]
    assert inbox_names(paths) == clean["inbox"]
    log = (cluster.logdir / "scan.log").read_text(errors="replace")
    for task_id in ids:
        assert len(re.findall(rf"scan\[{task_id}\] received", log)) == 2, task_id
    fault_report.tried("duplicate-scan-messages", len(ids))
    fault_report.survived("duplicate-scan-delivery")


def test_two_commit_workers_on_one_kernel_serialise(
    paths: KernelPaths,
    redis_url: str,
    cluster_factory: Callable[..., Cluster],
    fault_report: FaultReport,
) -> None:
    k = paths.kernel
    seed_repo(paths)
    before = run_git(k, "rev-parse", "HEAD").stdout.strip()
    for i in range(20):
        (k / f"memory/entities/e{i:02d}.md").write_text(
            DOSSIER.replace("Acme", f"E{i}"), encoding="utf-8"
        )
    with open(k / "memory/CLAUDE.md", "a", encoding="utf-8") as handle:
        handle.write(REJECTED)
    (k / "notes").mkdir()
    (k / "notes/outside.md").write_text("# outside\n", encoding="utf-8")
    cluster = cluster_factory(paths)
    # misconfigured on purpose: two consumers of the commit queue
    cluster.worker("commit1", "commit", 1)
    cluster.worker("commit2", "commit", 1)
    cluster.wait_ready(["commit1", "commit2"])
    app = make_app(cluster.settings)
    fault_report.injected("two-committers")
    results = [app.send_task(routing.COMMIT, queue="commit") for _ in range(6)]
    reports = [r.get(timeout=120) for r in results]

    committed = [r for r in reports if r["outcome"] == "committed"]
    assert len(committed) == 1, [r["text"] for r in reports]
    assert len(committed[0]["files"]) == 20
    for r in reports:
        if r is not committed[0]:
            assert r["text"].startswith("NO_NEW_GRADIENT"), r["text"]
    assert run_git(k, "rev-list", "--count", f"{before}..HEAD").stdout.strip() == "1"
    run_git(k, "fsck", "--strict")
    assert not (k / ".git/index.lock").exists()
    status = run_git(k, "status", "--porcelain", "-uall").stdout
    assert status.splitlines() == [" M memory/CLAUDE.md", "?? notes/outside.md"]
    # both consumers really ran committer wakes against the one kernel
    for name in ("commit1", "commit2"):
        log = (cluster.logdir / f"{name}.log").read_text(errors="replace")
        assert "subcon.memory-committer.commit[" in log, name
    assert audit_into(fault_report, k, [REJECTED]) == (0, 0)
    fault_report.survived("two-committers")


def subcon(paths: KernelPaths, redis_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    env["SUBCON_BROKER_URL"] = redis_url
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "workers",
            "--kernel",
            str(paths.kernel),
            "--runtime",
            str(paths.runtime),
            *args,
        ],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_enqueue_racing_the_pass_that_acks_the_same_item(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], fault_report: FaultReport
) -> None:
    paths = prepared_kernel(tmp_path / "k")
    first = "[orphan-islands]\nscope: topics\nislands: first version\n"
    write_item(paths, WEAVER, "a-operator.pending", first)
    flag = tmp_path / "scan-go"
    cluster = cluster_factory(paths, **PASS_ENV, SUBCON_TEST_PAUSE=f"scan:{flag}")
    cluster.worker("scan", "scan", 2)
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["scan", "kernel"])
    app = make_app(cluster.settings)
    # pass 1 plans with the first version of a-operator.pending, then stalls mid-scan
    pass1 = dispatch_weaver(app, commit=False)
    wait_until(flag.with_name("scan-go.reached").is_file, 60, "pass 1 to be mid-scan")
    fault_report.injected("enqueue-vs-ack-race")

    # the operator, meanwhile: replace that item, add another, and try a clash
    refused = subcon(
        paths, cluster.redis_url, "enqueue", "--partition", WEAVER, "--name",
        "a-operator.pending", "[orphan-islands] clash",
    )  # fmt: skip
    assert refused.returncode == 2 and "already exists" in refused.stderr
    replaced = subcon(
        paths, cluster.redis_url, "enqueue", "--partition", WEAVER, "--name",
        "a-operator.pending", "--replace", "[orphan-islands]\nislands: second version",
    )  # fmt: skip
    added = subcon(
        paths, cluster.redis_url, "enqueue", "--partition", WEAVER,
        "[orphan-islands]\nislands: a new item",
    )  # fmt: skip
    assert replaced.returncode == 0 and added.returncode == 0, (replaced.stderr, added.stderr)
    new_name = Path(added.stderr.split("wrote ", 1)[1].split()[0]).name
    flag.write_text("go\n", encoding="utf-8")

    reports: list[dict[str, Any]] = [pass1.get(timeout=120)]
    for out in (replaced.stdout, added.stdout):
        task_id = out.strip().splitlines()[-1]
        reports.append(app.AsyncResult(task_id).get(timeout=120))

    # every version the operator submitted was settled by a pass that planned it
    settled = [r["directed"] for r in reports]
    assert [d["name"] for d in settled] == ["a-operator.pending", "a-operator.pending", new_name]
    assert all(d["terminal"] for d in settled), settled
    remaining = inbox_names(paths)
    submitted = 3
    lost = submitted - sum(1 for d in settled if d["terminal"])
    lost -= sum(1 for n in ("a-operator.pending", new_name) if n in remaining)
    fault_report.items(checked=submitted, lost=max(lost, 0))
    assert lost <= 0
    assert SCAN_GAP not in remaining
    fault_report.survived("enqueue-vs-ack-race")


def test_file_edited_while_the_committer_reviews_it(
    paths: KernelPaths, redis_url: str, tmp_path: Path, fault_report: FaultReport
) -> None:
    k = paths.kernel
    seed_repo(paths)
    reviewed = DOSSIER.replace("Acme", "Beta")
    target = k / "memory/entities/beta.md"
    target.write_text(reviewed, encoding="utf-8")
    flag = tmp_path / "review-go"
    proc = subprocess.Popen(
        committer_cmd(paths),
        env=committer_env(redis_url, SUBCON_TEST_PAUSE_AFTER_STAGE=str(flag)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until(flag.with_name("review-go.reached").is_file, 60, "the committer to review")
        # a writer (not holding the kernel lock, e.g. a human editor) adds a bad line
        fault_report.injected("edit-during-review")
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(REJECTED)
        flag.write_text("go\n", encoding="utf-8")
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    report = json.loads(out)
    shown = run_git(k, "show", "HEAD:memory/entities/beta.md", check=False)
    if report["outcome"] == "committed" and "memory/entities/beta.md" in report["files"]:
        assert shown.stdout == reviewed  # the reviewed bytes, not the edited ones
    else:
        assert shown.returncode != 0  # held back
    # the edit is still in the work tree, dirty, for the next wake to review
    assert target.read_text(encoding="utf-8") == reviewed + REJECTED
    assert "memory/entities/beta.md" in run_git(k, "status", "--porcelain").stdout
    again = subprocess.run(
        committer_cmd(paths), env=committer_env(redis_url), capture_output=True, timeout=60
    )
    second = json.loads(again.stdout)
    assert second["outcome"] == "no_new_gradient", err
    assert any("memory/entities/beta.md" in d["file"] for d in second["rejected"])
    run_git(k, "fsck", "--strict")
    assert audit_into(fault_report, k, [REJECTED]) == (0, 0)
    fault_report.survived("edit-during-review")


def test_item_replaced_mid_pass_is_not_acked_unseen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault_report: FaultReport
) -> None:
    """A pass planned with version 1 of an item must not delete version 2, written while
    it ran by a producer that dispatched nothing (an operator whose dispatch failed, a
    hand edit): the new body would be lost unread."""
    import threading

    from workers.embedded import run_partition

    paths = prepared_kernel(tmp_path / "k")
    name = "a-operator.pending"
    write_item(paths, WEAVER, name, "[orphan-islands]\nislands: first version\n")
    flag = tmp_path / "go"
    monkeypatch.setenv("SUBCON_TEST_PAUSE", f"scan:{flag}")
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["report"] = run_partition(settings, WEAVER, commit=False)
        except BaseException as exc:  # pragma: no cover - surfaced below
            out["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()
    try:
        wait_until(flag.with_name("go.reached").is_file, 60, "the pass to be mid-scan")
        fault_report.injected("item-replaced-mid-pass")
        second = "[orphan-islands]\nislands: second version\n"
        write_item(paths, WEAVER, name, second, replace=True)
    finally:
        flag.write_text("go\n", encoding="utf-8")
        worker.join(120)
    assert "error" not in out, out.get("error")
    report = out["report"]
    assert report["directed"]["name"] == name  # it settled version 1 ...
    on_disk = paths.inbox_dir(WEAVER) / name
    lost = 0 if on_disk.is_file() and on_disk.read_text(encoding="utf-8") == second else 1
    fault_report.items(checked=2, lost=lost)
    assert not lost, "version 2 was deleted by the pass that only read version 1"
    assert name not in report["acked"]
    fault_report.survived("item-replaced-mid-pass")


def test_ack_with_expected_body_deletes_only_what_was_read(
    paths: KernelPaths, fault_report: FaultReport
) -> None:
    from shared.partitions.inbox import ack_item, list_items

    fault_report.tried("ack-expect", 3)
    write_item(paths, WEAVER, "same.pending", "[sink] body one\n")
    write_item(paths, WEAVER, "changed.pending", "[sink] body two\n")
    assert ack_item(paths, WEAVER, "same.pending", expect="[sink] body one") is True
    assert ack_item(paths, WEAVER, "changed.pending", expect="[sink] an older body") is False
    assert ack_item(paths, WEAVER, "gone.pending", expect="x") is False
    items = list_items(paths, WEAVER)
    assert [(i.name, i.body) for i in items] == [("changed.pending", "[sink] body two")]
    # nothing hidden is left behind by the compare step
    assert sorted(p.name for p in paths.inbox_dir(WEAVER).iterdir()) == ["changed.pending"]


def test_two_passes_over_the_same_gap_at_once(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], fault_report: FaultReport
) -> None:
    """A tick's pass and an operator's pass plan the same scan-gap interval and run
    side by side: the kernel lock serialises their writes and both are idempotent."""
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "dist")
    cluster = cluster_factory(paths, **PASS_ENV)
    cluster.worker("scan", "scan", 2)
    cluster.worker("kernel", "kernel", 2)
    cluster.wait_ready(["scan", "kernel"])
    app = make_app(cluster.settings)
    fault_report.injected("concurrent-passes")
    first, second = (dispatch_weaver(app, commit=False) for _ in range(2))
    reports = [first.get(timeout=120), second.get(timeout=120)]

    # Same fragments, board, dossiers. An effectiveness file may show the board line as
    # the second pass found it (already rewritten by the first pass's update), so its
    # snapshot of the line is compared apart from its evidence.
    def without_line_snapshot(tree: dict[str, bytes]) -> dict[str, bytes]:
        out = {}
        for name, data in tree.items():
            if name.startswith("effectiveness/"):
                kept = [
                    line
                    for line in data.split(b"\n")
                    if not line.startswith((b"line_hash:", b"Current line:"))
                ]
                data = b"\n".join(kept)
            out[name] = data
        return out

    assert without_line_snapshot(tree_bytes(paths.memory_dir)) == without_line_snapshot(
        clean["tree"]
    )
    assert inbox_names(paths) == clean["inbox"]
    # exactly one of them acked the Stage-1 item; neither failed
    assert sum(SCAN_GAP in r["acked"] for r in reports) == 1
    assert all(r["status"] in ("UPDATED:", "NO_NEW_GRADIENT:") for r in reports)
    fault_report.items(checked=1, lost=0)
    fault_report.survived("concurrent-passes")
