"""Land reviewed content in one commit without touching anything else in the index.

The commit is built in a temporary index (``GIT_INDEX_FILE``) seeded from HEAD, so
whatever else sits in the real index (files pre-staged by someone else, inside or
outside the allowlist) can never be swept in. Candidate paths are staged from the
work tree with one batched ``update-index`` (NUL-separated paths on stdin: no
pathspec magic, no directory walk); each resulting blob id is checked against the
hash of the bytes that were reviewed, and a path whose content changed after review
is dropped from the commit (held back). The commit object is written with
``commit-tree`` and HEAD is moved with ``update-ref <new> <old>``, a compare-and-swap:
if HEAD moved since the wake began, nothing lands. Only after the commit landed are
the committed entries written into the real index (the ``git add`` of exactly the
committed blobs), so an abort (lost lock, moved HEAD) leaves the real index as it was.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shared.committer.gitstate import LITERAL, RepoInfo
from shared.constants import GIT_IDENTITY_EMAIL, GIT_IDENTITY_NAME
from shared.errors import GitError
from shared.kernel.git import run_git

TEMP_INDEX_PREFIX = "subcon-commit-"
# Every allowlisted path lives under one of these; ``git add`` touches nothing else.
STAGED_ROOTS = frozenset({"memory", "subconscious", "config"})
_INDEX_RETRY_SECONDS = 5.0


@dataclass(frozen=True)
class Planned:
    """What a path must look like in the commit: (mode, blob id), or None = deleted."""

    path: str
    mode: str | None
    sha: str | None

    @property
    def deleted(self) -> bool:
        return self.sha is None


@dataclass
class CommitOutcome:
    commit: str | None = None
    committed: list[str] = field(default_factory=list)
    changed_since_review: list[str] = field(default_factory=list)
    aborted: str | None = None
    index_warning: str | None = None


def remove_stale_temp_indexes(info: RepoInfo) -> None:
    """Delete temporary indexes a killed committer left (call only under the kernel lock)."""
    for stale in info.git_dir.glob(f"{TEMP_INDEX_PREFIX}*.index"):
        stale.unlink(missing_ok=True)
    for stale in info.git_dir.glob(f"{TEMP_INDEX_PREFIX}*.index.lock"):
        stale.unlink(missing_ok=True)


def _index_info(entries: list[Planned], null_sha: str) -> bytes:
    records = []
    for p in entries:
        if p.deleted:
            records.append(f"0 {null_sha}\t{p.path}")
        else:
            records.append(f"{p.mode} {p.sha}\t{p.path}")
    return "".join(r + "\0" for r in records).encode("utf-8", "surrogateescape")


def _nul_paths(paths: list[str]) -> bytes:
    return "".join(p + "\0" for p in paths).encode("utf-8", "surrogateescape")


def parse_ls_files_stage_z(text: str) -> dict[str, tuple[str, str]]:
    """Parse ``git ls-files -s -z``: path -> (mode, blob id) for stage-0 entries."""
    out: dict[str, tuple[str, str]] = {}
    for record in text.split("\0"):
        if not record:
            continue
        meta, _, path = record.partition("\t")
        mode, sha, stage = meta.split(" ")
        if stage == "0":
            out[path] = (mode, sha)
    return out


class TempIndex:
    """The commit's private index (``GIT_INDEX_FILE``), seeded from HEAD.

    ``start(paths)`` runs one batched ``git update-index --add --remove`` of the
    candidate paths in a
    background thread, so hashing and writing blobs overlaps the review; ``land``
    then keeps only the approved, unchanged entries and commits them. Blobs staged
    for files that are held back become unreachable objects (``git gc`` prunes them).
    """

    def __init__(self, kernel: Path, info: RepoInfo, head: str | None) -> None:
        self.kernel = kernel
        self.info = info
        self.head = head
        self.path = info.git_dir / f"{TEMP_INDEX_PREFIX}{os.getpid()}-{uuid.uuid4().hex}.index"
        self.env = {"GIT_INDEX_FILE": str(self.path), **LITERAL}
        self.started: list[str] = []
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        if head is not None:
            run_git(kernel, "read-tree", head, env=self.env)
        else:
            run_git(kernel, "read-tree", "--empty", env=self.env)

    def start(self, paths: list[str]) -> None:
        """Begin staging ``paths`` (work-tree content, deletions too) in the background."""
        self.started = list(paths)
        if not paths:
            return
        self._thread = threading.Thread(target=self._add, args=(self.started,), daemon=True)
        self._thread.start()

    def _add(self, paths: list[str]) -> None:
        try:
            self.add(paths)
        except BaseException as exc:  # re-raised (as a fallback) by join()
            self._error = exc

    def add(self, paths: list[str]) -> None:
        # update-index, not `git add <pathspecs>`: no directory walk matching every
        # pathspec, just lstat + hash of each named path (deletions via --remove).
        run_git(
            self.kernel,
            "update-index",
            "-z",
            "--add",
            "--remove",
            "--stdin",
            stdin=_nul_paths(paths),
            env=self.env,
        )

    def join(self) -> bool:
        """Wait for background staging; False when it failed (the caller re-stages)."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        return self._error is None

    def close(self) -> None:
        self.join()
        self.path.unlink(missing_ok=True)
        self.path.with_name(self.path.name + ".lock").unlink(missing_ok=True)

    def land(
        self,
        planned: list[Planned],
        head_modes: dict[str, tuple[str, str]],
        message: Callable[[list[str]], str],
        ensure: Callable[[], None],
        pause: Callable[[], None] | None = None,
    ) -> CommitOutcome:
        """Commit exactly ``planned`` on top of HEAD (see the module docstring).

        ``message(paths)`` renders the message for the paths that really land;
        ``ensure()`` is called right before HEAD moves and may raise ``LockLost``;
        ``head_modes`` maps HEAD's paths under the allowlisted top-level dirs to
        (mode, sha); every other difference from HEAD in the temp index is undone.

        Raises:
            LockLost: from ``ensure``; nothing was committed or staged.
            GitError: a git plumbing command failed; nothing was committed.
        """
        outcome = CommitOutcome()
        staged = self._staged_entries({p.path for p in planned})
        landing, outcome.changed_since_review = unchanged_since_review(planned, staged)
        self._undo_other_changes(staged, head_modes, {p.path for p in landing})
        if not landing:
            outcome.aborted = "every approved file changed after review"
            return outcome
        tree = run_git(self.kernel, "write-tree", env=self.env).stdout.strip()
        if self.head is not None and tree == self._head_tree(self.head):
            outcome.aborted = "the approved changes leave HEAD's tree unchanged"
            return outcome
        paths = [p.path for p in landing]
        text = message(paths)
        commit = self._commit_tree(tree, text)
        if pause is not None:
            pause()
        ensure()
        if not self._move_head(commit, text):
            outcome.aborted = "HEAD moved during the wake; nothing committed"
            return outcome
        outcome.commit = commit
        outcome.committed = paths
        outcome.index_warning = _stage_in_real_index(self.kernel, self.info, landing)
        return outcome

    def _staged_entries(self, wanted: set[str]) -> dict[str, tuple[str, str]]:
        """The temp index's stage-0 entries once every ``wanted`` path is staged
        (staged again here when the background run failed or did not cover them)."""
        if not self.join() or not wanted <= set(self.started):
            self._error = None
            self.add(sorted(wanted))
            self.started = sorted(set(self.started) | wanted)
        listing = run_git(self.kernel, "ls-files", "-s", "-z", env=self.env).stdout
        return parse_ls_files_stage_z(listing)

    def _undo_other_changes(
        self,
        staged: dict[str, tuple[str, str]],
        head_modes: dict[str, tuple[str, str]],
        keep: set[str],
    ) -> None:
        """Make the temp index equal HEAD under the staged roots except for ``keep``."""
        restore = []
        for path, entry in staged.items():
            if path.split("/", 1)[0] not in STAGED_ROOTS:
                continue
            if path not in keep and entry != head_modes.get(path):
                old = head_modes.get(path)
                restore.append(Planned(path, old[0], old[1]) if old else Planned(path, None, None))
        for path, (mode, sha) in head_modes.items():
            if path not in keep and path not in staged:
                restore.append(Planned(path, mode, sha))
        if restore:
            run_git(
                self.kernel,
                "update-index",
                "-z",
                "--index-info",
                stdin=_index_info(restore, self.info.null_sha),
                env=self.env,
            )

    def _head_tree(self, head: str) -> str:
        return run_git(self.kernel, "rev-parse", f"{head}^{{tree}}").stdout.strip()

    def _commit_tree(self, tree: str, text: str) -> str:
        """The commit object for ``tree`` on top of HEAD (HEAD does not move yet)."""
        parents = ["-p", self.head] if self.head is not None else []
        return run_git(
            self.kernel,
            "-c",
            f"user.name={GIT_IDENTITY_NAME}",
            "-c",
            f"user.email={GIT_IDENTITY_EMAIL}",
            "commit-tree",
            tree,
            *parents,
            "-F",
            "-",
            stdin=text.encode("utf-8"),
        ).stdout.strip()

    def _move_head(self, commit: str, text: str) -> bool:
        """Compare-and-swap HEAD from the wake's HEAD to ``commit``; False if it moved."""
        moved = run_git(
            self.kernel,
            "update-ref",
            "-m",
            f"commit: {text.split(chr(10), 1)[0]}",
            "HEAD",
            commit,
            self.head or self.info.null_sha,
            check=False,
        )
        return moved.returncode == 0


def unchanged_since_review(
    planned: list[Planned], staged: dict[str, tuple[str, str]]
) -> tuple[list[Planned], list[str]]:
    """(entries staged exactly as reviewed, paths whose content changed after review)."""
    landing: list[Planned] = []
    changed: list[str] = []
    for p in planned:
        got = staged.get(p.path)
        if (got is None) if p.deleted else got == (p.mode, p.sha):
            landing.append(p)
        else:
            changed.append(p.path)
    return landing, changed


def build_and_land(
    kernel: Path,
    info: RepoInfo,
    head: str | None,
    planned: list[Planned],
    head_modes: dict[str, tuple[str, str]],
    message: Callable[[list[str]], str],
    ensure: Callable[[], None],
    pause: Callable[[], None] | None = None,
) -> CommitOutcome:
    """Stage ``planned`` in a fresh temporary index and land it (see :class:`TempIndex`)."""
    index = TempIndex(kernel, info, head)
    try:
        index.start([p.path for p in planned])
        return index.land(planned, head_modes, message, ensure, pause)
    finally:
        index.close()


def _stage_in_real_index(kernel: Path, info: RepoInfo, landed: list[Planned]) -> str | None:
    """Write the committed entries into the real index (retrying briefly if another git
    process holds ``index.lock``); returns a warning when it could not."""
    data = _index_info(landed, info.null_sha)
    deadline = time.monotonic() + _INDEX_RETRY_SECONDS
    while True:
        result = run_git(kernel, "update-index", "-z", "--index-info", stdin=data, check=False)
        if result.returncode == 0:
            return None
        if time.monotonic() >= deadline:
            err = GitError(
                ["git", "update-index", "--index-info"], result.returncode, "", result.stderr
            )
            return f"committed, but the index was not refreshed: {err}"
        time.sleep(0.05)
