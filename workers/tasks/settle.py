"""``subcon.memory-weaver.settle``: acks, the directed item, the report; then a commit request."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.cadence.runs import record_weaver_end
from shared.kernels.registry import DEFAULT_NAME
from workers import routing
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.SETTLE)
    def settle(
        self: SubconTask,
        stages_json: dict[str, Any],
        plan_json: dict[str, Any],
        run_json: dict[str, Any] | None = None,
        commit: bool = True,
        kernel: str = DEFAULT_NAME,
    ) -> dict[str, Any]:
        from shared.weaver import pipeline
        from shared.weaver.results import StageResults
        from workers.canvas import request_commit

        self.use_kernel(kernel)

        run = self.run_in_time(run_json)
        with self.mapped_errors():
            plan = pipeline.PassPlan.from_json(plan_json)
            stages = StageResults.from_json(stages_json)
        with self.locked("settle") as lease:
            report: dict[str, Any] = pipeline.settle(
                self.paths,
                self.settings,
                plan,
                stages.crystallized,
                stages.updated,
                lease,
            )
            record_weaver_end(self.paths, self.settings, run, report, lease)
        # What the scan read, for the operator (malformed lines skipped, with file:line).
        report["read_stats"] = stages.crystallized.stats.to_json()
        # Outside the lock: in embedded mode the commit runs right here and takes it.
        if commit:
            report["commit_request"] = request_commit(self.app, self.target())
        return report

    return settle
