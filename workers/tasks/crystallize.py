"""``subcon.memory-weaver.crystallize``: fold the chord's fragments into kernel files."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.kernels.registry import DEFAULT_NAME
from workers import routing
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.CRYSTALLIZE)
    def crystallize(
        self: SubconTask,
        slice_results: list[dict[str, Any]],
        plan_json: dict[str, Any],
        run_json: dict[str, Any] | None = None,
        kernel: str = DEFAULT_NAME,
    ) -> dict[str, Any]:
        from shared.weaver import pipeline
        from shared.weaver.records import ScanResult

        self.use_kernel(kernel)

        self.run_in_time(run_json)
        with self.mapped_errors():
            plan = pipeline.PassPlan.from_json(plan_json)
            results = [ScanResult.from_json(r) for r in slice_results]
        with self.locked("crystallize") as lease:
            result = pipeline.crystallize(self.paths, self.settings, plan, results, lease)
        return result.to_json()

    return crystallize
