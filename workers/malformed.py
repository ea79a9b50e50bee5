"""How commands report the spine lines they skipped as malformed (file:line: reason)."""

from __future__ import annotations

from typing import Any

from shared.spine.reader import ReadStats


def as_stats(value: ReadStats | dict[str, Any] | None) -> ReadStats:
    if isinstance(value, ReadStats):
        return value
    return ReadStats.from_json(value) if isinstance(value, dict) else ReadStats()


def malformed_json(value: ReadStats | dict[str, Any] | None) -> dict[str, Any]:
    """``{"malformed_count", "malformed"}`` for a command's ``--json`` output."""
    stats = as_stats(value)
    return {"malformed_count": stats.malformed_count, "malformed": list(stats.malformed)}


def malformed_lines(
    value: ReadStats | dict[str, Any] | None, *, verbose: bool, indent: str = ""
) -> list[str]:
    """A summary line (count and where the first one is); with ``verbose`` every kept
    ``file:line: reason`` and how many more were counted than kept. [] when none."""
    stats = as_stats(value)
    if stats.malformed_count == 0:
        return []
    first = stats.malformed[0] if stats.malformed else "?"
    head = f"{indent}malformed spine lines skipped: {stats.malformed_count} (first: {first})"
    if not verbose:
        return [head + (" (-v or --json lists them)" if stats.malformed_count > 1 else "")]
    lines = [head] + [f"{indent}  {m}" for m in stats.malformed]
    more = stats.malformed_count - len(stats.malformed)
    if more > 0:
        lines.append(f"{indent}  ... and {more} more (only the first {len(stats.malformed)} kept)")
    return lines
