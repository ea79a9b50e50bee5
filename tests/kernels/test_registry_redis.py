"""The kernel registry in a real redis-server: the cluster's store (issue #31)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from shared.errors import BrokerUnreachable, RegistryError, UnknownKernel
from shared.kernels.registry import RedisStore, Registry, open_registry
from shared.settings import Settings
from testing.redis_server import free_port

REPO = Path(__file__).resolve().parents[2]


def test_add_list_get_remove_in_the_hash(redis_url: str, tmp_path: Path) -> None:
    registry = open_registry(Settings(broker_url=redis_url))
    assert isinstance(registry.store, RedisStore) and registry.list() == []
    added = registry.add("a", tmp_path / "a" / "k", tmp_path / "a" / "r", ["codex:/s"])
    registry.add("b", tmp_path / "b" / "k", tmp_path / "b" / "r")
    # a second process's view: a fresh client on the same server
    again = Registry(RedisStore.from_url(redis_url))
    assert again.get("a") == added and [e.name for e in again.list()] == ["a", "b"]
    client = redis.Redis.from_url(redis_url)
    assert sorted(client.hkeys("subcon:kernels")) == [b"a", b"b"]
    with pytest.raises(RegistryError, match="is the kernel dir of kernel 'a'"):
        again.add("c", tmp_path / "a" / "k", tmp_path / "c" / "r")
    assert again.remove("a") == added
    with pytest.raises(UnknownKernel):
        registry.get("a")
    assert client.hkeys("subcon:kernels") == [b"b"]


def test_a_redis_url_alone_holds_the_registry_in_embedded_mode(
    redis_url: str, tmp_path: Path
) -> None:
    settings = Settings(redis_url=redis_url)
    assert settings.embedded
    open_registry(settings).add("a", tmp_path / "k", tmp_path / "r")
    assert [e.name for e in open_registry(Settings(broker_url=redis_url)).list()] == ["a"]


def test_a_key_of_another_type_is_a_registry_error(redis_url: str, tmp_path: Path) -> None:
    redis.Redis.from_url(redis_url).set("subcon:kernels", "not a hash")
    registry = Registry(RedisStore.from_url(redis_url))
    with pytest.raises(RegistryError, match=r"subcon:kernels.*WRONGTYPE"):
        registry.list()
    with pytest.raises(RegistryError, match="WRONGTYPE"):
        registry.add("a", tmp_path / "k", tmp_path / "r")


def test_a_redis_that_does_not_answer_is_said_in_one_line(tmp_path: Path) -> None:
    registry = Registry(RedisStore.from_url(f"redis://:pw@127.0.0.1:{free_port()}/0"))
    started = time.monotonic()
    with pytest.raises(BrokerUnreachable) as err:
        registry.list()
    with pytest.raises(BrokerUnreachable):
        registry.add("a", tmp_path / "k", tmp_path / "r")
    assert time.monotonic() - started < 10
    text = str(err.value)
    assert "\n" not in text and "does not answer" in text
    assert "redis://:***@127.0.0.1" in text and "pw" not in text


ADDER = """
import sys, time
from pathlib import Path
from shared.errors import RegistryError
from shared.kernels.registry import RedisStore, Registry
url, name, kernel, runtime, gate = sys.argv[1:6]
count = int(sys.argv[6])
registry = Registry(RedisStore.from_url(url))
while not Path(gate).exists():
    time.sleep(0.001)
refused = 0
for n in range(count):
    suffix = "" if count == 1 else str(n)
    try:
        registry.add(name + suffix, kernel + suffix, runtime + suffix)
    except RegistryError:
        refused += 1
print(refused)
"""


def run_together(redis_url: str, tmp_path: Path, jobs: list[list[str]]) -> list[int]:
    """Start one process per job (name, kernel, runtime, count), release them at once,
    and return how many adds each had refused."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    gate = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", ADDER, redis_url, job[0], job[1], job[2], str(gate), job[3]],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for job in jobs
    ]
    time.sleep(0.5)
    gate.touch()
    refused = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        refused.append(int(out))
    return refused


def test_concurrent_adds_from_two_processes_lose_no_entry(redis_url: str, tmp_path: Path) -> None:
    jobs = [
        [f"p{p}-", str(tmp_path / f"p{p}" / "k"), str(tmp_path / f"p{p}" / "r"), "40"]
        for p in range(2)
    ]
    assert run_together(redis_url, tmp_path, jobs) == [0, 0]
    names = [e.name for e in Registry(RedisStore.from_url(redis_url)).list()]
    assert sorted(names) == sorted(f"p{p}-{n}" for p in range(2) for n in range(40))


def test_two_processes_racing_for_one_kernel_dir_one_wins(redis_url: str, tmp_path: Path) -> None:
    kernel = str(tmp_path / "shared-kernel")
    jobs = [[name, kernel, str(tmp_path / f"{name}-runtime"), "1"] for name in ("left", "right")]
    assert sorted(run_together(redis_url, tmp_path, jobs)) == [0, 1]
    assert len(Registry(RedisStore.from_url(redis_url)).list()) == 1
