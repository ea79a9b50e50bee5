"""The Celery app: importable without side effects, found by ``celery -A workers.app``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from workers import routing
from workers.app import make_app

REPO = Path(__file__).resolve().parents[2]


def test_import_has_no_side_effects_and_celery_finds_the_app(paths: KernelPaths) -> None:
    # An unreachable broker: any connection attempt at import would fail or hang.
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
    env.update(
        SUBCON_BROKER_URL="redis://127.0.0.1:1/0",
        SUBCON_KERNEL_DIR=str(paths.kernel),
        SUBCON_RUNTIME_DIR=str(paths.runtime),
    )
    script = textwrap.dedent(
        """
        import workers.app as module
        assert module._app is None, "app built at import"
        from celery.app.utils import find_app
        app = find_app("workers.app")
        assert app is module.app
        names = sorted(n for n in app.tasks if n.startswith("subcon."))
        print(app.conf.broker_url, app.conf.task_always_eager, " ".join(names))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    broker, eager, names = proc.stdout.split(" ", 2)
    assert broker == "redis://127.0.0.1:1/0" and eager == "False"
    assert names.split() == sorted(routing.QUEUE_OF)


def test_embedded_app_is_eager_and_json_only(settings: Settings) -> None:
    app = make_app(settings)
    assert app.conf.task_always_eager and app.conf.task_eager_propagates
    assert app.conf.result_backend == "cache+memory://"
    assert app.conf.accept_content == ["json"] and app.conf.result_accept_content == ["json"]


def test_distributed_app_routes_and_limits(settings: Settings) -> None:
    app = make_app(settings.model_copy(update={"broker_url": "redis://127.0.0.1:1/0"}))
    assert not app.conf.task_always_eager
    assert app.conf.result_backend == "redis://127.0.0.1:1/0"
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    assert app.conf.worker_prefetch_multiplier == 1
    # longer than twice the longest hard limit (4 h), for broker and result backend
    assert app.conf.broker_transport_options["visibility_timeout"] > 2 * 4 * 3600
    assert app.conf.result_backend_transport_options["visibility_timeout"] > 2 * 4 * 3600
    assert app.amqp.router.route({}, routing.SCAN)["queue"].name == "scan"
    assert app.amqp.router.route({}, routing.COMMIT)["queue"].name == "commit"
    assert app.amqp.router.route({}, routing.TICK)["queue"].name == "kernel"
    assert app.conf.beat_schedule["subcon-cadence-tick"]["schedule"] == settings.tick_seconds
