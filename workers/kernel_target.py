"""Which kernel a task works on: the name its message carries (issue #31).

One cluster serves the kernel of its settings (the unnamed ``default`` kernel) and every
kernel of the registry (:mod:`shared.kernels.registry`). Every subcon task message
carries ``kernel=<name>`` as a keyword argument, so Flower shows and filters it, and a
worker resolves the name when the task runs: ``default`` is the app's own settings; any
other name is looked up in the registry then (one Redis read), so a kernel removed from
the registry mid-pass fails its next task with a one-line ``UnknownKernel`` instead of
working on a kernel nobody serves any more. The named kernel's dirs and import sources
replace the settings' own, and its audit stream is its own
(:func:`~shared.kernels.registry.entry_settings`); everything else (broker,
thresholds, timeouts) is the cluster's.

Every per-kernel thing follows from the dirs: the kernel lock, tick numbers and slots,
the queued-commit marker and the gap caches are keyed by the kernel dir's id
(:func:`shared.kernel.keys.key`), and runs, fragments, audits and playlists live in the
kernel's own runtime and kernel dirs.
"""

from __future__ import annotations

from dataclasses import dataclass

from celery import Celery

from shared.kernel.keys import redis_client, shown_url
from shared.kernel.paths import KernelPaths
from shared.kernels.registry import (
    DEFAULT_NAME,
    RedisStore,
    Registry,
    entry_settings,
    open_registry,
)
from shared.settings import Settings

KWARG = "kernel"


@dataclass(frozen=True)
class KernelTarget:
    """A kernel by name, with the settings and paths its tasks use."""

    name: str
    settings: Settings
    paths: KernelPaths

    @property
    def kwargs(self) -> dict[str, str]:
        """What every task message of this kernel carries."""
        return {KWARG: self.name}


def default_target(app: Celery) -> KernelTarget:
    """The kernel of the app's own settings."""
    settings: Settings = app.subcon_settings
    paths: KernelPaths = app.subcon_paths
    return KernelTarget(DEFAULT_NAME, settings, paths)


def _registry(settings: Settings) -> Registry:
    # The worker's one Redis client (a task resolves its kernel on every call).
    url = settings.effective_redis_url
    if url:
        return Registry(RedisStore(redis_client(url), shown_url(url)))
    return open_registry(settings)


def resolve(app: Celery, name: str | None) -> KernelTarget:
    """The kernel ``name`` names (None or ``default``: the app's own).

    Raises:
        UnknownKernel: no entry of that name (removed, or never added).
        BrokerUnreachable: the registry's Redis does not answer.
    """
    if not name or name == DEFAULT_NAME:
        return default_target(app)
    base: Settings = app.subcon_settings
    entry = _registry(base).get(name)
    settings = entry_settings(base, entry)
    return KernelTarget(name, settings, KernelPaths.from_settings(settings))
