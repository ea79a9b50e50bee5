"""One tick makes at most one commit that carries the playlist (issue #32).

A tick rebuilds the playlist's round, and each run it started checks its item off: the
tick-started committer run and the commit the weaver pass asks for each used to carry
the latest check-off, two "revise the partition playlist" commits for one tick.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from shared.cadence.commit_wake import commit_run
from shared.committer.audit import read_audit
from shared.committer.playlist_once import committed_tick
from shared.committer.run import run_committer
from shared.kernel.git import run_git
from shared.kernel.lock.file_lock import FileKernelLock
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from testing.gitrepo import DOSSIER, head, init_repo, write
from workers.cli import main

PLAYLIST = "subconscious/playlist.md"


def run(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def playlist_commits(paths: KernelPaths) -> list[tuple[str, str | None]]:
    """(subject, Meta-Tick) of every commit that changed the playlist, newest first."""
    log = run_git(
        paths.kernel, "log", "--format=%x00%s%x01%b", "--name-only", "--", PLAYLIST
    ).stdout
    out = []
    for entry in log.split("\0")[1:]:
        subject, _, body = entry.partition("\1")
        tick = re.search(r"^Meta-Tick: (\d+)$", body, re.M)
        out.append((subject, tick.group(1) if tick else None))
    return out


def test_one_tick_makes_at_most_one_playlist_commit(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(demo, "tick") == 0
    out = capsys.readouterr().out
    # Both runs committed: the committer's own run and the weaver's requested commit.
    assert "memory-committer: Committed:" in out
    assert "commit: made " in out
    per_tick = Counter(tick for _, tick in playlist_commits(demo) if tick is not None)
    assert per_tick == {"1": 1}, playlist_commits(demo)
    subjects = [s for s, _ in playlist_commits(demo)]
    assert sum("revise the partition playlist" in s for s in subjects) == 1
    # The later check-off waits in the work tree, audited as deferred.
    status = run_git(demo.kernel, "status", "--porcelain", "--", PLAYLIST).stdout
    assert status.strip() == f"M {PLAYLIST}"
    deferred = [r for r in read_audit(demo) if r.decision == "skipped" and r.file == PLAYLIST]
    assert len(deferred) == 1 and deferred[0].tick == 1
    assert "committed in tick 1" in (deferred[0].reason or "")

    # A commit by hand takes it.
    assert run(demo, "commit") == 0
    capsys.readouterr()
    assert run_git(demo.kernel, "status", "--porcelain", "--", PLAYLIST).stdout == ""


def test_commit_for_a_tick_defers_the_playlist_only_within_that_tick(
    paths: KernelPaths, settings: Settings
) -> None:
    repo = init_repo(paths)
    k = repo.kernel
    lock = FileKernelLock(repo.file_lock, default_wait=0)
    write(k, PLAYLIST, "# Subconscious Playlist\n\n## Current Round\n- [ ] memory-weaver\n")
    first = run_committer(repo, settings, lock=lock, tick=5, playlist_once_per_tick=True)
    assert first.outcome == "committed" and PLAYLIST in first.files
    assert committed_tick(repo) == 5

    # The same tick: the playlist stays dirty, the other file lands.
    write(k, PLAYLIST, "# Subconscious Playlist\n\n## Current Round\n- [x] memory-weaver\n")
    write(k, "memory/entities/beta.md", DOSSIER.replace("Acme", "Beta"))
    second = run_committer(repo, settings, lock=lock, tick=5, playlist_once_per_tick=True)
    assert second.outcome == "committed" and second.files == ["memory/entities/beta.md"]
    assert "playlist" not in (second.subject or "")

    # Only the playlist left: nothing committed, and the report says why.
    before = head(k)
    third = run_committer(repo, settings, lock=lock, tick=5, playlist_once_per_tick=True)
    assert third.outcome == "no_new_gradient" and head(k) == before
    assert third.why is not None and "committed in tick 5" in third.why

    # The next tick's commit carries it.
    fourth = run_committer(repo, settings, lock=lock, tick=6, playlist_once_per_tick=True)
    assert fourth.files == [PLAYLIST] and committed_tick(repo) == 6


def test_the_commit_task_path_defers_and_a_manual_commit_does_not(
    paths: KernelPaths, settings: Settings
) -> None:
    repo = init_repo(paths)
    k = repo.kernel
    lock = FileKernelLock(repo.file_lock, default_wait=0)
    write(k, PLAYLIST, "# Subconscious Playlist\n\n## Current Round\n- [ ] memory-weaver\n")
    run_committer(repo, settings, lock=lock, tick=3)
    assert committed_tick(repo) == 3
    write(k, PLAYLIST, "# Subconscious Playlist\n\n## Current Round\n- [x] memory-weaver\n")
    # A commit a run asked for (no run of its own) is made for the current tick: 3.
    (repo.subcon_state_dir / "tick.json").write_text('{"tick": 3}\n', encoding="utf-8")
    requested = commit_run(repo, settings, lock, "test", run=None, client=None)
    assert requested.outcome == "no_new_gradient", requested.to_json()
    # By hand (``subcon commit``): taken.
    manual = run_committer(repo, settings, lock=lock, tick=3)
    assert manual.files == [PLAYLIST]
