"""Read-only git queries the committer needs, all through ``run_git``.

One ``git status`` per wake; HEAD's entries with one ``ls-tree``; every old blob
with one ``cat-file --batch``. Pure parsers sit next to their thin readers.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from shared.committer.status import StatusEntry, parse_status_z
from shared.errors import GitError, InputError
from shared.kernel.git import run_git

LITERAL = {"GIT_LITERAL_PATHSPECS": "1"}
# Files git leaves while an operation that owns the index is half done.
IN_PROGRESS = (
    ("MERGE_HEAD", "a merge is in progress"),
    ("CHERRY_PICK_HEAD", "a cherry-pick is in progress"),
    ("REVERT_HEAD", "a revert is in progress"),
    ("rebase-merge", "a rebase is in progress"),
    ("rebase-apply", "a rebase or am is in progress"),
    ("BISECT_LOG", "a bisect is in progress"),
)


@dataclass(frozen=True)
class RepoInfo:
    git_dir: Path
    object_format: str

    @property
    def null_sha(self) -> str:
        return "0" * (64 if self.object_format == "sha256" else 40)


@dataclass(frozen=True)
class TreeEntry:
    mode: str
    sha: str


def repo_info(kernel: Path) -> RepoInfo | None:
    """The repository whose top level is the kernel itself, or None (docs/formats.md §3.4)."""
    result = run_git(
        kernel,
        "rev-parse",
        "--show-toplevel",
        "--absolute-git-dir",
        "--show-object-format",
        check=False,
    )
    if result.returncode != 0:
        return None
    rows = result.stdout.split("\n")
    if len(rows) < 3:
        return None
    top, git_dir, fmt = rows[0], rows[1], rows[2].strip() or "sha1"
    if os.path.realpath(top) != os.path.realpath(kernel):
        return None
    return RepoInfo(Path(git_dir), fmt)


def damaged_repository(kernel: Path) -> GitError | None:
    """Why git refuses the kernel's own ``.git``, as a one-line GitError; None when git
    opens it, or when the kernel has no ``.git`` (then it is simply not a repository).

    For a kernel :func:`repo_info` found no repository in: a ``.git`` git will not open
    (a truncated ``HEAD``, a deleted object store) is a damaged repository, an error to
    report, never a kernel to skip as "not a git repository".
    """
    dot_git = kernel / ".git"
    if not (dot_git.exists() or dot_git.is_symlink()):
        return None
    # An explicit --git-dir: git judges this .git alone instead of searching upwards.
    result = run_git(kernel, "--git-dir=.git", "rev-parse", "--git-dir", check=False)
    if result.returncode == 0:
        return None
    said = next((ln.strip() for ln in result.stderr.splitlines() if ln.strip()), "no reason")
    return GitError.from_message(
        f"the kernel's git repository {dot_git} is damaged ({said}); nothing committed: "
        "repair it or restore it from a clone"
    )


def blocker(info: RepoInfo) -> str | None:
    """Why git's index must not be touched now (index.lock, merge/rebase...), or None."""
    if (info.git_dir / "index.lock").exists():
        return ".git/index.lock exists"
    for name, why in IN_PROGRESS:
        if (info.git_dir / name).exists():
            return why
    return None


def head_commit(kernel: Path) -> str | None:
    """HEAD's commit id, or None in a repository with no commit yet."""
    result = run_git(kernel, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False)
    return result.stdout.strip() if result.returncode == 0 else None


def read_status(kernel: Path) -> list[StatusEntry]:
    """``git status --porcelain=v1 -z -uall``, without taking optional index locks."""
    result = run_git(kernel, "--no-optional-locks", "status", "--porcelain=v1", "-z", "-uall")
    return parse_status_z(result.stdout)


def parse_ls_tree_z(text: str) -> dict[str, TreeEntry]:
    """Parse ``git ls-tree -r -z`` output into path -> (mode, sha)."""
    out: dict[str, TreeEntry] = {}
    for record in text.split("\0"):
        if not record:
            continue
        meta, _, path = record.partition("\t")
        parts = meta.split(" ")
        if len(parts) != 3 or not path:
            raise InputError("git ls-tree", None, f"malformed record {record!r}")
        out[path] = TreeEntry(parts[0], parts[2])
    return out


def head_entries(kernel: Path, head: str | None) -> dict[str, TreeEntry]:
    """HEAD's file entries under the allowlisted top-level dirs."""
    if head is None:
        return {}
    result = run_git(
        kernel,
        "ls-tree",
        "-r",
        "-z",
        "--full-tree",
        head,
        "--",
        "memory",
        "subconscious",
        "config",
        env=LITERAL,
    )
    return parse_ls_tree_z(result.stdout)


def read_blobs(kernel: Path, shas: list[str]) -> dict[str, bytes]:
    """Contents of the given blobs with one ``git cat-file --batch``."""
    unique = sorted(set(shas))
    if not unique:
        return {}
    result = run_git(kernel, "cat-file", "--batch", stdin=("\n".join(unique) + "\n").encode())
    # run_git decodes with surrogateescape, so encoding back gives git's exact bytes.
    data = result.stdout.encode("utf-8", "surrogateescape")
    out: dict[str, bytes] = {}
    pos = 0
    for sha in unique:
        header_end = data.index(b"\n", pos)
        header = data[pos:header_end].decode()
        fields = header.split(" ")
        if len(fields) != 3:
            raise GitError(["git", "cat-file", "--batch"], 0, header, "missing object")
        size = int(fields[2])
        start = header_end + 1
        out[sha] = data[start : start + size]
        pos = start + size + 1
    return out


def blob_sha(data: bytes, object_format: str = "sha1") -> str:
    """The git blob id of ``data`` (what ``git hash-object --no-filters`` prints)."""
    digest = hashlib.sha256 if object_format == "sha256" else hashlib.sha1
    return digest(b"blob %d\0" % len(data) + data).hexdigest()


def drop_unreachable_blob(kernel: Path, info: RepoInfo, sha: str) -> bool:
    """Delete the loose object ``sha`` (a blob staged for a file held back because it
    holds a credential) when nothing references it: no ref's history and not the
    real index. ``git gc`` would prune it only after two weeks; a credential must not
    wait in ``.git/objects`` that long. True when it was deleted.
    """
    obj = info.git_dir / "objects" / sha[:2] / sha[2:]
    if not obj.is_file():
        return False
    staged = run_git(kernel, "ls-files", "-s", "-z").stdout
    if f" {sha} " in staged:
        return False
    used = run_git(kernel, "log", "--all", "--format=%H", f"--find-object={sha}", "-1").stdout
    if used.strip():
        return False
    os.remove(obj)
    return True
