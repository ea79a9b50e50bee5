"""A demo kernel (``subcon init --demo``) for cadence tests."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from shared.kernel.paths import KernelPaths


@pytest.fixture
def demo(paths: KernelPaths) -> KernelPaths:
    from shared.setup.bootstrap import init_kernel

    init_kernel(paths, demo=True, force=False)
    return paths


@pytest.fixture(autouse=True)
def _drop_results() -> Iterator[None]:
    """Collect Celery results while Redis still runs: an AsyncResult's finaliser talks to
    the result backend, and at interpreter exit the session's redis-server is gone."""
    yield
    gc.collect()
