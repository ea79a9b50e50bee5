"""The persistent tick number: file counter (embedded) and Redis INCR with a file mirror."""

from __future__ import annotations

import json

import pytest
import redis

from shared.cadence.ticks import FileTickStore, RedisTickStore, read_mirror, tick_file
from shared.errors import InputError
from shared.kernel.paths import KernelPaths


def test_file_store_counts_and_persists(paths: KernelPaths) -> None:
    store = FileTickStore(paths)
    assert store.current() == 0
    assert [store.advance() for _ in range(3)] == [1, 2, 3]
    assert FileTickStore(paths).current() == 3
    data = json.loads(tick_file(paths).read_text(encoding="utf-8"))
    assert data["tick"] == 3
    assert tick_file(paths).read_text(encoding="utf-8").endswith("}\n")


def test_corrupt_mirror_is_an_input_error_naming_the_file(paths: KernelPaths) -> None:
    tick_file(paths).parent.mkdir(parents=True)
    tick_file(paths).write_text('{"tick": "seven"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"tick\.json"):
        read_mirror(paths)


def test_redis_store_mirrors_and_survives_a_flush(paths: KernelPaths, redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    store = RedisTickStore(paths, client)
    assert store.advance() == 1
    assert store.advance() == 2
    assert read_mirror(paths) == 2
    client.flushall()
    # Redis lost the counter: the mirror seeds it, the number never goes back.
    assert store.advance() == 3
    assert store.current() == 3


def test_redis_store_continues_from_an_embedded_counter(paths: KernelPaths, redis_url: str) -> None:
    file_store = FileTickStore(paths)
    for _ in range(5):
        file_store.advance()
    assert RedisTickStore(paths, redis.Redis.from_url(redis_url)).advance() == 6
