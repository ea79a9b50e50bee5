"""Per-day external-event counts cached in ``var/subcon/gap-cache.json``.

Spine files are append-only, so (size, mtime_ns) identifies a day's content well
enough: a re-check over unchanged days reads no spine bytes. The cache is
subcon's own file (never read by the original runtime); a damaged cache is
ignored and rebuilt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from shared.jsontext import compact
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths

CACHE_VERSION = 2  # 2: the source gate follows the original's truthiness test
CACHE_NAME = "gap-cache.json"


@dataclass(frozen=True)
class DayCount:
    """External events of a whole day and the distinct UTC hours they fall in."""

    external: int
    hours: tuple[int, ...]
    malformed_count: int = 0
    malformed: tuple[str, ...] = ()  # the first reasons kept, "file:line: reason"


@dataclass(frozen=True)
class TailCount:
    """External events after a covered day's progress point, and the greatest ts."""

    external: int
    until_ts: str | None
    malformed_count: int = 0
    malformed: tuple[str, ...] = ()
    # The earliest ts among them: earlier than the progress's last_ts when an event was
    # appended late with an older ts (an imported transcript of an overlapping session).
    earliest_ts: str | None = None


def _malformed(entry: dict[str, Any]) -> tuple[int, tuple[str, ...]] | None:
    count, kept = entry.get("malformed_count"), entry.get("malformed")
    if type(count) is not int or not isinstance(kept, list):
        return None
    return count, tuple(str(x) for x in kept)


def cache_path(paths: KernelPaths) -> Path:
    return paths.subcon_state_dir / CACHE_NAME


class GapCache:
    """Load once, consult per day, save once if anything changed."""

    def __init__(self, path: Path, enabled: bool = True) -> None:
        self.path = path
        self.enabled = enabled
        self.dirty = False
        self.days: dict[str, dict[str, Any]] = self._load() if enabled else {}

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            data = orjson.loads(self.path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return {}
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return {}
        days = data.get("days")
        if not isinstance(days, dict):
            return {}
        return {k: v for k, v in days.items() if isinstance(v, dict)}

    def _entry(self, date: str, size: int, mtime_ns: int) -> dict[str, Any] | None:
        entry = self.days.get(date)
        if entry and entry.get("size") == size and entry.get("mtime_ns") == mtime_ns:
            return entry
        return None

    def get_day(self, date: str, size: int, mtime_ns: int) -> DayCount | None:
        entry = self._entry(date, size, mtime_ns)
        if entry is None or not isinstance(entry.get("external"), int):
            return None
        hours = entry.get("hours")
        if not isinstance(hours, list) or not all(type(h) is int for h in hours):
            return None
        bad = _malformed(entry)
        if bad is None:
            return None  # an entry from before malformed lines were cached: read again
        return DayCount(entry["external"], tuple(hours), *bad)

    def put_day(self, date: str, size: int, mtime_ns: int, count: DayCount) -> None:
        if not self.enabled:
            return
        self.days[date] = {
            "size": size,
            "mtime_ns": mtime_ns,
            "external": count.external,
            "hours": list(count.hours),
            "malformed_count": count.malformed_count,
            "malformed": list(count.malformed),
        }
        self.dirty = True

    def get_tail(
        self, date: str, size: int, mtime_ns: int, offset: int, after: str | None
    ) -> TailCount | None:
        entry = self._entry(date, size, mtime_ns)
        tail = entry.get("tail") if entry else None
        if not isinstance(tail, dict) or tail.get("from") != [offset, after]:
            return None
        external, until = tail.get("external"), tail.get("until_ts")
        earliest = tail.get("earliest_ts")
        if not isinstance(external, int) or not (until is None or isinstance(until, str)):
            return None
        if not (earliest is None or isinstance(earliest, str)) or "earliest_ts" not in tail:
            return None
        bad = _malformed(tail)
        if bad is None:
            return None
        return TailCount(external, until, *bad, earliest_ts=earliest)

    def put_tail(
        self, date: str, size: int, mtime_ns: int, offset: int, after: str | None, tail: TailCount
    ) -> None:
        if not self.enabled:
            return
        entry = self._entry(date, size, mtime_ns) or {"size": size, "mtime_ns": mtime_ns}
        entry["tail"] = {
            "from": [offset, after],
            "external": tail.external,
            "until_ts": tail.until_ts,
            "earliest_ts": tail.earliest_ts,
            "malformed_count": tail.malformed_count,
            "malformed": list(tail.malformed),
        }
        self.days[date] = entry
        self.dirty = True

    def save(self, present: set[str]) -> None:
        """Write the cache (atomically) if it changed, dropping days no longer on disk."""
        stale = set(self.days) - present
        for date in stale:
            del self.days[date]
        if not self.enabled or not (self.dirty or stale):
            return
        atomic_write_text(self.path, compact({"version": CACHE_VERSION, "days": self.days}) + "\n")
        self.dirty = False
