"""Committer processes on one kernel with a real Redis lock: serialised, kill-safe."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import redis

from shared.kernel.lock.redis_lock import RedisKernelLock, kernel_id
from shared.kernel.paths import KernelPaths
from testing.cluster import committer_cmd, committer_env
from testing.gitrepo import DOSSIER, git, head, status, write
from testing.waiting import wait_until


def wait_for(path: Path, timeout: float = 30.0) -> None:
    wait_until(path.exists, timeout, f"{path} to appear", poll=0.02)


def test_two_committers_started_together_serialise(repo: KernelPaths, redis_url: str) -> None:
    k = repo.kernel
    before = head(k)
    for i in range(30):
        write(k, f"memory/entities/e{i:02d}.md", DOSSIER.replace("Acme", f"E{i}"))
    procs = [
        subprocess.Popen(
            committer_cmd(repo),
            env=committer_env(redis_url),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    reports = [json.loads(out) for out, _ in results]
    # A wake that found the lock held exits 3 (README: kernel-lock failure), else 0.
    expected = [3 if r["skip_kind"] == "lock" else 0 for r in reports]
    assert [p.returncode for p in procs] == expected, results
    committed = [r for r in reports if r["outcome"] == "committed"]
    assert len(committed) == 1
    assert len(committed[0]["files"]) == 30
    for r in reports:
        if r["outcome"] != "committed":
            assert r["text"] == "NO_NEW_GRADIENT"
    assert all(b"index.lock" not in err for _, err in results)
    assert git(k, "rev-list", "--count", f"{before}..HEAD").strip() == "1"
    assert status(k) == ""
    git(k, "fsck", "--strict")


def test_second_committer_skips_while_first_holds_the_lock(
    repo: KernelPaths, redis_url: str, tmp_path: Path
) -> None:
    k = repo.kernel
    before = head(k)
    write(k, "memory/entities/beta.md", DOSSIER)
    flag = tmp_path / "go"
    first = subprocess.Popen(
        committer_cmd(repo),
        env=committer_env(redis_url, SUBCON_TEST_PAUSE_AFTER_STAGE=str(flag)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(flag.with_name("go.reached"))
        second = subprocess.run(
            committer_cmd(repo), env=committer_env(redis_url), capture_output=True, timeout=60
        )
        report = json.loads(second.stdout)
        assert second.returncode == 3
        assert report["text"] == "NO_NEW_GRADIENT"
        assert report["skip_kind"] == "lock"
        assert report["skipped"] == "kernel lock held by memory-committer (fence 1)"
        assert head(k) == before
        flag.write_text("go\n", encoding="utf-8")
        out, _ = first.communicate(timeout=60)
        assert json.loads(out)["outcome"] == "committed"
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert git(k, "rev-parse", "HEAD^").strip() == before


def test_committer_killed_mid_run_leaves_a_clean_repo(
    repo: KernelPaths, redis_url: str, tmp_path: Path
) -> None:
    k = repo.kernel
    before = head(k)
    write(k, "memory/entities/beta.md", DOSSIER)
    flag = tmp_path / "never"
    proc = subprocess.Popen(
        committer_cmd(repo),
        env=committer_env(
            redis_url, SUBCON_TEST_PAUSE_AFTER_STAGE=str(flag), SUBCON_LOCK_TTL_SECONDS="0.5"
        ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(flag.with_name("never.reached"))
        assert list((k / ".git").glob("subcon-commit-*.index"))  # the temp index exists
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert head(k) == before
    assert status(k) == "?? memory/entities/beta.md\n"
    git(k, "fsck", "--strict")
    lock = RedisKernelLock(redis.Redis.from_url(redis_url), kernel_id(k), ttl=0.5)
    wait_until(lambda: lock.holder() is None, 10, "the killed committer's lease to expire", 0.02)
    rerun = subprocess.run(
        committer_cmd(repo), env=committer_env(redis_url), capture_output=True, timeout=60
    )
    report = json.loads(rerun.stdout)
    assert report["outcome"] == "committed", rerun.stderr
    assert report["files"] == ["memory/entities/beta.md"]
    assert not list((k / ".git").glob("subcon-commit-*"))
    assert status(k) == ""
    git(k, "fsck", "--strict")
    # Both attempts are in the audit log; the published stream carries the rerun's records.
    stream = redis.Redis.from_url(redis_url).xrange("subcon:audit")
    assert stream is not None
    assert any(fields and b"committed" in fields[b"decision"] for _, fields in stream)
