"""Redis guards, run locally against a real Redis (no worker needed): the tick slot (a
second tick within half a period is not a tick) and the commit-request collapse."""

from __future__ import annotations

from shared.cadence.ticks import read_mirror
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from workers import routing
from workers.app import make_app
from workers.canvas import request_commit


def test_second_tick_within_half_a_period_is_dropped(demo: KernelPaths, redis_url: str) -> None:
    settings = Settings(
        kernel_dir=demo.kernel, runtime_dir=demo.runtime, broker_url=redis_url, tick_seconds=600
    )
    app = make_app(settings)
    assert not app.conf.task_always_eager
    tick = app.tasks[routing.TICK]
    first = tick.apply().get()
    second = tick.apply().get()
    assert first["tick"] == 1
    assert [d["partition"] for d in first["dispatched"]] == ["memory-committer", "memory-weaver"]
    assert all("task_id" in d for d in first["dispatched"])
    assert second["tick"] is None and "duplicate" in second["skipped"]
    assert read_mirror(demo) == 1


def test_commit_requests_collapse_while_one_is_queued(demo: KernelPaths, redis_url: str) -> None:
    settings = Settings(kernel_dir=demo.kernel, runtime_dir=demo.runtime, broker_url=redis_url)
    app = make_app(settings)
    first = request_commit(app)
    assert "task_id" in first
    assert request_commit(app) == {"collapsed": True}
    assert request_commit(app) == {"collapsed": True}
    # the commit run clears the mark when it starts: the next request queues a new run
    report = app.tasks[routing.COMMIT].apply().get()
    assert report["text"].startswith("Committed:")
    again = request_commit(app)
    assert "task_id" in again and again["task_id"] != first["task_id"]
