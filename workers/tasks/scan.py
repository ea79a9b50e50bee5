"""``subcon.memory-weaver.scan``: scan one spine slice against the pass's board snapshot.

Read-only (no kernel lock): it returns fragments as data, so any host with a view of
``var/events`` can run it and a redelivered message is harmless.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from celery import Celery

from shared.kernels.registry import DEFAULT_NAME
from shared.testhooks import checkpoint
from workers import progress, routing
from workers.tasks.base import SubconTask

# Progress states are written at most this often per slice (plus the final one).
PROGRESS_EVERY_S = 0.5


def progress_reporter(task: SubconTask, token: str) -> Callable[[int, int], None]:
    """A throttled ``(done, total)`` callback: PROGRESS state + in-process listeners."""
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < PROGRESS_EVERY_S:
            return
        last[0] = now
        progress.notify(token, done, total)
        if getattr(task.request, "id", None):
            task.update_state(state="PROGRESS", meta={"done": done, "total": total, "slice": token})

    return report


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.SCAN)
    def scan(
        self: SubconTask,
        plan_json: dict[str, Any],
        slice_json: dict[str, Any],
        run_json: dict[str, Any] | None = None,
        kernel: str = DEFAULT_NAME,
    ) -> dict[str, Any]:
        from shared.weaver.pipeline import PassPlan, scan_slice
        from shared.weaver.records import SlicePlan

        self.use_kernel(kernel)

        self.run_in_time(run_json)
        token = ":".join(str(slice_json.get(k, "")) for k in ("token", "byte_start", "role"))
        with self.mapped_errors():
            plan = PassPlan.from_json(plan_json)
            planned = SlicePlan.from_json(slice_json)
            result = scan_slice(
                self.paths, self.settings, plan, planned, progress_reporter(self, token)
            ).to_json()
        # Fault tests pause here (slice read, result not yet returned) to kill the worker.
        checkpoint("scan", token)
        progress.notify(token, 1, 1)
        return result

    return scan
