"""Embedded mode: the very same tasks, run in-process by an eager app (no broker).

The kernel lock is whatever the lock factory gives for the settings: the file lock
when no Redis is configured.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.constants import COMMITTER, WEAVER
from shared.errors import ConfigError, StageFailed
from shared.settings import Settings
from workers.app import make_app
from workers.canvas import dispatch_commit, dispatch_weaver


def eager_app(settings: Settings) -> Celery:
    """An eager app for ``settings`` (even when a broker is configured)."""
    return make_app(settings, eager=True)


def run_partition(
    settings: Settings,
    partition: str,
    *,
    interval: str | None = None,
    directed: str | None = None,
    commit: bool = True,
) -> dict[str, Any]:
    """Run one partition's work now, in-process; returns its JSON report (with ``text``).

    Raises:
        ConfigError: subcon has no implementation for ``partition``.
        InputError, LockError, GitError: from the stages.
    """
    app = eager_app(settings)
    app.subcon_paths.require_kernel()
    if partition not in (WEAVER, COMMITTER):
        raise ConfigError(f"subcon has no implementation for partition {partition!r}")
    try:
        if partition == WEAVER:
            result = dispatch_weaver(app, interval=interval, directed=directed, commit=commit)
        else:
            result = dispatch_commit(app)
        report: dict[str, Any] = result.get()
    except StageFailed as exc:
        # The eager task failed on a known error: raise the error itself.
        raise exc.error() from exc
    return report
