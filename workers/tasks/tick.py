"""``subcon.cadence.tick``: one cadence tick (sent by beat every SUBCON_TICK_SECONDS, or by
``subcon tick`` with ``manual=True``, which the duplicate-tick guard lets through)."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.errors import InputError
from workers import routing
from workers.keys import key, redis_client
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.TICK)
    def tick(self: SubconTask, manual: bool = False) -> dict[str, Any]:
        from workers.cadence_tick import run_tick_body

        settings, paths = self.settings, self.paths
        url = settings.effective_redis_url
        if url and not manual and not self.app.conf.task_always_eager:
            # A second beat (or a redelivered tick) within half a period is not a tick.
            # A manual tick (`subcon tick`) is an operator's request: it always runs.
            slot_ms = max(1, int(settings.tick_seconds * 500))
            if not redis_client(url).set(key(paths, "tick-slot"), "1", nx=True, px=slot_ms):
                return {"tick": None, "skipped": "duplicate tick within half a period"}
        try:
            report = run_tick_body(self.app, self.kernel_lock(), self.owner("tick"))
        except InputError as exc:
            from workers.tasks.base import StageFailed

            raise StageFailed(str(exc)) from exc
        report["manual"] = manual
        return report

    return tick
