"""``subcon.cadence.tick``: one cadence tick (sent by beat every SUBCON_TICK_SECONDS, or by
``subcon tick`` with ``manual=True``, which the duplicate-tick guard lets through).

Beat's tick carries ``fanout=True``: it first sends one tick per kernel of the registry
(:func:`workers.cadence_tick.fan_out`), then ticks the settings' own kernel, so one beat
entry drives every kernel the cluster serves."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.kernels.registry import DEFAULT_NAME
from workers import routing
from workers.tasks.base import SubconTask


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.TICK)
    def tick(
        self: SubconTask, manual: bool = False, fanout: bool = False, kernel: str = DEFAULT_NAME
    ) -> dict[str, Any]:
        from workers.cadence_tick import run_tick

        self.use_kernel(kernel)

        with self.mapped_errors():
            return run_tick(
                self.app,
                self.kernel_lock(),
                self.owner("tick"),
                self.target(),
                self.redis(),
                manual=manual,
                fanout=fanout,
            )

    return tick
