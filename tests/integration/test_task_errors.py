"""A known error raised on a real worker crosses Celery as StageFailed carrying its code,
and the client reads it back as the project error it was (the CLI's exit code follows)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from shared.errors import ConfigError
from testing.cluster import Cluster
from testing.kernels import make_demo
from workers import routing
from workers.app import make_app
from workers.waiting import wait_for

pytestmark = pytest.mark.integration


def test_config_error_on_a_worker_reaches_the_client_by_code(
    cluster_factory: Callable[..., Cluster], tmp_path: Path
) -> None:
    paths = make_demo(tmp_path / "demo")
    cluster = cluster_factory(paths)
    cluster.worker("kernel", "kernel")
    cluster.wait_ready(["kernel"])
    # The worker booted with its kernel; it goes missing before the tick runs.
    moved = paths.kernel.rename(paths.kernel.with_name("kernel-away"))
    try:
        app = make_app(cluster.settings)
        result = app.tasks[routing.TICK].apply_async(kwargs={"manual": True})
        with pytest.raises(ConfigError) as caught:
            wait_for(result, 60)
        assert f"kernel dir {paths.kernel} does not exist" in str(caught.value)
        # What the result backend holds: the wire form, not the class's own arguments.
        client = redis.Redis.from_url(cluster.redis_url)
        raw = client.get(f"celery-task-meta-{result.id}")
        assert raw is not None
        stored = json.loads(raw)["result"]
        assert (stored["exc_module"], stored["exc_type"]) == ("shared.errors", "StageFailed")
        assert stored["exc_message"][0]["subcon_error"] == ConfigError.code
    finally:
        moved.rename(paths.kernel)
