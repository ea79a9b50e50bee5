"""Known errors cross Celery as StageFailed with a code and come back as their own class,
also when the reading side cannot import StageFailed; the task layer maps them by class."""

from __future__ import annotations

import sys

import pytest
from celery import Celery
from celery.exceptions import ChordError, SoftTimeLimitExceeded, TimeLimitExceeded

from shared.errors import (
    ConfigError,
    GitError,
    InputError,
    LockHeld,
    LockLost,
    NameRejected,
    PassTimeout,
    StageFailed,
    SubconError,
    ThinTurnError,
    code_in_text,
    error_codes,
    error_from,
)
from workers import serialization
from workers.failures import describe, outcome_of
from workers.tasks.base import Disposition, disposition

SAMPLES: list[SubconError] = [
    SubconError("plain"),
    ConfigError("SUBCON_TICK_SECONDS: not a number"),
    InputError("var/events/2026-01-02.jsonl", 7, "not JSON"),
    NameRejected("inbox/../x.pending", None, "refused name"),
    GitError(["git", "commit"], 128, "", "fatal: 中文 stderr"),
    LockHeld("held by tick"),
    LockLost("fence 3 != 4"),
    ThinTurnError("turn 4 is thin"),
    PassTimeout("memory-weaver run from tick 3 passed its deadline"),
]


def backend() -> object:
    serialization.install()
    app = Celery("codes", set_as_current=False)
    app.conf.update(result_backend="cache+memory://", result_serializer="json")
    return app.backend


def over_the_wire(exc: BaseException, *, forget: str | None = None) -> BaseException:
    """``exc`` stored as a JSON task failure and read back, as a client would; with
    ``forget``, the reader has not imported that module (Celery makes a look-alike)."""
    be = backend()
    stored = serialization.loads(serialization.dumps(be.prepare_exception(exc)))  # type: ignore[attr-defined]
    saved = sys.modules.pop(forget) if forget else None
    try:
        back: BaseException = be.exception_to_python(stored)  # type: ignore[attr-defined]
    finally:
        if forget and saved is not None:
            sys.modules[forget] = saved
    return back


def test_every_code_is_unique_and_names_its_class() -> None:
    codes = error_codes()
    assert len(set(codes.values())) == len(codes)
    for sample in SAMPLES:
        assert codes[sample.code] is type(sample)


@pytest.mark.parametrize("error", SAMPLES, ids=lambda e: e.code)
def test_known_error_round_trips_by_code(error: SubconError) -> None:
    back = over_the_wire(StageFailed.wrap(error))
    assert isinstance(back, StageFailed)
    rebuilt = error_from(back)
    assert type(rebuilt) is type(error)
    assert str(rebuilt) == str(error)


@pytest.mark.parametrize("error", SAMPLES, ids=lambda e: e.code)
def test_round_trip_without_importable_class(error: SubconError) -> None:
    back = over_the_wire(StageFailed.wrap(error), forget="shared.errors")
    assert not isinstance(back, StageFailed)  # a look-alike Celery made
    rebuilt = error_from(back)
    assert type(rebuilt) is type(error)
    assert str(rebuilt) == str(error)


def test_unknown_code_reads_as_plain_subcon_error() -> None:
    back = over_the_wire(StageFailed({"subcon_error": "from-a-newer-version", "message": "m"}))
    rebuilt = error_from(back)
    assert type(rebuilt) is SubconError and str(rebuilt) == "m"


def test_foreign_exceptions_are_not_project_errors() -> None:
    assert error_from(ValueError({"code": "input"})) is None
    assert error_from(KeyError("subcon_error")) is None
    assert describe(KeyError("x")) == "KeyError: 'x'"
    assert describe(StageFailed.wrap(PassTimeout("late"))) == "PassTimeout: late"


def test_chord_error_text_keeps_the_code() -> None:
    culprit = StageFailed.wrap(PassTimeout("late"))
    assert code_in_text(f"Dependency abc raised {culprit!r}") == "timeout"
    assert outcome_of(ChordError(f"Dependency abc raised {culprit!r}")) == "timeout"
    bad = StageFailed.wrap(InputError("e.jsonl", 3, "bad"))
    assert outcome_of(ChordError(f"Dependency abc raised {bad!r}")) == "error"
    assert outcome_of(ChordError("Dependency abc raised TimeLimitExceeded(60.0)")) == "timeout"


def test_celery_time_limits_are_timeouts_by_class() -> None:
    assert outcome_of(over_the_wire(TimeLimitExceeded(60.0))) == "timeout"
    assert outcome_of(over_the_wire(SoftTimeLimitExceeded())) == "timeout"
    assert outcome_of(over_the_wire(StageFailed.wrap(PassTimeout("late")))) == "timeout"
    assert outcome_of(over_the_wire(StageFailed.wrap(LockLost("x")))) == "error"


def test_mapping_table_retries_lock_errors_only() -> None:
    assert [disposition(e) for e in SAMPLES] == [
        Disposition.RETRY if isinstance(e, (LockHeld, LockLost)) else Disposition.FAIL
        for e in SAMPLES
    ]
