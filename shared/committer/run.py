"""One memory-committer wake: select, review, commit clean files, audit every decision.

Skips with ``NO_NEW_GRADIENT`` (and a ``skipped`` audit record naming why) when the
kernel is not its own git repository (a ``.git`` git refuses to open is a damaged
repository instead: a ``GitError``), ``.git/index.lock`` exists, a merge / rebase /
cherry-pick is in progress, or the kernel lock is held (never waits for it). Under
the lock it reviews every allowlisted changed file, commits the clean ones in one
commit (see ``commit_tree``), leaves reject-bearing files dirty and unstaged, and
appends one audit record per decision.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from shared.committer.audit import AuditLog, publish
from shared.committer.candidates import Candidate, load_candidates, split_paths, stageable
from shared.committer.commit_tree import Planned, TempIndex, remove_stale_temp_indexes
from shared.committer.diffing import UNCHANGED, changed_lines, line_stats
from shared.committer.gitstate import (
    RepoInfo,
    TreeEntry,
    blob_sha,
    blocker,
    damaged_repository,
    drop_unreachable_blob,
    head_commit,
    head_entries,
    read_blobs,
    read_status,
    repo_info,
)
from shared.committer.message import CommittedFile, commit_message, describe, is_forget
from shared.committer.playlist_once import committed_tick, deferral_reason, remember
from shared.committer.report import CommitReport, SkipKind, Wake
from shared.constants import COMMITTER
from shared.errors import GitError, LockError, LockHeld, LockLost
from shared.kernel.git import run_git
from shared.kernel.lock.base import KernelLock, Lease
from shared.kernel.paths import KernelPaths
from shared.memcheck.forget import landed as forget_landed
from shared.memcheck.forget import pending_forgets
from shared.review.allowlist import FileKind
from shared.review.reviewer import claims_of, review_text
from shared.settings import Settings
from shared.testhooks import checkpoint
from shared.timestamps import iso
from shared.weaver.update.edits import board_edit_notes

log = logging.getLogger(__name__)


class _Background:
    """Run one read-only git query in a thread while the caller reads the work tree."""

    def __init__(self, fn: Callable[[], dict[str, bytes]]) -> None:
        self._value: dict[str, bytes] = {}
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn,), daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[[], dict[str, bytes]]) -> None:
        try:
            self._value = fn()
        except BaseException as exc:  # re-raised in the caller's thread by result()
            self._error = exc

    def result(self) -> dict[str, bytes]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def pause_hook(flag: Path) -> Callable[[], None]:
    """Test-only hook: announce ``<flag>.reached``, then wait until ``flag`` exists."""

    def pause() -> None:
        reached = flag.with_name(flag.name + ".reached")
        reached.write_text("reached\n", encoding="utf-8")
        deadline = time.monotonic() + 120
        while not flag.exists() and time.monotonic() < deadline:
            time.sleep(0.02)

    return pause


def run_committer(
    paths: KernelPaths,
    settings: Settings,
    *,
    lock: KernelLock,
    tick: int | None,
    dry_run: bool = False,
    redis_client: Any = None,
    pause_after_stage: Path | None = None,
    playlist_once_per_tick: bool = False,
) -> CommitReport:
    """Run one committer wake on ``paths.kernel`` and return its report.

    Audit records are appended to the runtime's audit log and published on
    ``settings.audit_stream`` when ``redis_client`` (or the Redis lock's client) is
    available; a dry run reviews and reports without touching git or the audit log.
    ``playlist_once_per_tick``: a commit made for ``tick`` leaves the playlist out when
    an earlier commit of that tick carried it (:mod:`shared.committer.playlist_once`).

    Raises:
        ConfigError: the kernel dir does not exist.
        GitError: a git command failed mid-commit, or the kernel's ``.git`` is damaged
            (nothing was committed).
    """
    paths.require_kernel()
    wake = Wake(paths, tick, dry_run)
    wake.playlist_once_per_tick = playlist_once_per_tick
    try:
        _run(wake, paths, lock, dry_run, pause_after_stage)
    except GitError as exc:
        wake.skip(f"git failed; nothing committed: {str(exc).splitlines()[0]}", SkipKind.GIT_BUSY)
        raise
    finally:
        _finish(wake, paths, settings, lock, dry_run, redis_client)
    return wake.report


def _run(
    wake: Wake,
    paths: KernelPaths,
    lock: KernelLock,
    dry_run: bool,
    pause_after_stage: Path | None,
) -> None:
    info = repo_info(paths.kernel)
    if info is None:
        damaged = damaged_repository(paths.kernel)
        if damaged is not None:
            raise damaged
        wake.skip(
            "not a git repository (the kernel is not its own git top level; "
            "`subcon init` or `git init` it)",
            SkipKind.NOT_A_REPO,
        )
        return
    why = blocker(info)
    if why:
        wake.skip(why, SkipKind.GIT_BUSY)
        return
    if dry_run:
        _review_and_commit(wake, paths, info, None, None)
        return
    try:
        with lock.hold(COMMITTER, wait=0) as lease:
            wake.fence = lease.fence
            why = blocker(info)
            if why:
                wake.skip(why, SkipKind.GIT_BUSY)
                return
            # Fault tests hold a committer here, under its kernel's lock (subject: the kernel).
            checkpoint("commit", str(paths.kernel))
            remove_stale_temp_indexes(info)
            pause = pause_hook(pause_after_stage) if pause_after_stage else None
            _review_and_commit(wake, paths, info, lease, pause)
    except LockHeld:
        try:
            holder = lock.holder() or {}
        except Exception:  # the holder is only named for the audit line
            holder = {}
        wake.skip(
            f"kernel lock held by {holder.get('owner', 'another holder')}"
            f" (fence {holder.get('fence', '?')})",
            SkipKind.LOCK,
        )
    except LockError as exc:
        wake.skip(f"kernel lock unavailable: {exc}", SkipKind.LOCK)


def _review_and_commit(
    wake: Wake,
    paths: KernelPaths,
    info: RepoInfo,
    lease: Lease | None,
    pause: Callable[[], None] | None,
) -> None:
    kernel = paths.kernel
    entries = read_status(kernel)
    allowed, outside, unmerged = split_paths(entries)
    if unmerged:
        wake.skip("unmerged paths: a merge is in progress", SkipKind.GIT_BUSY)
        return
    for path in outside:
        wake.record("outside-allowlist", file=path, reason="outside-allowlist: never staged")
    if not allowed:
        wake.report.skipped = "no allowlisted changes"
        wake.report.skip_kind = SkipKind.NOTHING
        return
    head = head_commit(kernel)
    head_tree = head_entries(kernel, head)
    index = None if lease is None else TempIndex(kernel, info, head)
    try:
        if index is not None:
            # Hash and store blobs while the review runs; land() keeps only approved ones.
            index.start([p for p in allowed if stageable(kernel, p)])
        _review(wake, paths, info, lease, pause, allowed, head, head_tree, index)
    finally:
        if index is not None:
            index.close()
        for sha in wake.secret_blobs:
            drop_unreachable_blob(kernel, info, sha)


def _review(
    wake: Wake,
    paths: KernelPaths,
    info: RepoInfo,
    lease: Lease | None,
    pause: Callable[[], None] | None,
    allowed: list[str],
    head: str | None,
    head_tree: dict[str, TreeEntry],
    index: TempIndex | None,
) -> None:
    """Review every allowlisted candidate; land the approved ones (a dry run reports)."""
    kernel = paths.kernel
    olds = [head_tree[p].sha for p in allowed if p in head_tree]
    blobs = _Background(lambda: read_blobs(kernel, olds))
    candidates = _defer_playlist(wake, load_candidates(kernel, allowed, head_tree, blobs.result))
    approved = _approve(wake, candidates, info)
    if not approved:
        return
    files = {c.path: _committed_file(c) for c, _ in approved}
    forgets = pending_forgets(paths)
    for path, f in files.items():
        if f.change == "deleted" and path in forgets:
            # A node the memory check forgot: the commit says so, and so does the audit.
            files[path] = replace(f, notes=(forgets[path],))
    board = files.get("memory/CLAUDE.md")
    if board is not None and board.change != "deleted":
        # The updater's edit notes for exactly this board text go into the body.
        text = next(c.text for c, _ in approved if c.path == board.path)
        files[board.path] = replace(board, notes=tuple(board_edit_notes(paths, text)))
    if lease is None or index is None:  # dry run
        wake.report.files = list(files)
        _, _, description = describe(list(files.values()))
        wake.report.summary = _sentence(description)
        return
    head_modes = {p: (e.mode, e.sha) for p, e in head_tree.items()}
    _land(wake, kernel, lease, pause, index, [p for _, p in approved], files, head, head_modes)


def _defer_playlist(wake: Wake, candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` without the playlist when this tick already committed it (recorded
    as ``skipped``, with the file); the others unchanged."""
    tick = wake.tick
    if not wake.playlist_once_per_tick or tick is None or committed_tick(wake.paths) != tick:
        return candidates
    kept = []
    for c in candidates:
        if c.kind is FileKind.PLAYLIST and c.change not in ("unchanged", "held"):
            wake.record("skipped", file=c.path, reason=deferral_reason(tick))
            if len(candidates) == 1:
                wake.report.skipped = deferral_reason(tick)
                wake.report.skip_kind = SkipKind.NOTHING
            continue
        kept.append(c)
    return kept


def _approve(
    wake: Wake, candidates: list[Candidate], info: RepoInfo
) -> list[tuple[Candidate, Planned]]:
    """The candidates that may land, each with its planned index entry; every other
    candidate gets its audit record (held, trivial, or one per rejected line)."""
    approved: list[tuple[Candidate, Planned]] = []
    for c in candidates:
        if c.change == "held":
            wake.record("held", file=c.path, gate="candidate", reason=c.hold)
            continue
        if c.change == "unchanged" or c.trivial:
            wake.record("trivial", file=c.path, reason=f"trivial: {c.trivial or UNCHANGED}")
            continue
        if c.change == "deleted":
            approved.append((c, Planned(c.path, None, None)))
            continue
        assert c.data is not None and c.mode is not None
        if c.change != "mode" and _holds_rejected_lines(wake, c):
            if any(d.gate == "secret" for d in wake.report.rejected if d.file == c.path):
                wake.secret_blobs.append(blob_sha(c.data, info.object_format))
            continue
        approved.append((c, Planned(c.path, c.mode, blob_sha(c.data, info.object_format))))
    return approved


def _holds_rejected_lines(wake: Wake, c: Candidate) -> bool:
    """Run the review gates over ``c``'s changed lines; record and report each reject."""
    changed = None if c.change == "added" else changed_lines(c.old_text, c.text)
    rejects = [d for d in review_text(c.path, c.kind, c.text, changed) if d.rejected]
    wake.report.rejected.extend(rejects)
    for d in rejects:
        wake.record(
            "held",
            file=c.path,
            line=d.line,
            gate=d.gate,
            rule=d.rule,
            reading=d.reading,
            reason=d.reason,
            quote=d.text,
        )
    return bool(rejects)


def _land(
    wake: Wake,
    kernel: Path,
    lease: Lease,
    pause: Callable[[], None] | None,
    index: TempIndex,
    planned: list[Planned],
    files: dict[str, CommittedFile],
    head: str | None,
    head_modes: dict[str, tuple[str, str]],
) -> None:
    """Commit ``planned`` through the temp index and report what landed."""

    def message(landing: list[str]) -> str:
        subject, full = commit_message([files[p] for p in landing], wake.tick)
        wake.report.subject = subject
        wake.report.message = full
        return full

    try:
        outcome = index.land(planned, head_modes, message, lease.ensure, pause)
    except LockLost as exc:
        wake.skip(f"kernel lock lost before commit; nothing committed ({exc})", SkipKind.LOCK)
        return
    for path in outcome.changed_since_review:
        wake.record(
            "held",
            file=path,
            gate="candidate",
            reason="changed after review; re-reviewed next wake",
        )
    if outcome.aborted or outcome.commit is None:
        # Only a moved HEAD is git trouble; the other aborts mean nothing was left to land.
        moved = "HEAD moved" in (outcome.aborted or "")
        wake.skip(
            outcome.aborted or "nothing committed",
            SkipKind.GIT_BUSY if moved else SkipKind.NOTHING,
        )
        return
    _report_commit(wake, kernel, outcome.commit, outcome.committed, files, head)
    if outcome.index_warning:
        wake.report.warnings.append(outcome.index_warning)


def _report_commit(
    wake: Wake,
    kernel: Path,
    commit: str,
    committed: list[str],
    files: dict[str, CommittedFile],
    head: str | None,
) -> None:
    """Fill the report for a landed commit and audit each committed file."""
    parents = run_git(kernel, "rev-list", "--parents", "-n", "1", "HEAD").stdout.split()
    if parents != [commit, *([head] if head else [])]:
        wake.report.warnings.append(f"HEAD is not the new commit on the old HEAD: {parents}")
    short = run_git(kernel, "rev-parse", "--short", commit).stdout.strip()
    landed = [files[p] for p in committed]
    _, _, description = describe(landed)
    wake.report.outcome = "committed"
    wake.report.commit = commit
    wake.report.short = short
    wake.report.files = committed
    wake.report.summary = _sentence(description)
    for f in landed:
        reason = f.notes[0] if f.change == "deleted" and is_forget(f) else f.change
        wake.record("committed", file=f.path, reason=reason, commit=commit)
    if wake.tick is not None and any(f.kind is FileKind.PLAYLIST for f in landed):
        remember(wake.paths, wake.tick, commit)
    forgot = [f.path for f in landed if f.change == "deleted" and is_forget(f)]
    if forgot:
        forget_landed(wake.paths, forgot)


def _sentence(description: str) -> str:
    return description[:1].upper() + description[1:]


def _committed_file(c: Candidate) -> CommittedFile:
    stats = None
    # Only the board's subject counts lines ("rewrite 2 broadcast lines and add 1").
    if c.kind is FileKind.BOARD and c.change in ("added", "modified"):
        old = [ll.text for ll in claims_of(c.old_text, c.kind)]
        new = [ll.text for ll in claims_of(c.text, c.kind)]
        stats = line_stats(old, new)
    return CommittedFile(c.path, c.kind, c.change, stats)


def _finish(
    wake: Wake,
    paths: KernelPaths,
    settings: Settings,
    lock: KernelLock,
    dry_run: bool,
    redis_client: Any,
) -> None:
    report = wake.report
    report.duration_ms = int((time.monotonic() - wake.started) * 1000)
    if not report.records and not dry_run:
        # An idle wake still leaves one line, so "did it run?" has an answer.
        wake.record("skipped", reason=report.skipped or "no allowlisted changes")
    now = iso()
    report.records = [replace(r, ts=now, duration_ms=report.duration_ms) for r in report.records]
    if dry_run:
        return
    AuditLog(paths).append(report.records)
    client = redis_client if redis_client is not None else getattr(lock, "client", None)
    if client is None:
        return
    try:
        publish(client, settings.audit_stream, report.records, settings.audit_stream_maxlen)
    except Exception as exc:  # the JSONL file is the record; the stream is best effort
        report.warnings.append(f"audit stream publish failed: {exc}")
        log.warning("audit stream publish failed: %s", exc)
