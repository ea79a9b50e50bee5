"""The one funnel for git commands. Nothing else in subcon builds a git subprocess.

Every call runs with a hermetic environment (no user/system config, no inherited
``GIT_*`` variables), ``safe.directory`` for the kernel, and the ``aladuo`` identity,
as the original runtime does (docs/formats.md §11.2).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from shared.constants import GIT_IDENTITY_EMAIL, GIT_IDENTITY_NAME
from shared.errors import GitError


class GitResult(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The process environment minus inherited ``GIT_*`` plus the hermetic settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME=GIT_IDENTITY_NAME,
        GIT_AUTHOR_EMAIL=GIT_IDENTITY_EMAIL,
        GIT_COMMITTER_NAME=GIT_IDENTITY_NAME,
        GIT_COMMITTER_EMAIL=GIT_IDENTITY_EMAIL,
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    if extra:
        env.update(extra)
    return env


def run_git(
    cwd: Path,
    *args: str,
    check: bool = True,
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
) -> GitResult:
    """Run ``git <args>`` in ``cwd`` and return (rc, stdout, stderr) as text.

    stdout is decoded as UTF-8 with ``surrogateescape`` so that odd file names in
    ``-z`` output survive a round trip back into a pathspec.

    Raises:
        GitError: the command exited non-zero and ``check`` is true.
    """
    cmd: Sequence[str] = (
        "git",
        "-c",
        f"safe.directory={cwd}",
        "-c",
        "core.quotepath=false",
        "-c",
        "commit.gpgsign=false",
        *args,
    )
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=git_env(env),
        check=False,
    )
    result = GitResult(
        proc.returncode,
        proc.stdout.decode("utf-8", "surrogateescape"),
        proc.stderr.decode("utf-8", "replace"),
    )
    if check and proc.returncode != 0:
        raise GitError(cmd, proc.returncode, result.stdout, result.stderr)
    return result
