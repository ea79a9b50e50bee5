"""Fixtures of the integration tests (real worker processes come from
:mod:`testing.cluster`; the ``cluster_factory`` fixture from ``tests/conftest.py``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _drop_results() -> Iterator[None]:
    """Collect Celery results while Redis still runs: an AsyncResult's finaliser talks to
    the result backend, and at interpreter exit the session's redis-server is gone."""
    yield
    gc.collect()
