"""``subcon.cadence.tick``: one cadence tick (sent by beat every SUBCON_TICK_SECONDS, or by
``subcon tick`` with ``manual=True``, which the duplicate-tick guard lets through).

Beat's tick carries ``fanout=True``: it first sends one tick per kernel of the registry
(:func:`workers.cadence_tick.fan_out`), then ticks the settings' own kernel, so one beat
entry drives every kernel the cluster serves."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.cadence.ticks import claim_tick_slot
from shared.kernels.registry import DEFAULT_NAME
from workers import routing
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.TICK)
    def tick(
        self: SubconTask, manual: bool = False, fanout: bool = False, kernel: str = DEFAULT_NAME
    ) -> dict[str, Any]:
        from workers.cadence_tick import fan_out, run_tick_body

        self.use_kernel(kernel)

        sent: list[str] | None = None
        if fanout:
            with self.mapped_errors():
                sent = fan_out(self.app)
            if sent and not self.paths.kernel.is_dir():
                # A cluster of registered kernels only: the settings name no kernel.
                return {"tick": None, "fanned_out": sent, "skipped": "no kernel dir"}
        client = self.redis()
        # A manual tick (`subcon tick`) is an operator's request: it always runs.
        guarded = not manual and not self.app.conf.task_always_eager
        slot = self.paths, self.settings.tick_seconds
        if guarded and client is not None and not claim_tick_slot(client, *slot):
            skipped: dict[str, Any] = {
                "tick": None,
                "skipped": "duplicate tick within half a period",
            }
            if sent is not None:
                skipped["fanned_out"] = sent  # the other kernels' ticks were sent all the same
            return skipped
        with self.mapped_errors():
            report = run_tick_body(self.app, self.kernel_lock(), self.owner("tick"), self.target())
        report["manual"] = manual
        if sent is not None:
            report["fanned_out"] = sent
        return report

    return tick
