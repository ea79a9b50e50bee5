"""Per-day spine counts for the coverage calendar, cached beside the report.

Reading a year of 10-30 MB day files takes minutes; spine files are append-only, so
(size, mtime_ns) identifies a day's content and an unchanged day need not be read
again. The cache lives in the report's own output directory (``.spine-counts.json``),
so the report never writes into the kernel or the runtime; a missing or damaged cache
is ignored and rebuilt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from shared.kernel.files import atomic_write_text

CACHE_NAME = ".spine-counts.json"
CACHE_VERSION = 1


@dataclass(frozen=True)
class DayStats:
    """What one read of a whole day file found."""

    size: int
    mtime_ns: int
    events: int
    external: int
    malformed: int
    examples: tuple[str, ...]


class DayCountCache:
    """Load once, look up per day, save once if anything changed."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.dirty = False
        self.days: dict[str, DayStats] = self._load() if path is not None else {}

    def _load(self) -> dict[str, DayStats]:
        assert self.path is not None
        try:
            data = orjson.loads(self.path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return {}
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return {}
        out: dict[str, DayStats] = {}
        days = data.get("days")
        for date, row in days.items() if isinstance(days, dict) else ():
            try:
                out[str(date)] = DayStats(
                    int(row["size"]),
                    int(row["mtime_ns"]),
                    int(row["events"]),
                    int(row["external"]),
                    int(row["malformed"]),
                    tuple(str(x) for x in row["examples"]),
                )
            except (KeyError, TypeError, ValueError):
                continue
        return out

    def get(self, date: str, size: int, mtime_ns: int) -> DayStats | None:
        found = self.days.get(date)
        if found is None or (found.size, found.mtime_ns) != (size, mtime_ns):
            return None
        return found

    def put(self, date: str, stats: DayStats) -> None:
        self.days[date] = stats
        self.dirty = True

    def save(self) -> None:
        """Write the cache if it changed (no path: nothing to do)."""
        if self.path is None or not self.dirty:
            return
        rows: dict[str, Any] = {
            d: {
                "size": s.size,
                "mtime_ns": s.mtime_ns,
                "events": s.events,
                "external": s.external,
                "malformed": s.malformed,
                "examples": list(s.examples),
            }
            for d, s in sorted(self.days.items())
        }
        atomic_write_text(
            self.path, orjson.dumps({"version": CACHE_VERSION, "days": rows}).decode() + "\n"
        )
        self.dirty = False
