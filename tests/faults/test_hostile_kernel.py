"""Hostile kernel and inbox state: front matter garbage, odd inbox names, symlinks out of
the kernel, and git states the committer must not trip over (not a repo, nested, empty,
detached HEAD, merge in progress), and a missing kernel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.errors import ConfigError, NameRejected
from shared.kernel.git import run_git
from shared.kernel.lock.file_lock import FileKernelLock
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import list_items, validate_item_name, write_item
from shared.settings import Settings
from testing.gitrepo import BAD_LINE as REJECTED
from testing.gitrepo import DOSSIER
from tests.faults.harness import WEAVER, FaultReport, audit_into, inbox_names, seed_repo
from tests.faults.hostile import DATE, event, fresh, line_of, pass_over
from workers.embedded import run_partition

pytestmark = pytest.mark.integration


# --- front matter, inbox names, symlinks ----------------------------------------------

GARBAGE = [
    "---\nschedule: [unclosed\n---\nbody\n",
    "---\n: : :\n\t- x\n---\n",
    "---\nschedule:\n  enabled: no\n  cooldown_ticks: many\n---\n",
    "---\n" + "a: &x [*x]\n" + "---\n",
    "\xff\xfe not utf-8",
    "---\n!!python/object/apply:os.system ['touch /tmp/pwned']\n---\n",
]


@pytest.mark.parametrize("garbage", GARBAGE)
def test_front_matter_garbage_is_reported_not_fatal(
    garbage: str, demo_base: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    from shared.formats.fragments import read_fragment
    from shared.partitions.discovery import discover_partitions

    fault_report.tried("front-matter-garbage")
    paths = fresh(demo_base, tmp_path / "k")
    bad_partition = paths.kernel / "subconscious" / "broken-partition"
    bad_partition.mkdir(parents=True)
    (bad_partition / "CLAUDE.md").write_bytes(garbage.encode("utf-8", "surrogateescape"))
    frag_dir = paths.fragments_dir / DATE
    frag_dir.mkdir(parents=True, exist_ok=True)
    bad_fragment = frag_dir / "garbage.md"
    bad_fragment.write_bytes(garbage.encode("utf-8", "surrogateescape"))
    found = {p.name: p for p in discover_partitions(paths, include_errors=True)}
    assert WEAVER in found and found[WEAVER].error is None
    with pytest.raises(Exception) as caught:
        read_fragment(bad_fragment)
    assert "garbage.md" in str(caught.value)
    report = pass_over(paths)
    assert report["status"] in ("UPDATED:", "NO_NEW_GRADIENT:", "NO-OP:")
    assert bad_fragment.exists()  # reported and skipped, never deleted
    assert not Path("/tmp/pwned").exists()


BAD_NAMES = ["a:b.pending", "../x.pending", "a/b.pending", "x\0.pending", "x\n.pending",
             ".hidden.pending", "..", "", "noext", ".pending"]  # fmt: skip


@pytest.mark.parametrize("name", BAD_NAMES)
def test_inbox_names_are_rejected(name: str, paths: KernelPaths, fault_report: FaultReport) -> None:
    fault_report.tried("inbox-name")
    with pytest.raises(NameRejected):
        validate_item_name(name)
    with pytest.raises(NameRejected):
        write_item(paths, WEAVER, name, "[orphan-islands] x")
    inbox = paths.inbox_dir(WEAVER)
    assert not inbox.exists() or not [p for p in inbox.iterdir() if not p.name.startswith(".")]
    assert not (paths.runtime / "var" / "subconscious" / "x.pending").exists()


def test_odd_names_dropped_into_the_inbox_by_hand(
    demo_base: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    """Files another producer put there: listed or not, never a crash, and an ack never
    deletes anything but the settled item."""
    paths = fresh(demo_base, tmp_path / "k")
    inbox = paths.inbox_dir(WEAVER)
    inbox.mkdir(parents=True, exist_ok=True)
    names = ["0-colon:in-name.pending", "1-new\nline.pending", "2-plain.pending"]
    for name in names:
        (inbox / name).write_text("[orphan-islands]\nislands: x\n", encoding="utf-8")
    (inbox / "3-dir.pending").mkdir()
    (inbox / "4-link.pending").symlink_to(tmp_path / "outside-target")
    (tmp_path / "outside-target").write_text("[orphan-islands] outside\n", encoding="utf-8")
    fault_report.tried("hand-made-inbox-names", len(names) + 2)
    listed = [i.name for i in list_items(paths, WEAVER)]
    assert "3-dir.pending" not in listed and "4-link.pending" not in listed
    before = set(inbox_names(paths))
    settled: list[str] = []
    for _ in range(len(names)):
        report = pass_over(paths, "20260203[00,00]")
        if report["directed"]:
            settled += report["acked"]
    after = set(inbox_names(paths))
    # exactly the acked names disappeared; the dir, the link and its target are intact
    assert before - after == set(settled)
    assert (inbox / "3-dir.pending").is_dir()
    assert (inbox / "4-link.pending").is_symlink()
    assert (tmp_path / "outside-target").read_text(encoding="utf-8").startswith("[orphan")
    fault_report.items(checked=len(names), lost=len((before - after) - set(settled)))


def test_symlink_out_of_the_kernel_is_never_followed_or_committed(
    paths: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    from shared.committer.run import run_committer

    fault_report.tried("symlink-out-of-kernel")
    seed_repo(paths)
    secret = tmp_path / "secret.md"
    secret.write_text("# secret\n\n- password: hunter2\n", encoding="utf-8")
    before = secret.stat()
    (paths.kernel / "memory/entities/leak.md").symlink_to(secret)
    (paths.kernel / "memory/topics").mkdir(parents=True)
    (paths.kernel / "memory/topics/dir-link").symlink_to(tmp_path, target_is_directory=True)
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    report = run_committer(
        paths, settings, lock=FileKernelLock(paths.file_lock, default_wait=0), tick=None
    )
    assert report.outcome == "no_new_gradient", report.text
    held = {r.file: r.reason for r in report.records if r.decision == "held"}
    assert "symlink" in (held.get("memory/entities/leak.md") or ""), held
    shown = run_git(paths.kernel, "log", "--all", "-p").stdout
    assert "hunter2" not in shown
    assert secret.stat().st_mtime_ns == before.st_mtime_ns
    assert audit_into(fault_report, paths.kernel, ["password: hunter2"]) == (0, 0)
    assert secret.read_text(encoding="utf-8").endswith("hunter2\n")


def test_weaver_never_writes_through_a_symlinked_dossier(
    demo_base: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    fault_report.tried("symlink-dossier-weaver")
    paths = fresh(demo_base, tmp_path / "k")
    secret = tmp_path / "outside.md"
    secret.write_text("# outside\n", encoding="utf-8")
    for entity in paths.entities_dir.glob("*.md"):
        entity.unlink()
        entity.symlink_to(secret)
    day = paths.day_file(DATE)
    day.parent.mkdir(parents=True, exist_ok=True)
    day.write_bytes(b"".join(line_of(event(f"Alice Chen asked again {i}")) for i in range(3)))
    pass_over(paths)
    assert secret.read_text(encoding="utf-8") == "# outside\n"


# --- git states ------------------------------------------------------------------------


def committer(paths: KernelPaths) -> Any:
    from shared.committer.run import run_committer

    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    return run_committer(
        paths, settings, lock=FileKernelLock(paths.file_lock, default_wait=0), tick=None
    )


def test_kernel_that_is_not_a_git_repo(paths: KernelPaths, fault_report: FaultReport) -> None:
    fault_report.tried("git-not-a-repo")
    (paths.kernel / "memory/entities").mkdir(parents=True)
    (paths.kernel / "memory/entities/a.md").write_text(DOSSIER, encoding="utf-8")
    report = committer(paths)
    assert report.text == "NO_NEW_GRADIENT"
    assert "not a git repository" in (report.skipped or "")
    assert not (paths.kernel / ".git").exists()


def test_kernel_nested_in_another_repo_is_not_committed_to_the_outer_one(
    tmp_path: Path, fault_report: FaultReport
) -> None:
    fault_report.tried("git-nested-kernel")
    outer = tmp_path / "outer"
    outer.mkdir()
    run_git(outer, "init", "-q", "-b", "main")
    paths = KernelPaths(kernel=outer / "kernel", runtime=tmp_path / "runtime")
    (paths.kernel / "memory/entities").mkdir(parents=True)
    (paths.kernel / "memory/entities/a.md").write_text(DOSSIER, encoding="utf-8")
    paths.runtime.mkdir()
    report = committer(paths)
    assert report.text == "NO_NEW_GRADIENT"
    assert run_git(outer, "rev-parse", "-q", "--verify", "HEAD", check=False).returncode != 0


def test_empty_repo_detached_head_and_merge_in_progress(
    paths: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    k = paths.kernel
    # an empty repository: no commit yet
    fault_report.tried("git-empty-repo")
    run_git(k, "init", "-q", "-b", "main")
    (k / "memory/entities").mkdir(parents=True)
    (k / "memory/entities/a.md").write_text(DOSSIER, encoding="utf-8")
    (k / "memory/CLAUDE.md").write_text("# Intuition\n\n" + REJECTED, encoding="utf-8")
    report = committer(paths)
    assert report.text.startswith(("Committed:", "NO_NEW_GRADIENT")), report.text
    run_git(k, "fsck", "--strict")
    if report.outcome != "committed":
        seed_repo_existing(k)
    # a detached HEAD
    fault_report.tried("git-detached-head")
    run_git(k, "checkout", "-q", "--detach")
    (k / "memory/entities/b.md").write_text(DOSSIER.replace("Acme", "Bee"), encoding="utf-8")
    main_before = run_git(k, "rev-parse", "refs/heads/main").stdout.strip()
    report = committer(paths)
    assert report.text.startswith(("Committed:", "NO_NEW_GRADIENT")), report.text
    assert run_git(k, "rev-parse", "refs/heads/main").stdout.strip() == main_before
    run_git(k, "fsck", "--strict")
    run_git(k, "checkout", "-q", "main")
    # a merge in progress (a conflict on an allowlisted file)
    fault_report.tried("git-merge-in-progress")
    run_git(k, "checkout", "-q", "-b", "side")
    (k / "memory/entities/a.md").write_text(DOSSIER + "- side\n", encoding="utf-8")
    run_git(k, "commit", "-q", "-am", "side")
    run_git(k, "checkout", "-q", "main")
    (k / "memory/entities/a.md").write_text(DOSSIER + "- main\n", encoding="utf-8")
    run_git(k, "commit", "-q", "-am", "main")
    assert run_git(k, "merge", "side", check=False).returncode != 0
    head = run_git(k, "rev-parse", "HEAD").stdout.strip()
    report = committer(paths)
    assert report.text.startswith("NO_NEW_GRADIENT")
    assert "merge" in (report.skipped or "")
    assert run_git(k, "rev-parse", "HEAD").stdout.strip() == head
    assert (k / ".git/MERGE_HEAD").exists()  # never aborted or reset for the operator
    assert audit_into(fault_report, k, [REJECTED]) == (0, 0)


def seed_repo_existing(kernel: Path) -> None:
    run_git(kernel, "add", "memory/entities/a.md")
    run_git(kernel, "commit", "-q", "-m", "seed")


def test_missing_kernel_is_a_clear_error(tmp_path: Path, fault_report: FaultReport) -> None:
    fault_report.tried("missing-kernel")
    paths = KernelPaths(kernel=tmp_path / "nope", runtime=tmp_path / "rt")
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    with pytest.raises(ConfigError) as caught:
        run_partition(settings, WEAVER, commit=False)
    assert str(tmp_path / "nope") in str(caught.value)
    assert not (tmp_path / "nope").exists()


FIFO_PLACES = [
    "memory/CLAUDE.md",
    "memory/topics/lesson-planted.md",
    "memory/entities/planted.md",
    "memory/effectiveness/lesson-chinese-reply-language.md",
    "memory/effectiveness/new-signals.md",
    f"memory/fragments/{DATE}/planted.md",
]


@pytest.mark.parametrize("place", FIFO_PLACES)
def test_a_fifo_planted_in_the_kernel_never_hangs_a_stage(
    place: str, demo_base: KernelPaths, tmp_path: Path, fault_report: FaultReport
) -> None:
    """A blocking open() of a FIFO waits for a writer forever: every reader must refuse
    non-regular files. Each command runs in its own process with a deadline, so a
    regression fails here instead of hanging the suite."""
    import os
    import subprocess
    import sys

    fault_report.tried("fifo-in-kernel")
    paths = fresh(demo_base, tmp_path / "k")
    target = paths.kernel / place
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.unlink()
    os.mkfifo(target)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    base = [sys.executable, "-m", "workers", "--kernel", str(paths.kernel),
            "--runtime", str(paths.runtime)]  # fmt: skip
    for args in (["check", "--json"], ["weave", "--no-commit", "--json"], ["commit", "--json"]):
        try:
            done = subprocess.run(base + args, env=env, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"`subcon {args[0]}` hung on a FIFO at {place}")
        if place == "memory/CLAUDE.md" and args[0] == "weave":
            # the board itself is unusable: a clear error naming it, exit code 2
            assert done.returncode == 2 and "CLAUDE.md: not a regular file" in done.stderr
        elif args[0] == "check":
            # a degraded check (exit 1) names the unreadable path and sweeps nothing
            assert done.returncode in (0, 1), done.stderr
            if done.returncode == 1:
                assert place.rsplit("/", 1)[-1] in done.stdout
        else:
            assert done.returncode == 0, (args, done.stderr)
    assert stat_is_fifo(target) or place.startswith("memory/effectiveness/")


def stat_is_fifo(path: Path) -> bool:
    import stat

    return stat.S_ISFIFO(path.lstat().st_mode)
