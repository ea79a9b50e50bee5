"""One small error hierarchy for the whole project.

Control flow that is not an error (a retry request, a skipped tick) is expressed
with return values, never with these exceptions.

Every class has a ``code`` (its own, or its class name in kebab case): the name it
goes by when it crosses a process boundary. A Celery task failing on a known error
raises :class:`StageFailed`, whose only argument is the JSON object
``{"subcon_error": code, "message": text}``; whoever reads the failure back (the CLI,
the run's error callback) rebuilds the original class from that code with
:func:`error_from`, whether or not Celery could import ``StageFailed`` itself (it
rebuilds unknown classes as look-alikes that keep the arguments).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Self

# The payload key that marks a StageFailed argument; also what a ChordError's text holds.
WIRE_KEY = "subcon_error"
_WIRE_IN_TEXT = re.compile(rf"['\"]{WIRE_KEY}['\"]: ['\"]([a-z-]+)['\"]")

_BY_CODE: dict[str, type[SubconError]] = {}


class SubconError(Exception):
    """Base of every error subcon raises on purpose."""

    code: ClassVar[str] = "error"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        code = cls.__dict__.get("code")
        if code is None:
            # A subclass that names no code goes by its class name, in kebab case.
            code = re.sub(r"(?<!^)(?=[A-Z])", "-", cls.__name__).lower()
            cls.code = code
        if code in _BY_CODE:
            raise TypeError(f"error code {code!r} of {cls.__name__} is {_BY_CODE[code].__name__}'s")
        _BY_CODE[code] = cls

    @classmethod
    def from_message(cls, message: str) -> Self:
        """This error rebuilt from its text alone (what crosses a task boundary)."""
        return cls(message)

    def payload(self) -> dict[str, str]:
        """The JSON form :class:`StageFailed` carries."""
        return {WIRE_KEY: self.code, "message": str(self)}


_BY_CODE[SubconError.code] = SubconError


class ConfigError(SubconError):
    """Settings, roots or partition configuration are unusable; the message names the fix."""

    code = "config"


class RegistryError(ConfigError):
    """The kernel registry refused a change or cannot be read: a bad or taken name, a dir
    that overlaps a registered one, an unknown name; the message names the fix."""

    code = "registry"


class UnknownKernel(RegistryError):
    """No kernel of that name is registered (``subcon kernels list`` shows them)."""

    code = "unknown-kernel"


class InputError(SubconError):
    """Bad input data: the message names the file and, when known, the line."""

    code = "input"

    def __init__(
        self,
        path: Path | str | None,
        line: int | None,
        message: str,
        *,
        column: int | None = None,
    ) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.column = column  # 1-based, when known (``path:line:column: message``)
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        if self.column is not None:
            return f"{self.path}:{self.line}:{self.column}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"

    @classmethod
    def from_message(cls, message: str) -> Self:
        return cls(None, None, message)


class NameRejected(InputError):
    """An inbox item or file name fails validation; nothing was written."""

    code = "name-rejected"


class GitError(SubconError):
    """A git command failed; str() shows the command, exit code, stdout and stderr."""

    code = "git"

    def __init__(self, cmd: Sequence[str], returncode: int, stdout: str, stderr: str) -> None:
        self.cmd = list(cmd)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.text: str | None = None
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.text is not None:
            return self.text
        return (
            f"command {self.cmd!r} exited {self.returncode}\n"
            f"stdout: {self.stdout.strip()}\nstderr: {self.stderr.strip()}"
        )

    @classmethod
    def from_message(cls, message: str) -> Self:
        # Only the text crossed the boundary; it already names the command and streams.
        error = cls([], -1, "", "")
        error.text = message
        error.args = (message,)
        return error


class LockError(SubconError):
    """Base of kernel-lock failures."""

    code = "lock"


class LockHeld(LockError):
    """Someone else holds the kernel lock; the caller did not (or could not) wait."""

    code = "lock-held"


class LockLost(LockError):
    """The caller's lease expired or was taken over (fence mismatch): stop mutating."""

    code = "lock-lost"


class BrokerUnreachable(SubconError):
    """The Celery broker (Redis) did not answer: nothing was sent to the cluster."""

    code = "broker-unreachable"


class ThinTurnError(SubconError):
    """A thin turn (a scan result's turn without text and rows) had to be judged and
    no full turn was available for it: a bug in choosing which turns stay full."""

    code = "thin-turn"


class PassTimeout(SubconError):
    """A run's deadline (its partition's max_duration_ms) passed between stages."""

    code = "timeout"


class StageFailed(SubconError):
    """A task failed on a known error: the form every known error crosses Celery in.

    Its one argument is the error's :meth:`SubconError.payload`, so Celery's JSON
    result (which keeps an exception's class name and arguments only) carries the code;
    ``str()`` is the original message.
    """

    code = "stage-failed"

    def __init__(self, payload: dict[str, str]) -> None:
        self.payload_json = dict(payload)
        super().__init__(payload)

    def __str__(self) -> str:
        return str(self.payload_json.get("message", ""))

    @classmethod
    def wrap(cls, error: SubconError) -> StageFailed:
        return error if isinstance(error, StageFailed) else cls(error.payload())

    def error(self) -> SubconError:
        """The original error, rebuilt from its code (a plain SubconError if unknown)."""
        return rebuild(self.payload_json)

    @classmethod
    def from_message(cls, message: str) -> Self:
        return cls({WIRE_KEY: SubconError.code, "message": message})


def rebuild(payload: dict[str, Any]) -> SubconError:
    """The error a :meth:`SubconError.payload` describes."""
    cls = _BY_CODE.get(str(payload.get(WIRE_KEY)), SubconError)
    if cls is StageFailed:
        cls = SubconError
    return cls.from_message(str(payload.get("message", "")))


def error_from(exc: BaseException | None) -> SubconError | None:
    """A failed task's exception as the project error it stands for, else None.

    Reads the payload by its shape, not by the exception's class: Celery rebuilds a
    failure it cannot import as a look-alike class that keeps the arguments.
    """
    if exc is None:
        return None
    if isinstance(exc, StageFailed):
        return exc.error()
    if isinstance(exc, SubconError):
        return exc
    args: tuple[Any, ...] = tuple(getattr(exc, "args", ()))
    payload = args[0] if len(args) == 1 else None
    if isinstance(payload, dict) and WIRE_KEY in payload:
        return rebuild(payload)
    return None


def code_in_text(text: str) -> str | None:
    """The error code a text quoting a StageFailed holds (a ChordError names its failed
    dependency only as text), else None."""
    found = _WIRE_IN_TEXT.search(text)
    return found.group(1) if found else None


def error_codes() -> dict[str, type[SubconError]]:
    """Every error code and its class (a copy)."""
    return dict(_BY_CODE)
