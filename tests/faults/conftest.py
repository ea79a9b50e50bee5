"""Fault-injection fixtures: the measured report, a demo kernel per module, private
redis-servers.

Clusters (real Celery worker processes in their own sessions) come from
:mod:`testing.cluster`; every process is stopped at teardown. The session-scoped
:class:`~tests.faults.harness.FaultReport` counts what the suite really did and writes
``tests/faults/.report.json`` at the end of the session, so the README figures are
measured, not typed.
"""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from testing.kernels import make_demo
from testing.redis_server import RedisServer, require_redis_server
from tests.faults.harness import REPORT_PATH, FaultReport

_REPORT = FaultReport()


@pytest.fixture(scope="session")
def fault_report() -> Iterator[FaultReport]:
    """The session's counters; written to ``tests/faults/.report.json`` at the end."""
    yield _REPORT
    data = _REPORT.to_json()
    tmp = REPORT_PATH.with_name(f".report.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, REPORT_PATH)


@pytest.fixture(scope="module")
def demo_base(tmp_path_factory: pytest.TempPathFactory) -> KernelPaths:
    """One demo kernel per test module; tests work on copies (:func:`fresh`)."""
    return make_demo(tmp_path_factory.mktemp("hostile") / "base")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Callable[..., RedisServer]]:
    """Factory for private redis-servers; every one is stopped at teardown."""
    require_redis_server()
    made: list[RedisServer] = []

    def make(*extra: str, scheme: str = "redis", auth: str = "") -> RedisServer:
        server = RedisServer(tmp_path / f"redis-{len(made)}", *extra, scheme=scheme, auth=auth)
        made.append(server)
        return server

    try:
        yield make
    finally:
        # Result objects of this test still subscribed to a server (kept alive by
        # reference cycles) must go while it is up, or their __del__ retries later.
        gc.collect()
        for server in made:
            server.stop()
