"""Worker crashes: SIGKILL a scan worker mid-band, the kernel worker mid-crystallize and
mid-update, the committer between staging and committing. The pass is redelivered and
ends byte-identical to a clean run; nothing partial is ever visible; git stays sound."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from shared.kernel.git import run_git
from shared.kernel.lock.redis_lock import RedisKernelLock, kernel_id
from shared.kernel.paths import KernelPaths
from testing.cluster import Cluster, committer_cmd, committer_env
from testing.gitrepo import BAD_LINE as REJECTED
from testing.gitrepo import DOSSIER
from testing.kernels import copy_roots, fragment_ids, tree_bytes
from testing.waiting import wait_until
from tests.faults.harness import (
    DAY,
    PASS_ENV,
    SCAN_GAP,
    WEAVER,
    FaultReport,
    audit_into,
    clean_reference,
    inbox_names,
    prepared_kernel,
    read_pid,
    seed_repo,
    sigkill,
)
from workers.app import make_app
from workers.canvas import dispatch_weaver

pytestmark = pytest.mark.integration


def test_scan_worker_killed_mid_band_is_redelivered(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], fault_report: FaultReport
) -> None:
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "dist")
    flag = tmp_path / "scan-go"
    cluster = cluster_factory(
        paths,
        **PASS_ENV,
        SUBCON_TEST_PAUSE=f"scan:{flag}",
        SUBCON_TEST_PAUSE_MATCH="20260107[06,06]",
    )
    cluster.worker("scan", "scan", 2)
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["scan", "kernel"])
    result = dispatch_weaver(make_app(cluster.settings), commit=False)

    pid = read_pid(flag.with_name("scan-go.reached"))
    # Mid-band: the pass is not settled, so the Stage-1 item is still on disk.
    assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
    assert not (paths.fragments_dir / DAY).exists()
    fault_report.injected("scan-worker-sigkill")
    sigkill(pid)
    flag.write_text("go\n", encoding="utf-8")
    report = result.get(timeout=120)

    tree = tree_bytes(paths.memory_dir)
    assert report["text"] == clean["report"]["text"]
    assert tree == clean["tree"]
    ids = fragment_ids(tree)
    assert ids and len(ids) == len(set(ids))
    assert SCAN_GAP not in inbox_names(paths)
    log = (cluster.logdir / "scan.log").read_text(errors="replace")
    assert "signal 9" in log or "WorkerLostError" in log
    fault_report.items(checked=1, lost=0 if SCAN_GAP in report["acked"] else 1)
    fault_report.survived("scan-worker-sigkill")


@pytest.mark.parametrize(
    ("stage", "match"),
    [
        ("crystallize", "memory/effectiveness/lesson-chinese-reply-language.md"),
        ("update", "memory/CLAUDE.md"),
    ],
)
def test_kernel_worker_killed_mid_stage_rerun_is_byte_identical(
    stage: str,
    match: str,
    tmp_path: Path,
    cluster_factory: Callable[..., Cluster],
    fault_report: FaultReport,
) -> None:
    base = prepared_kernel(tmp_path / "base")
    before = tree_bytes(base.memory_dir)
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    # The stage really writes the file the pause point names.
    assert clean["tree"][match.removeprefix("memory/")] != before.get(match.removeprefix("memory/"))
    paths = copy_roots(base, tmp_path / "dist")
    flag = tmp_path / "write-go"
    cluster = cluster_factory(
        paths, **PASS_ENV, SUBCON_TEST_PAUSE=f"write:{flag}", SUBCON_TEST_PAUSE_MATCH=match
    )
    cluster.worker("scan", "scan", 2)
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["scan", "kernel"])
    result = dispatch_weaver(make_app(cluster.settings), commit=False)

    pid = read_pid(flag.with_name("write-go.reached"))
    # Frozen mid-stage: every visible file is either as before or as the clean run
    # wrote it; the only other files are complete, hidden, git-ignored temp files.
    during = tree_bytes(paths.memory_dir)
    temps = [name for name in during if Path(name).name.startswith(".") and name.endswith(".tmp")]
    assert temps, "the pause point sits between the temp write and the rename"
    for name, data in during.items():
        if name in temps:
            assert data == clean["tree"][match.removeprefix("memory/")]
            continue
        assert data in (before.get(name), clean["tree"].get(name)), name
    assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
    fault_report.injected(f"kernel-worker-sigkill-{stage}")
    sigkill(pid)
    flag.write_text("go\n", encoding="utf-8")
    report = result.get(timeout=120)

    # The rerun may count the killed attempt's fragments as "prior" (they are on disk
    # by then: count discipline), so compare the outcome, not the wording.
    assert report["status"] == clean["report"]["status"]
    assert report["acked"] == clean["report"]["acked"]
    after = tree_bytes(paths.memory_dir)
    leftovers = sorted(set(after) - set(clean["tree"]))
    assert after == clean["tree"], f"differs from a clean run; extra files: {leftovers}"
    assert inbox_names(paths) == clean["inbox"]
    # the temp file of the killed writer never shows up for git
    status = run_git(paths.kernel, "status", "--porcelain", "-uall").stdout
    assert ".tmp" not in status
    fault_report.items(checked=1, lost=0 if SCAN_GAP in report["acked"] else 1)
    fault_report.survived(f"kernel-worker-sigkill-{stage}")


def test_whole_kernel_worker_killed_next_pass_completes(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], fault_report: FaultReport
) -> None:
    """The worker's main process dies with its pool (a host or container going away):
    its unacked message stays invisible until the broker's visibility timeout, so the
    next tick's pass, planned afresh from disk, must finish the work."""
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "dist")
    flag = tmp_path / "write-go"
    cluster = cluster_factory(
        paths,
        **PASS_ENV,
        SUBCON_TEST_PAUSE=f"write:{flag}",
        SUBCON_TEST_PAUSE_MATCH="memory/effectiveness/lesson-chinese-reply-language.md",
    )
    cluster.worker("scan", "scan", 2)
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["scan", "kernel"])
    app = make_app(cluster.settings)
    dispatch_weaver(app, commit=False)
    read_pid(flag.with_name("write-go.reached"))
    main = next(proc for name, proc in cluster.procs if name == "kernel")
    fault_report.injected("kernel-worker-host-death")
    os.killpg(main.pid, signal.SIGKILL)
    main.wait(10)
    flag.write_text("go\n", encoding="utf-8")
    cluster.stop("kernel")
    # nothing was acked: the Stage-1 item is still there for the next pass
    assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
    cluster.worker("kernel-2", "kernel", 1)
    cluster.wait_ready(["kernel-2"])
    report = dispatch_weaver(app, commit=False).get(timeout=120)

    assert report["status"] == clean["report"]["status"]
    assert SCAN_GAP in report["acked"]
    assert tree_bytes(paths.memory_dir) == clean["tree"]
    assert inbox_names(paths) == clean["inbox"]
    fault_report.items(checked=1, lost=0)
    fault_report.survived("kernel-worker-host-death")


def test_whole_kernel_worker_killed_message_redelivered_after_visibility_timeout(
    tmp_path: Path, cluster_factory: Callable[..., Cluster], fault_report: FaultReport
) -> None:
    """The same death, with a short broker visibility timeout: the dead worker's unacked
    crystallize message is restored by the broker and the original pass completes."""
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "dist")
    flag = tmp_path / "write-go"
    cluster = cluster_factory(
        paths,
        **PASS_ENV,
        SUBCON_VISIBILITY_TIMEOUT_SECONDS="3",
        SUBCON_TEST_PAUSE=f"write:{flag}",
        SUBCON_TEST_PAUSE_MATCH="memory/effectiveness/lesson-chinese-reply-language.md",
    )
    cluster.worker("scan", "scan", 2)
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["scan", "kernel"])
    result = dispatch_weaver(make_app(cluster.settings), commit=False)
    read_pid(flag.with_name("write-go.reached"))
    main = next(proc for name, proc in cluster.procs if name == "kernel")
    fault_report.injected("kernel-worker-host-death-redelivered")
    os.killpg(main.pid, signal.SIGKILL)
    main.wait(10)
    flag.write_text("go\n", encoding="utf-8")
    cluster.stop("kernel")
    assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
    cluster.worker("kernel-2", "kernel", 1)
    report = result.get(timeout=90)  # the original pass, not a new one

    assert report["status"] == clean["report"]["status"]
    assert SCAN_GAP in report["acked"]
    assert tree_bytes(paths.memory_dir) == clean["tree"]
    assert inbox_names(paths) == clean["inbox"]
    log = (cluster.logdir / "kernel-2.log").read_text(errors="replace")
    assert "subcon.memory-weaver.crystallize[" in log  # redelivered to the new worker
    fault_report.items(checked=1, lost=0)
    fault_report.survived("kernel-worker-host-death-redelivered")


def test_committer_killed_between_staging_and_commit(
    paths: KernelPaths, redis_url: str, tmp_path: Path, fault_report: FaultReport
) -> None:
    k = paths.kernel
    seed_repo(paths)
    before = run_git(k, "rev-parse", "HEAD").stdout.strip()
    # one clean dossier, one board edit carrying a rejected line, one path outside the
    # allowlist, and one fragment (git-ignored)
    (k / "memory/entities/beta.md").write_text(DOSSIER.replace("Acme", "Beta"), encoding="utf-8")
    with open(k / "memory/CLAUDE.md", "a", encoding="utf-8") as handle:
        handle.write(REJECTED)
    (k / "notes").mkdir()
    (k / "notes/outside.md").write_text("# not memory\n", encoding="utf-8")
    (k / "memory/fragments/2026-01-07").mkdir(parents=True)
    (k / "memory/fragments/2026-01-07/f.md").write_text("---\n---\n", encoding="utf-8")
    flag = tmp_path / "commit-go"
    proc = subprocess.Popen(
        committer_cmd(paths),
        env=committer_env(
            redis_url,
            SUBCON_TEST_PAUSE_AFTER_STAGE=str(flag),
            SUBCON_LOCK_TTL_SECONDS="0.5",
        ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(flag.with_name("commit-go.reached").is_file, 60, "the committer to stage")
        fault_report.injected("committer-sigkill-staged")
        sigkill(proc.pid)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert run_git(k, "rev-parse", "HEAD").stdout.strip() == before
    run_git(k, "fsck", "--strict")
    # the dead holder's lease runs out (its renewals died with it)
    lock = RedisKernelLock(redis.Redis.from_url(redis_url), kernel_id(k), ttl=0.5)
    wait_until(lambda: lock.holder() is None, 10, "the killed committer's lease to expire")

    rerun = subprocess.run(
        committer_cmd(paths), env=committer_env(redis_url), capture_output=True, timeout=60
    )
    report = json.loads(rerun.stdout)
    assert report["outcome"] == "committed", rerun.stderr
    assert report["files"] == ["memory/entities/beta.md"]
    run_git(k, "fsck", "--strict")
    assert not list((k / ".git").glob("subcon-commit-*"))
    status = run_git(k, "status", "--porcelain", "-uall").stdout
    assert " M memory/CLAUDE.md" in status and "?? notes/outside.md" in status
    bad_lines, bad_paths = audit_into(fault_report, k, [REJECTED])
    assert (bad_lines, bad_paths) == (0, 0)
    fault_report.survived("committer-sigkill-staged")


def test_embedded_weave_killed_mid_write_then_rerun(
    tmp_path: Path, fault_report: FaultReport
) -> None:
    """Embedded mode (no broker, file lock): ``subcon weave`` SIGKILLed mid-crystallize;
    the OS drops its flock, and the next ``subcon weave`` ends where a clean run does."""
    base = prepared_kernel(tmp_path / "base")
    clean = clean_reference(base, tmp_path / "clean", PASS_ENV)
    paths = copy_roots(base, tmp_path / "embedded")
    flag = tmp_path / "write-go"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    env.update(PASS_ENV)
    cmd = [sys.executable, "-m", "workers", "--kernel", str(paths.kernel), "--runtime",
           str(paths.runtime), "weave", "--no-commit", "--json"]  # fmt: skip
    proc = subprocess.Popen(
        cmd,
        env={
            **env,
            "SUBCON_TEST_PAUSE": f"write:{flag}",
            "SUBCON_TEST_PAUSE_MATCH": "memory/effectiveness/lesson-chinese-reply-language.md",
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert read_pid(flag.with_name("write-go.reached")) == proc.pid
        fault_report.injected("embedded-weave-sigkill")
        sigkill(proc.pid)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (paths.inbox_dir(WEAVER) / SCAN_GAP).is_file()
    rerun = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    report = json.loads(rerun.stdout)
    assert report["status"] == clean["report"]["status"]
    assert tree_bytes(paths.memory_dir) == clean["tree"]
    assert inbox_names(paths) == clean["inbox"]
    fault_report.items(checked=1, lost=0 if SCAN_GAP in report["acked"] else 1)
    fault_report.survived("embedded-weave-sigkill")
