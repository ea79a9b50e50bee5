"""``subcon.cadence.tick``: one cadence tick (sent by beat every SUBCON_TICK_SECONDS, or by
``subcon tick`` with ``manual=True``, which the duplicate-tick guard lets through)."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.cadence.ticks import claim_tick_slot
from workers import routing
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.TICK)
    def tick(self: SubconTask, manual: bool = False) -> dict[str, Any]:
        from workers.cadence_tick import run_tick_body

        client = self.redis()
        # A manual tick (`subcon tick`) is an operator's request: it always runs.
        guarded = not manual and not self.app.conf.task_always_eager
        slot = self.paths, self.settings.tick_seconds
        if guarded and client is not None and not claim_tick_slot(client, *slot):
            return {"tick": None, "skipped": "duplicate tick within half a period"}
        with self.mapped_errors():
            report = run_tick_body(self.app, self.kernel_lock(), self.owner("tick"))
        report["manual"] = manual
        return report

    return tick
