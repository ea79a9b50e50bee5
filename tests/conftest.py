"""Fixtures shared by every test: hermetic roots, a hermetic git, a real redis-server,
clusters of real worker processes on it; and the test tiers (unit, integration, slow)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from shared.kernels.registry import RedisStore, Registry
from shared.settings import Settings
from testing.cluster import Cluster
from testing.redis_server import EPHEMERAL, RedisServer, require_redis_server
from testing.tiers import assign_tiers


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every test its one tier (``testing/tiers.py``): an unmarked test is
    ``integration`` when it uses a real redis-server, else ``unit``; two tiers on one
    test stop the run."""
    assign_tiers(items)


@pytest.fixture(autouse=True)
def _hermetic_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No test may read the developer's git config, subcon env or home directory."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(name, "subcon-test")
    for name in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(name, "test@subcon.invalid")
    for key in list(os.environ):
        if key.startswith(("SUBCON_", "ALADUO_")):
            monkeypatch.delenv(key)


@pytest.fixture
def paths(tmp_path: Path) -> KernelPaths:
    """Empty kernel and runtime roots in a temp dir (nothing created inside them)."""
    kernel = tmp_path / "kernel"
    runtime = tmp_path / "runtime"
    kernel.mkdir()
    runtime.mkdir()
    return KernelPaths(kernel=kernel, runtime=runtime)


@pytest.fixture
def settings(paths: KernelPaths) -> Settings:
    return Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server for the whole session. Skips locally when the binary is
    missing; in CI (``CI`` set) a missing binary is a failure, not a skip."""
    require_redis_server()
    server = RedisServer(tmp_path_factory.mktemp("redis"), *EPHEMERAL)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """A flushed database on the session's real redis-server."""
    redis_server.flush()
    return redis_server.url


@pytest.fixture
def cluster_registry(redis_url: str) -> Registry:
    """The kernel registry a cluster on ``redis_url`` reads (the Redis hash), empty: the
    test's database is flushed."""
    return Registry(RedisStore.from_url(redis_url))


@pytest.fixture
def cluster_factory(redis_url: str, tmp_path: Path) -> Iterator[Callable[..., Cluster]]:
    """Build clusters for kernels; every process is stopped at teardown."""
    made: list[Cluster] = []

    def make(paths: KernelPaths, **extra_env: str) -> Cluster:
        logdir = tmp_path / f"logs-{len(made)}"
        logdir.mkdir()
        cluster = Cluster(paths, redis_url, logdir, dict(extra_env))
        made.append(cluster)
        return cluster

    try:
        yield make
    finally:
        for cluster in made:
            cluster.stop()


@pytest.fixture(autouse=True, scope="session")
def _no_kombu_after_fork_cleanup() -> Iterator[None]:
    """Keep kombu from registering its pools for an after-fork cleanup in this process.

    Tests create Celery apps here (to send tasks, ping workers); a pool left with a
    channel mid-BRPOP (``control.ping`` leaves one) makes every later ``fork()`` of the
    test process (a multiprocessing test) run that cleanup in the child, which then
    blocks forever reading the inherited socket. No forked child of the test process
    uses kombu, so the cleanup has nothing to do here; worker processes are separate.
    """
    import kombu.pools
    import kombu.resource

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kombu.resource, "register_after_fork", None)
        patch.setattr(kombu.pools, "register_after_fork", None)
        yield
