"""The base class of every subcon task: settings, paths, the kernel lock, error mapping.

Known errors become Celery outcomes here, once: ``LockHeld`` and ``LockLost`` retry
(bounded), ``InputError`` fails the task with its message (no retry: the input will not
change by itself).
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from typing import Any

from celery import Task

from shared.cadence.runs import RunContext
from shared.errors import InputError, LockHeld, LockLost
from shared.kernel.lock.base import KernelLock, Lease
from shared.kernel.paths import KernelPaths
from shared.settings import Settings

LOCK_RETRIES = 8


class StageFailed(Exception):
    """A stage failed on bad input; the message names the file and line."""


class PassTimeout(Exception):
    """The run's deadline (its partition's max_duration_ms) passed between stages."""


class SubconTask(Task):
    """Base for subcon tasks; the app carries ``subcon_settings`` and ``subcon_paths``."""

    abstract = True
    max_retries = LOCK_RETRIES

    @property
    def settings(self) -> Settings:
        settings: Settings = self.app.subcon_settings
        return settings

    @property
    def paths(self) -> KernelPaths:
        paths: KernelPaths = self.app.subcon_paths
        return paths

    def kernel_lock(self) -> KernelLock:
        from shared.kernel.lock.factory import open_kernel_lock

        return open_kernel_lock(self.settings, self.paths)

    def owner(self, stage: str) -> str:
        task_id = getattr(self.request, "id", None) or "-"
        return f"{self.name}:{stage}:{socket.gethostname()}:{os.getpid()}:{task_id}"

    def retry_countdown(self) -> float:
        retries = int(getattr(self.request, "retries", 0) or 0)
        return float(min(2**retries, 30))

    @contextlib.contextmanager
    def locked(self, stage: str) -> Iterator[Lease]:
        """Hold the kernel lock for the block, mapping lock and input errors."""
        try:
            with self.kernel_lock().hold(self.owner(stage)) as lease:
                yield lease
        except (LockHeld, LockLost) as exc:
            raise self.retry(exc=exc, countdown=self.retry_countdown()) from exc
        except InputError as exc:
            raise StageFailed(str(exc)) from exc

    @contextlib.contextmanager
    def input_errors(self) -> Iterator[None]:
        """Turn InputError into a plain failure carrying its message."""
        try:
            yield
        except InputError as exc:
            raise StageFailed(str(exc)) from exc


def run_of(run_json: dict[str, Any] | None) -> RunContext | None:
    return RunContext.from_json(run_json) if run_json else None


def check_deadline(run: RunContext | None) -> None:
    """Stop a run whose partition time budget is spent before starting the next stage."""
    if run is not None and run.expired():
        raise PassTimeout(f"{run.partition} run from tick {run.tick} passed its deadline")


TIMEOUT_ERRORS = frozenset({"SoftTimeLimitExceeded", "TimeLimitExceeded", "PassTimeout"})


def outcome_of(exc: BaseException | None) -> str:
    """The outcome of a failed run (docs/formats.md §7.4): ``timeout`` for time limits,
    else ``error``."""
    if exc is None:
        return "error"
    # A chord body fails with ChordError naming the header task's exception.
    text = f"{type(exc).__name__} {exc}"
    return "timeout" if any(name in text for name in TIMEOUT_ERRORS) else "error"
