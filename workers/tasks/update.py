"""``subcon.memory-weaver.update``: the intuition-updater stage over the board."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.kernels.registry import DEFAULT_NAME
from workers import routing
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.UPDATE)
    def update(
        self: SubconTask,
        crystallized_json: dict[str, Any],
        plan_json: dict[str, Any],
        run_json: dict[str, Any] | None = None,
        kernel: str = DEFAULT_NAME,
    ) -> dict[str, Any]:
        from shared.weaver import pipeline
        from shared.weaver.results import CrystallizeResult, StageResults

        self.use_kernel(kernel)

        self.run_in_time(run_json)
        with self.mapped_errors():
            plan = pipeline.PassPlan.from_json(plan_json)
            crystallized = CrystallizeResult.from_json(crystallized_json)
        with self.locked("update") as lease:
            updated = pipeline.update(self.paths, self.settings, plan, crystallized, lease)
        # settle needs both stages' results; a chain passes only the previous one on.
        return StageResults(crystallized=crystallized, updated=updated).to_json()

    return update
