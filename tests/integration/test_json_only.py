"""Messages are JSON only: a pickled task message is refused by a real worker."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from shared.cadence.ticks import read_mirror
from testing.cluster import Cluster
from testing.kernels import make_demo
from testing.waiting import wait_until
from workers import routing
from workers.app import make_app

pytestmark = pytest.mark.integration


def test_pickled_message_is_rejected(
    tmp_path: Path, cluster_factory: Callable[..., Cluster]
) -> None:
    paths = make_demo(tmp_path / "demo")
    cluster = cluster_factory(paths, SUBCON_TICK_SECONDS="1")
    cluster.worker("kernel", "kernel", 1)
    cluster.wait_ready(["kernel"])
    app = make_app(cluster.settings)
    pickled = app.send_task(routing.TICK, serializer="pickle", queue="kernel")
    good = app.send_task(routing.TICK, queue="kernel")
    report = good.get(timeout=60)
    assert report["tick"] == 1
    # One worker, prefetch 1, FIFO queue: the pickled message came first and was dropped.
    assert pickled.state == "PENDING"
    assert read_mirror(paths) == 1
    log = wait_until(
        lambda: "disallowed" in (text := cluster.logs()).lower() and text,
        10,
        "the worker to log the refused content type",
    )
    assert "pickle" in log
