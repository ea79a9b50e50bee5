"""The base class of every subcon task: settings, paths, the kernel lock, error mapping.

Known errors become Celery outcomes here, once, by class (:data:`ERROR_TABLE`): lock
errors retry (bounded) where the task holds the kernel lock for its stage; every other
project error fails the task as :class:`~shared.errors.StageFailed` carrying its code
and message (no retry: the input will not change by itself). The reading side is
:mod:`workers.failures`.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from enum import StrEnum
from typing import Any

import redis
from celery import Task

from shared.cadence.runs import RunContext, check_deadline
from shared.errors import LockError, StageFailed, SubconError
from shared.kernel.keys import client_for
from shared.kernel.lock.base import KernelLock, Lease
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from workers.kernel_target import KernelTarget, default_target, resolve
from workers.monitoring import call_texts

LOCK_RETRIES = 8


class Disposition(StrEnum):
    """How a known error ends a task."""

    RETRY = "retry"
    FAIL = "fail"


# The one table: the first row whose class the error is an instance of decides.
ERROR_TABLE: tuple[tuple[type[SubconError], Disposition], ...] = (
    # A busy or lost kernel lock frees up by itself: run the stage again later.
    (LockError, Disposition.RETRY),
    # Bad input, configuration or git state: the same message would fail the same way.
    (SubconError, Disposition.FAIL),
)


def disposition(error: SubconError) -> Disposition:
    for cls, outcome in ERROR_TABLE:
        if isinstance(error, cls):
            return outcome
    return Disposition.FAIL


class SubconTask(Task):
    """Base for subcon tasks; the app carries ``subcon_settings`` and ``subcon_paths``."""

    abstract = True
    max_retries = LOCK_RETRIES

    def use_kernel(self, name: str) -> KernelTarget:
        """Run the rest of this call on the kernel its message names (``kernel=``, see
        :mod:`workers.kernel_target`); an unknown name fails the task in one line."""
        with self.mapped_errors():
            target = resolve(self.app, name)
        self.request.subcon_target = target
        return target

    def target(self) -> KernelTarget:
        """The kernel this task runs on (the app's own outside a task call)."""
        target = getattr(self.request, "subcon_target", None)
        return target if isinstance(target, KernelTarget) else default_target(self.app)

    @property
    def settings(self) -> Settings:
        return self.target().settings

    @property
    def paths(self) -> KernelPaths:
        return self.target().paths

    def apply_async(
        self,
        args: Any = None,
        kwargs: Any = None,
        task_id: str | None = None,
        producer: Any = None,
        link: Any = None,
        link_error: Any = None,
        shadow: str | None = None,
        **options: Any,
    ) -> Any:
        """Send the task, with its arguments shown readably in Flower and the logs.

        Every subcon message goes through here: direct calls, canvas members, the chord
        body, chain steps, errbacks, retries and beat's ticks. Unless the caller set
        them, ``argsrepr`` / ``kwargsrepr`` are :func:`~workers.monitoring.call_texts`
        (JSON, credentials masked, long values shortened) instead of Celery's Python
        repr. An eager app runs the task here and shows nothing, so it skips them.
        """
        if not self.app.conf.task_always_eager:
            shown = call_texts(args, kwargs, self.app.amqp.argsrepr_maxsize)
            options.setdefault("argsrepr", shown[0])
            options.setdefault("kwargsrepr", shown[1])
        return super().apply_async(
            args, kwargs, task_id, producer, link, link_error, shadow, **options
        )

    def kernel_lock(self) -> KernelLock:
        from shared.kernel.lock.factory import open_kernel_lock

        return open_kernel_lock(self.settings, self.paths)

    def redis(self) -> redis.Redis | None:
        """The process's Redis client, or None when no Redis is configured."""
        return client_for(self.settings.effective_redis_url)

    def owner(self, stage: str) -> str:
        task_id = getattr(self.request, "id", None) or "-"
        return f"{self.name}:{stage}:{socket.gethostname()}:{os.getpid()}:{task_id}"

    def retry_countdown(self) -> float:
        retries = int(getattr(self.request, "retries", 0) or 0)
        return float(min(2**retries, 30))

    def retries_left(self) -> bool:
        retries = int(getattr(self.request, "retries", 0) or 0)
        return self.max_retries is None or retries < self.max_retries

    @contextlib.contextmanager
    def mapped_errors(self, *, may_retry: bool = False) -> Iterator[None]:
        """Map project errors raised in the block by :data:`ERROR_TABLE`.

        ``may_retry``: the block holds the kernel lock for a stage, so a RETRY error
        retries the task while retries are left; otherwise it fails like any other.
        """
        try:
            yield
        except SubconError as exc:
            if may_retry and disposition(exc) is Disposition.RETRY and self.retries_left():
                raise self.retry(exc=exc, countdown=self.retry_countdown()) from exc
            raise StageFailed.wrap(exc) from exc

    @contextlib.contextmanager
    def locked(self, stage: str) -> Iterator[Lease]:
        """Hold the kernel lock for the block, mapping its errors (lock errors retry)."""
        with (
            self.mapped_errors(may_retry=True),
            self.kernel_lock().hold(self.owner(stage)) as lease,
        ):
            yield lease

    def run_in_time(self, run_json: dict[str, Any] | None) -> RunContext | None:
        """The run a stage belongs to (None for a manual one), failing the task as
        ``PassTimeout`` when the run's time budget is spent."""
        run = RunContext.from_json(run_json) if run_json else None
        with self.mapped_errors():
            check_deadline(run)
        return run
