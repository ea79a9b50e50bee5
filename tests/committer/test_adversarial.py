"""Odd file names, symlinks, the root prompt, ignored and pre-staged files."""

from __future__ import annotations

import os
from pathlib import Path

from shared.committer.audit import read_audit
from shared.committer.commit_tree import Planned, build_and_land
from shared.committer.gitstate import blob_sha, head_entries, repo_info
from shared.committer.run import run_committer
from shared.errors import LockLost
from shared.kernel.lock.file_lock import FileKernelLock
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from testing.gitrepo import DOSSIER, git, head, status, write

ODD_NAMES = [
    "memory/entities/with space.md",
    "memory/entities/ünïcødé-名字.md",
    "memory/entities/new\nline.md",
    "memory/entities/-leading-dash.md",
    "memory/entities/--force",
    "memory/entities/..md",
    "memory/entities/...",
    "memory/entities/*.md",
    "memory/entities/:(glob)x.md",
    "memory/topics/sub dir/deep/lesson-x.md",
    "config/channels/feishu.md",
]


def test_odd_names_are_committed_literally(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    for name in ODD_NAMES:
        write(k, name, DOSSIER)
    report = run_committer(repo, settings, lock=file_lock, tick=3)
    assert report.outcome == "committed"
    assert sorted(report.files) == sorted(ODD_NAMES)
    tree = git(k, "ls-tree", "-r", "-z", "--name-only", "HEAD").split("\0")
    assert set(ODD_NAMES) <= set(tree)
    assert status(k) == ""
    assert run_committer(repo, settings, lock=file_lock, tick=4).text == "NO_NEW_GRADIENT"


def test_outside_allowlist_never_staged_and_prestaged_never_committed(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    write(k, "subconscious/CLAUDE.md", "# root prompt (code-owned)\n")
    write(k, "notes.md", "scratch\n")
    write(k, "memory/fragments/2026-01-05/f.md", "ignored\n")
    write(k, "memory/state/x.json", "{}\n")
    write(k, "config/readme.txt", "not markdown\n")
    write(k, "staged-outside.md", "pre-staged by someone else\n")
    git(k, "add", "staged-outside.md", "subconscious/CLAUDE.md")
    write(k, "memory/entities/beta.md", DOSSIER)
    report = run_committer(repo, settings, lock=file_lock, tick=1)
    assert report.files == ["memory/entities/beta.md"]
    committed = git(k, "show", "--name-only", "--format=", "HEAD").split()
    assert committed == ["memory/entities/beta.md"]
    # What someone else staged is still staged, untouched.
    assert git(k, "diff", "--cached", "--name-only").split() == [
        "staged-outside.md",
        "subconscious/CLAUDE.md",
    ]
    outside = {r.file for r in read_audit(repo) if r.decision == "outside-allowlist"}
    assert outside == {
        "subconscious/CLAUDE.md",
        "notes.md",
        "config/readme.txt",
        "staged-outside.md",
        "memory/state/x.json",
    }


def test_symlinks_are_held_back_never_followed(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock, tmp_path: Path
) -> None:
    k = repo.kernel
    secret = tmp_path / "secret.md"
    secret.write_text("outside the kernel\n", encoding="utf-8")
    os.symlink(secret, k / "memory/entities/link-out.md")
    os.symlink("acme.md", k / "memory/entities/link-in.md")
    outside_dir = tmp_path / "elsewhere"
    outside_dir.mkdir()
    (outside_dir / "CLAUDE.md").write_text("# prompt\n", encoding="utf-8")
    (k / "subconscious").mkdir()
    os.symlink(outside_dir, k / "subconscious/evil")
    write(k, "memory/entities/beta.md", DOSSIER)
    report = run_committer(repo, settings, lock=file_lock, tick=1)
    assert report.files == ["memory/entities/beta.md"]
    tree = git(k, "ls-tree", "-r", "--name-only", "HEAD")
    assert "link-out" not in tree and "link-in" not in tree and "evil" not in tree
    held = {r.file: r.reason or "" for r in read_audit(repo) if r.decision == "held"}
    assert held["memory/entities/link-out.md"].startswith(
        "symlink: not followed or committed (points outside the kernel"
    )
    assert held["memory/entities/link-in.md"].startswith(
        "symlink: not followed or committed (points inside the kernel"
    )


def test_non_utf8_file_is_held_and_kept(
    repo: KernelPaths, settings: Settings, file_lock: FileKernelLock
) -> None:
    k = repo.kernel
    (k / "memory/entities/bad.md").write_bytes(b"# ok\n\n\xff\xfe broken\n")
    report = run_committer(repo, settings, lock=file_lock, tick=1)
    assert report.text == "NO_NEW_GRADIENT"
    assert (k / "memory/entities/bad.md").read_bytes() == b"# ok\n\n\xff\xfe broken\n"
    held = [r for r in read_audit(repo) if r.decision == "held"]
    assert held[0].reason == "input: not UTF-8 text (line 3)"


def test_content_changed_after_review_is_not_committed(repo: KernelPaths) -> None:
    k = repo.kernel
    info = repo_info(k)
    assert info is not None
    write(k, "memory/entities/beta.md", "reviewed\n")
    write(k, "memory/entities/gamma.md", "changed after review\n")
    planned = [
        Planned("memory/entities/beta.md", "100644", blob_sha(b"reviewed\n")),
        Planned("memory/entities/gamma.md", "100644", blob_sha(b"what was reviewed\n")),
    ]
    before = head(k)
    modes = {p: (e.mode, e.sha) for p, e in head_entries(k, before).items()}
    outcome = build_and_land(
        k, info, before, planned, modes, lambda paths: "memory(dossier): test\n", lambda: None
    )
    assert outcome.committed == ["memory/entities/beta.md"]
    assert outcome.changed_since_review == ["memory/entities/gamma.md"]
    assert git(k, "show", "--name-only", "--format=", "HEAD").split() == ["memory/entities/beta.md"]
    assert git(k, "ls-tree", "-r", "--name-only", "HEAD").split() == [
        ".gitignore",
        "memory/CLAUDE.md",
        "memory/entities/acme.md",
        "memory/entities/beta.md",
    ]


def test_lock_lost_before_commit_stages_nothing(repo: KernelPaths) -> None:
    k = repo.kernel
    info = repo_info(k)
    assert info is not None
    before = head(k)
    index_before = (k / ".git/index").read_bytes()
    write(k, "memory/entities/beta.md", "x\n")

    def lost() -> None:
        raise LockLost("taken over")

    planned = [Planned("memory/entities/beta.md", "100644", blob_sha(b"x\n"))]
    try:
        build_and_land(k, info, before, planned, {}, lambda p: "m\n", lost)
    except LockLost:
        pass
    else:
        raise AssertionError("LockLost not raised")
    assert head(k) == before
    assert (k / ".git/index").read_bytes() == index_before
    assert list(info.git_dir.glob("subcon-commit-*")) == []
    assert head_entries(k, before).keys() == {"memory/CLAUDE.md", "memory/entities/acme.md"}
