"""The Celery app factory.

``make_app(settings)`` builds a configured app with every subcon task registered and no
other side effect. ``celery -A workers.app ...`` finds ``app`` through the module-level
``__getattr__`` below, which builds it from ``load_settings()`` on first access only, so
importing this module never reads the environment or connects anywhere.

That module-level app is also made the current and default app of its process: Flower
(``celery -A workers.app flower``) reads results with ``AsyncResult(task_id)``, which
takes the default app, and without it answers ``/api/task/result/<id>`` with 503 (no
result backend). Apps from ``make_app`` (tests, the CLI) leave the process's default alone.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.kernel.keys import kernel_id
from shared.kernel.paths import KernelPaths
from shared.settings import Settings, load_settings
from workers import hooks, serialization
from workers.config import celery_config
from workers.tasks import commit, crystallize, failure, scan, settle, tick, update

_TASK_MODULES = (scan, crystallize, update, settle, commit, tick, failure)
_app: Celery | None = None


def make_app(settings: Settings, *, eager: bool | None = None) -> Celery:
    """A Celery app for ``settings`` with every task registered.

    Eager (in-process, no broker) when no broker is configured, or when ``eager`` says so.
    The app carries ``subcon_settings`` and ``subcon_paths`` for the tasks.
    """
    paths = KernelPaths.from_settings(settings)
    serialization.install()
    app = Celery("subcon", set_as_current=False)
    app.config_from_object(celery_config(settings, kernel_id(paths), eager=eager))
    app.subcon_settings = settings
    app.subcon_paths = paths
    for module in _TASK_MODULES:
        module.register(app)
    hooks.connect()
    return app


def __getattr__(name: str) -> Any:
    # `celery -A workers.app` resolves the attribute `app` of this module.
    global _app
    if name == "app":
        if _app is None:
            _app = make_app(load_settings())
            _app.set_current()
            _app.set_default()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
