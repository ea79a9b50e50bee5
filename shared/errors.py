"""One small error hierarchy for the whole project.

Control flow that is not an error (a retry request, a skipped tick) is expressed
with return values, never with these exceptions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class SubconError(Exception):
    """Base of every error subcon raises on purpose."""


class ConfigError(SubconError):
    """Settings, roots or partition configuration are unusable; the message names the fix."""


class InputError(SubconError):
    """Bad input data: the message names the file and, when known, the line."""

    def __init__(self, path: Path | str | None, line: int | None, message: str) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class NameRejected(InputError):
    """An inbox item or file name fails validation; nothing was written."""


class GitError(SubconError):
    """A git command failed; str() shows the command, exit code, stdout and stderr."""

    def __init__(self, cmd: Sequence[str], returncode: int, stdout: str, stderr: str) -> None:
        self.cmd = list(cmd)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        super().__init__(str(self))

    def __str__(self) -> str:
        return (
            f"command {self.cmd!r} exited {self.returncode}\n"
            f"stdout: {self.stdout.strip()}\nstderr: {self.stderr.strip()}"
        )


class LockError(SubconError):
    """Base of kernel-lock failures."""


class LockHeld(LockError):
    """Someone else holds the kernel lock; the caller did not (or could not) wait."""


class LockLost(LockError):
    """The caller's lease expired or was taken over (fence mismatch): stop mutating."""


class ThinTurnError(SubconError):
    """A thin turn (a scan result's turn without text and rows) had to be judged and
    no full turn was available for it: a bug in choosing which turns stay full."""
