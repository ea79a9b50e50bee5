"""Reading a failed task back: the project error it stands for, the run outcome it means.

Tasks fail on known errors as :class:`~shared.errors.StageFailed` (see
:mod:`workers.tasks.base`); here the failure is decoded by its error code, never by
the name of its class. Celery's own time limits are matched by class; a chord body's
``ChordError`` names the dependency that failed only in its text, so that text is
read for the code (or Celery's time-limit class) it quotes.
"""

from __future__ import annotations

from celery.exceptions import ChordError, SoftTimeLimitExceeded, TimeLimitExceeded

from shared.errors import PassTimeout, code_in_text, error_from

TIME_LIMITS: tuple[type[BaseException], ...] = (SoftTimeLimitExceeded, TimeLimitExceeded)


def describe(exc: BaseException) -> str:
    """``Class: message`` of a failure, naming the project error it stands for."""
    shown: BaseException = error_from(exc) or exc
    return f"{type(shown).__name__}: {shown}"


def outcome_of(exc: BaseException | None) -> str:
    """The outcome of a failed run (docs/formats.md §7.4): ``timeout`` for time limits,
    else ``error``."""
    if exc is None:
        return "error"
    if isinstance(exc, TIME_LIMITS) or isinstance(error_from(exc), PassTimeout):
        return "timeout"
    if isinstance(exc, ChordError):
        text = str(exc)
        if code_in_text(text) == PassTimeout.code:
            return "timeout"
        if any(f"raised {cls.__name__}(" in text for cls in TIME_LIMITS):
            return "timeout"
    return "error"
