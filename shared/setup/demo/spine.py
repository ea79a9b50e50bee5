"""Deterministic synthetic spine for the demo kernel (docs/formats.md §4).

Pure part: :func:`generate_spine` builds the day files as lines (event dicts in the
runtime's envelope order, plus a few deliberately malformed lines) from a seed, and
:func:`render_spine` turns them into file bytes and the two index files with exact
byte offsets. Impure part: :func:`write_spine` writes those bytes atomically.

Everything random comes from one ``random.Random(seed)`` (event ids included), and the
dates are fixed, so the same seed always yields byte-identical files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from shared.constants import INTERNAL_KINDS
from shared.jsontext import compact
from shared.kernel.files import atomic_write_bytes
from shared.kernel.paths import KernelPaths
from shared.setup.demo.generator import SpineGenerator

DEMO_DATES: Final = ("2026-01-03", "2026-01-04", "2026-01-05")
DEMO_KERNEL_ROOT: Final = "/home/demo/aladuo"
DEMO_RUNTIME_ROOT: Final = "/home/demo/.aladuo"


@dataclass(frozen=True)
class SpineLine:
    """One line of a day file (no LF): an event, or a deliberate malformed line
    (``raw`` bytes, which need not be UTF-8)."""

    text: str
    event: dict[str, Any] | None
    raw: bytes | None = None


@dataclass(frozen=True)
class SpineFiles:
    """Rendered bytes: day file name -> content, and the two index files."""

    days: dict[str, bytes]
    by_id: bytes
    by_session: bytes


@dataclass(frozen=True)
class SpineSummary:
    """What :func:`write_spine` wrote, for the init report."""

    dates: tuple[str, ...]
    events: int
    external_events: int
    malformed_lines: int
    channel_kinds: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "dates": list(self.dates),
            "events": self.events,
            "external_events": self.external_events,
            "malformed_lines": self.malformed_lines,
            "channel_kinds": list(self.channel_kinds),
        }


def generate_spine(
    seed: int,
    *,
    dates: Sequence[str] = DEMO_DATES,
    kernel_root: str = DEMO_KERNEL_ROOT,
    runtime_root: str = DEMO_RUNTIME_ROOT,
) -> dict[str, list[SpineLine]]:
    """Build the demo spine: date -> lines in append order (pure, deterministic by seed).

    ``kernel_root``/``runtime_root`` only appear inside payload paths (``raw_path``,
    tool-use summaries), so the same seed and roots give identical output.
    """
    gen = SpineGenerator(seed, kernel_root, runtime_root)
    out: dict[str, list[SpineLine]] = {}
    for index, (date, scenarios) in enumerate(zip(dates, gen.distribute(dates), strict=True)):
        events = gen.day_events(date, index, scenarios)
        lines = [SpineLine(compact(event), event) for event in events]
        for position, raw in gen.malformed(date, len(lines)):
            lines.insert(position, SpineLine(raw.decode("utf-8", "replace"), None, raw))
        out[date] = lines
    return out


def render_spine(days: dict[str, list[SpineLine]]) -> SpineFiles:
    """Day files plus ``by_id``/``by_session`` index bytes with exact offsets
    (docs/formats.md §4.3)."""
    files: dict[str, bytes] = {}
    by_id: list[str] = []
    by_session: list[str] = []
    for date in sorted(days):
        partition = f"{date}.jsonl"
        chunks: list[bytes] = []
        offset = 0
        for line in days[date]:
            data = (line.text.encode("utf-8") if line.raw is None else line.raw) + b"\n"
            event = line.event
            if event is not None:
                entry = {
                    "event_id": event["id"],
                    "partition": partition,
                    "byte_offset": offset,
                    "byte_len": len(data),
                }
                by_id.append(compact(entry))
                if event.get("session_key"):
                    by_session.append(
                        compact(
                            {
                                "session_key": event["session_key"],
                                "event_id": event["id"],
                                "partition": partition,
                                "byte_offset": offset,
                                "byte_len": len(data),
                                "ts": event["ts"],
                            }
                        )
                    )
            chunks.append(data)
            offset += len(data)
        files[partition] = b"".join(chunks)
    return SpineFiles(
        days=files,
        by_id="".join(line + "\n" for line in by_id).encode("utf-8"),
        by_session="".join(line + "\n" for line in by_session).encode("utf-8"),
    )


def summarize(days: dict[str, list[SpineLine]]) -> SpineSummary:
    """Counts for the init report (external = the source gate of docs/formats.md §4.5)."""
    events = [line.event for lines in days.values() for line in lines if line.event]
    external = [
        e
        for e in events
        if isinstance(e.get("source", {}).get("kind"), str)
        and e["source"]["kind"]
        and e["source"]["kind"] not in INTERNAL_KINDS
    ]
    kinds = sorted({e["source"]["kind"] for e in events if e["type"] == "channel.message"})
    malformed = sum(1 for lines in days.values() for line in lines if line.event is None)
    return SpineSummary(tuple(sorted(days)), len(events), len(external), malformed, tuple(kinds))


def write_spine(paths: KernelPaths, seed: int) -> SpineSummary:
    """Write the demo spine and its indexes into ``paths.runtime`` (atomic per file).

    Raises:
        OSError: the runtime dir is not writable.
    """
    days = generate_spine(seed, kernel_root=str(paths.kernel), runtime_root=str(paths.runtime))
    files = render_spine(days)
    for name, data in files.days.items():
        atomic_write_bytes(paths.events_dir / name, data)
    atomic_write_bytes(paths.by_id_index, files.by_id)
    atomic_write_bytes(paths.by_session_index, files.by_session)
    return summarize(days)
