"""``subcon.cadence.run-failed``: the error callback of every tick-started run.

Idempotent (several stages of one run may fail and each calls it) and never does git
work: it only records the outcome (``timeout`` or ``error``) and checks the item off.
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from celery.result import AsyncResult

from shared.cadence.runs import RunContext, finish_run
from shared.kernels.registry import DEFAULT_NAME
from workers import routing
from workers.failures import outcome_of
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.RUN_FAILED)
    def run_failed(
        self: SubconTask, failed_task_id: str, run_json: dict[str, Any], kernel: str = DEFAULT_NAME
    ) -> dict[str, Any]:
        self.use_kernel(kernel)
        run = RunContext.from_json(run_json)
        exc = AsyncResult(failed_task_id, app=self.app).result
        outcome = outcome_of(exc if isinstance(exc, BaseException) else None)
        with self.locked("run-failed"):
            recorded = finish_run(self.paths, self.settings, run, outcome)
        return {"partition": run.partition, "outcome": outcome, "recorded": recorded}

    return run_failed
