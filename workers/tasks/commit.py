"""``subcon.memory-committer.commit``: one committer run (queue ``commit``, one worker)."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.cadence.runs import RunContext
from shared.kernels.registry import DEFAULT_NAME
from workers import routing
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.COMMIT)
    def commit(
        self: SubconTask, run_json: dict[str, Any] | None = None, kernel: str = DEFAULT_NAME
    ) -> dict[str, Any]:
        from shared.cadence.commit_wake import commit_run

        self.use_kernel(kernel)

        # Not run_in_time: commit_run clears the queued-commit marker before it checks.
        run = RunContext.from_json(run_json) if run_json else None
        # may_retry: recording the run's end retries the task when the lock is busy.
        with self.mapped_errors(may_retry=True):
            report = commit_run(
                self.paths,
                self.settings,
                self.kernel_lock(),
                self.owner("commit-finish"),
                run=run,
                client=self.redis(),
            )
        result: dict[str, Any] = report.to_json()
        return result

    return commit
