"""A committer wake on real git repositories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shared.committer.audit import read_audit
from shared.committer.run import run_committer
from shared.kernel.lock.file_lock import FileKernelLock
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from testing.gitrepo import (
    BAD_LINE,
    BOARD,
    DOSSIER,
    GOOD_LINE,
    commit_all,
    git,
    head,
    status,
    write,
)
from testing.waiting import wait_until


def wake(repo: KernelPaths, settings: Settings, lock: FileKernelLock, **kw: object):
    return run_committer(repo, settings, lock=lock, tick=kw.pop("tick", 7), **kw)  # type: ignore[arg-type]


def test_clean_files_commit_while_reject_file_stays_dirty_and_unstaged(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    before = head(k)
    write(k, "memory/CLAUDE.md", BOARD + BAD_LINE)
    write(k, "memory/entities/beta.md", DOSSIER.replace("Acme", "Beta"))
    write(k, "subconscious/memory-weaver/CLAUDE.md", "# memory-weaver\n\nScan the spine.\n")
    report = wake(repo, settings, file_lock)
    assert report.outcome == "committed"
    assert sorted(report.files) == [
        "memory/entities/beta.md",
        "subconscious/memory-weaver/CLAUDE.md",
    ]
    lines = report.text.split("\n")
    assert lines[0] == f"Committed: {report.short} (2 files). {report.summary}."
    assert lines[1] == (
        "- I rejected `memory/CLAUDE.md:4` because the line describes memory maintenance "
        "rather than behavior in an external interaction. `self-reference: memory-maintenance line`"
    )
    assert git(k, "rev-parse", "HEAD^").strip() == before
    assert status(k) == " M memory/CLAUDE.md\n"
    message = git(k, "log", "-1", "--format=%B")
    assert message.startswith("memory(dossier, self-program): add entity dossier beta; add ")
    assert "Scopes: memory, subconscious" in message
    assert "Meta-Tick: 7" in message
    assert "Partition: memory-committer" in message
    assert git(k, "log", "-1", "--format=%an <%ae>").strip() == "aladuo <aladuo@local>"
    records = read_audit(repo)
    held = [r for r in records if r.decision == "held"]
    assert len(held) == 1
    assert (held[0].file, held[0].line, held[0].gate) == ("memory/CLAUDE.md", 4, "self-reference")
    assert held[0].quote == "The memory board is concise and durable."
    committed = {r.file for r in records if r.decision == "committed"}
    assert committed == set(report.files)
    assert all(
        r.commit == report.commit and r.fence == 1 and r.tick == 7
        for r in records
        if r.decision == "committed"
    )


def test_board_rewrite_subject_counts_lines(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    board = (
        "# Intuition\n\n"
        "- When a reply opens with filler, open with the answer itself [[lesson-reply-first]]\n"
        + GOOD_LINE
    )
    write(k, "memory/CLAUDE.md", board)
    report = wake(repo, settings, file_lock, tick=None)
    assert report.outcome == "committed"
    subject = git(k, "log", "-1", "--format=%s").strip()
    assert subject == "memory(intuition): rewrite 1 broadcast line and add 1"
    assert "Meta-Tick" not in git(k, "log", "-1", "--format=%B")
    assert (
        report.text == f"Committed: {report.short} (1 files). Rewrite 1 broadcast line and add 1."
    )


def test_clean_tree_is_no_new_gradient(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    report = wake(repo, settings, file_lock)
    assert report.text == "NO_NEW_GRADIENT"
    assert [r.decision for r in read_audit(repo)] == ["skipped"]


def test_trivial_only_change_is_not_committed(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    write(k, "memory/entities/dated.md", "Seen 2026-01-05T09:12:33.123Z\n")
    commit_all(k, "dated")
    before = head(k)
    write(k, "memory/CLAUDE.md", BOARD.replace("- When", "-   When") + "\n\n")
    write(k, "memory/entities/dated.md", "Seen 2026-02-07T10:00:00.000Z\n")
    report = wake(repo, settings, file_lock)
    assert report.text == "NO_NEW_GRADIENT"
    assert head(k) == before
    reasons = {r.file: r.reason for r in read_audit(repo) if r.decision == "trivial"}
    assert reasons == {
        "memory/CLAUDE.md": "trivial: whitespace only",
        "memory/entities/dated.md": "trivial: timestamp only",
    }


def test_line_reorder_is_trivial(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    write(k, "memory/CLAUDE.md", BOARD + GOOD_LINE)
    commit_all(k)
    write(k, "memory/CLAUDE.md", "# Intuition\n\n" + GOOD_LINE + BOARD.split("\n\n", 1)[1])
    report = wake(repo, settings, file_lock)
    assert report.text == "NO_NEW_GRADIENT"
    assert [r.reason for r in read_audit(repo)] == ["trivial: line reorder only"]


def test_only_changed_lines_are_reviewed(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    # A bad line already committed (e.g. by hand) is not re-judged when another line changes.
    write(k, "memory/CLAUDE.md", BOARD + BAD_LINE)
    commit_all(k)
    write(k, "memory/CLAUDE.md", BOARD + BAD_LINE + GOOD_LINE)
    report = wake(repo, settings, file_lock)
    assert report.outcome == "committed"
    assert report.rejected == []


def test_multi_line_bullet_is_one_claim(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    write(
        k,
        "memory/CLAUDE.md",
        BOARD
        + "- When <Person> asks for a status update,\n  open with the blocker and its owner.\n",
    )
    report = wake(repo, settings, file_lock)
    assert report.outcome == "committed"
    write(k, "memory/CLAUDE.md", BOARD + "- Yesterday the\n  user asked about pricing.\n")
    report = wake(repo, settings, file_lock)
    assert report.text.split("\n")[1].startswith("- I rejected `memory/CLAUDE.md:4` because")
    assert report.rejected[0].text == "Yesterday the user asked about pricing."


def test_deletion_rename_and_mode_change(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    write(k, "memory/topics/lesson-a.md", "# Lesson: a\n\n## Condition\n\nWhen X.\n")
    write(k, "memory/topics/lesson-b.md", "# Lesson: b\n\n## Condition\n\nWhen Y.\n")
    commit_all(k)
    git(k, "mv", "memory/topics/lesson-a.md", "memory/topics/lesson-c.md")
    (k / "memory/entities/acme.md").unlink()
    os.chmod(k / "memory/topics/lesson-b.md", 0o755)
    report = wake(repo, settings, file_lock)
    assert report.outcome == "committed"
    assert sorted(report.files) == [
        "memory/entities/acme.md",
        "memory/topics/lesson-a.md",
        "memory/topics/lesson-b.md",
        "memory/topics/lesson-c.md",
    ]
    tree = git(k, "ls-tree", "-r", "HEAD")
    assert "memory/entities/acme.md" not in tree
    assert "memory/topics/lesson-a.md" not in tree
    assert "100755 blob" in next(line for line in tree.splitlines() if "lesson-b.md" in line)
    assert status(k) == ""


def test_empty_repository_without_head(
    paths: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = paths.kernel
    git(k, "init", "-q", "-b", "main")
    write(k, "memory/entities/acme.md", DOSSIER)
    report = run_committer(paths, settings, lock=file_lock, tick=1)
    assert report.outcome == "committed"
    assert git(k, "rev-list", "--parents", "-n", "1", "HEAD").split() == [report.commit]
    assert status(k) == ""


def test_not_a_git_repository_and_nested_kernel(
    paths: KernelPaths, settings: Settings, tmp_path: Path, file_lock: FileKernelLock
) -> None:
    write(paths.kernel, "memory/entities/acme.md", DOSSIER)
    report = run_committer(paths, settings, lock=file_lock, tick=None)
    assert report.text == "NO_NEW_GRADIENT"
    assert report.skipped is not None and report.skipped.startswith("not a git repository")
    # A kernel nested inside another repository is not "a repo" either (docs/formats.md §3.4).
    git(tmp_path, "init", "-q")
    report = run_committer(paths, settings, lock=file_lock, tick=None)
    assert report.skipped is not None and report.skipped.startswith("not a git repository")
    assert git(tmp_path, "rev-list", "--all") == ""


def test_index_lock_present_means_no_mutation(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    before = head(k)
    write(k, "memory/entities/beta.md", DOSSIER)
    index_before = (k / ".git/index").read_bytes()
    (k / ".git/index.lock").write_bytes(b"")
    report = wake(repo, settings, file_lock)
    assert report.text == "NO_NEW_GRADIENT"
    assert report.skipped == ".git/index.lock exists"
    assert head(k) == before
    assert (k / ".git/index").read_bytes() == index_before
    assert (k / ".git/index.lock").exists()
    assert [r.reason for r in read_audit(repo)] == [".git/index.lock exists"]


def test_held_kernel_lock_skips_without_waiting(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    write(k, "memory/entities/beta.md", DOSSIER)
    before = head(k)
    other = FileKernelLock(repo.file_lock, default_wait=0)
    with other.hold("memory-weaver"):
        report = wake(repo, settings, file_lock)
    assert report.text == "NO_NEW_GRADIENT"
    assert report.skipped == "kernel lock held by memory-weaver (fence 1)"
    assert head(k) == before
    report = wake(repo, settings, file_lock)
    assert report.outcome == "committed"


def test_merge_in_progress_is_skipped(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    git(k, "checkout", "-q", "-b", "side")
    write(k, "memory/entities/acme.md", DOSSIER + "- [observation] Side.\n")
    commit_all(k, "side")
    git(k, "checkout", "-q", "main")
    write(k, "memory/entities/acme.md", DOSSIER + "- [observation] Main.\n")
    commit_all(k, "main")
    before = head(k)
    result = git_rc(k, "merge", "side")
    assert result != 0
    assert (k / ".git/MERGE_HEAD").exists()
    report = wake(repo, settings, file_lock)
    assert report.text == "NO_NEW_GRADIENT"
    assert report.skipped == "a merge is in progress"
    assert head(k) == before


def git_rc(kernel: Path, *args: str) -> int:
    from shared.kernel.git import run_git

    return run_git(kernel, *args, check=False).returncode


def test_dry_run_changes_nothing(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    write(k, "memory/entities/beta.md", DOSSIER)
    write(k, "memory/CLAUDE.md", BOARD + BAD_LINE)
    before, index_before = head(k), (k / ".git/index").read_bytes()
    report = wake(repo, settings, file_lock, dry_run=True)
    assert report.text.split("\n")[0] == "Dry run: would commit 1 files. Add entity dossier beta."
    assert len(report.rejected) == 1
    assert head(k) == before
    assert (k / ".git/index").read_bytes() == index_before
    assert not repo.audit_dir.exists()
    assert report.records == []  # nothing was decided, so nothing is audited
    assert report.text.split("\n")[1:] == [
        "would hold back memory/CLAUDE.md:4 (self-reference: memory-maintenance line)"
    ]


@pytest.mark.parametrize("pre_stage", [False, True])
def test_reject_bearing_file_index_left_as_it_was(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock, pre_stage: bool
) -> None:
    k = repo.kernel
    write(k, "memory/CLAUDE.md", BOARD + BAD_LINE)
    if pre_stage:
        git(k, "add", "memory/CLAUDE.md")
    staged_before = git(k, "diff", "--cached", "--name-only")
    write(k, "memory/entities/beta.md", DOSSIER)
    report = wake(repo, settings, file_lock)
    assert report.files == ["memory/entities/beta.md"]
    assert git(k, "diff", "--cached", "--name-only") == staged_before
    assert "memory/CLAUDE.md" not in git(k, "show", "--name-only", "--format=", "HEAD")


def test_lease_lost_before_commit_aborts_and_stages_nothing(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock, tmp_path: Path
) -> None:
    import threading

    k = repo.kernel
    write(k, "memory/entities/beta.md", DOSSIER)
    before, index_before = head(k), (k / ".git/index").read_bytes()
    flag = tmp_path / "go"
    reports = []
    worker = threading.Thread(
        target=lambda: reports.append(wake(repo, settings, file_lock, pause_after_stage=flag))
    )
    worker.start()
    wait_until(flag.with_name("go.reached").exists, 30, "the committer at its pause", poll=0.01)
    # Someone broke the lock and took over: the fence moved past this lease.
    file_lock.fence_path.write_text("99\n", encoding="utf-8")
    flag.write_text("go\n", encoding="utf-8")
    worker.join(30)
    report = reports[0]
    assert report.text == "NO_NEW_GRADIENT"
    assert report.skipped is not None and report.skipped.startswith(
        "kernel lock lost before commit"
    )
    assert head(k) == before
    assert (k / ".git/index").read_bytes() == index_before
    assert not list((k / ".git").glob("subcon-commit-*"))
