"""The persistent cadence tick number (docs/formats.md §7.1) and the duplicate-tick guard.

Distributed mode counts in Redis (``INCR``) and mirrors every value into
``var/subcon/tick.json``; the mirror seeds the counter again if Redis lost it, so the
number never goes back. Embedded mode counts in the file alone, under a file lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import redis

from shared.errors import InputError
from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.keys import TICK, TICK_SLOT, key, redis_client
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.timestamps import iso

TICK_FILE = "tick.json"

# Seed-then-increment in one step: a fresh (or flushed) Redis continues from the mirror.
_INCR_SEEDED = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SET', KEYS[1], ARGV[1])
end
return redis.call('INCR', KEYS[1])
"""


class TickStore(Protocol):
    def advance(self) -> int:
        """Increment and return the new tick number."""

    def current(self) -> int:
        """The last tick number handed out (0 before the first tick)."""


def tick_file(paths: KernelPaths) -> Path:
    return paths.subcon_state_dir / TICK_FILE


def read_mirror(paths: KernelPaths) -> int:
    """The tick number in ``var/subcon/tick.json`` (0 when missing).

    Raises:
        InputError: the file exists but is not ``{"tick": <int>, ...}``.
    """
    path = tick_file(paths)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return 0
    try:
        value = json.loads(text).get("tick")
    except (ValueError, AttributeError) as exc:
        raise InputError(path, None, f"not a tick file: {exc}") from exc
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError(path, None, f"tick must be a non-negative integer, got {value!r}")
    return value


def write_mirror(paths: KernelPaths, tick: int) -> None:
    atomic_write_text(tick_file(paths), pretty({"tick": tick, "updated_at": iso()}))


@contextlib.contextmanager
def _flock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class FileTickStore:
    """Embedded mode: the mirror file is the counter."""

    def __init__(self, paths: KernelPaths) -> None:
        self.paths = paths

    def advance(self) -> int:
        with _flock(self.paths.subcon_state_dir / "tick.lock"):
            tick = read_mirror(self.paths) + 1
            write_mirror(self.paths, tick)
        return tick

    def current(self) -> int:
        return read_mirror(self.paths)


class RedisTickStore:
    """Distributed mode: Redis ``INCR`` is the counter, the file a mirror."""

    def __init__(self, paths: KernelPaths, client: redis.Redis) -> None:
        self.paths = paths
        self.client = client
        self.key = key(paths, TICK)

    def advance(self) -> int:
        tick = int(self.client.eval(_INCR_SEEDED, 1, self.key, read_mirror(self.paths)))
        with _flock(self.paths.subcon_state_dir / "tick.lock"):
            # Mirrors may land out of order when two ticks race; never write one back.
            if read_mirror(self.paths) < tick:
                write_mirror(self.paths, tick)
        return tick

    def current(self) -> int:
        value = self.client.get(self.key)
        return max(int(value) if value is not None else 0, read_mirror(self.paths))


def open_tick_store(settings: Settings, paths: KernelPaths) -> TickStore:
    """Redis when a Redis URL is configured, else the file counter."""
    url = settings.effective_redis_url
    if url:
        return RedisTickStore(paths, redis_client(url))
    return FileTickStore(paths)


def claim_tick_slot(client: redis.Redis, paths: KernelPaths, tick_seconds: float) -> bool:
    """Claim this half tick period for one tick; False when another tick already did.

    A second beat (or a redelivered tick) within half a period is not a tick.
    """
    slot_ms = max(1, int(tick_seconds * 500))
    return bool(client.set(key(paths, TICK_SLOT), "1", nx=True, px=slot_ms))
