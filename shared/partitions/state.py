"""``var/meta/partitions/<name>.json``: last run, failures and backoff (docs/formats.md §7.4).

The five original keys are written in the original's order; subcon adds
``last_run_tick`` (docs/formats.md §7.1) only when it knows it, so a file subcon never
ran a tick for looks exactly like the original's. Unknown keys are dropped on write, as the original
does (it rebuilds the object from its five fields).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Final, Literal

from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths
from shared.timestamps import iso, parse_iso

Outcome = Literal["success", "timeout", "invalid_output", "error"]
OUTCOMES: Final = ("success", "timeout", "invalid_output", "error")
TIMEOUT_BACKOFF_CAP_MS: Final = 7_200_000
ERROR_BACKOFF_CAP_MS: Final = 14_400_000


@dataclass(frozen=True)
class PartitionState:
    """One partition's run record. Timestamps are ISO strings as the original writes them."""

    last_started_at: str | None = None
    last_finished_at: str | None = None
    last_result: str | None = None
    consecutive_failures: int = 0
    backoff_until: str | None = None
    last_run_tick: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The file's object: five keys in order, plus ``last_run_tick`` when known."""
        data: dict[str, Any] = {
            "last_started_at": self.last_started_at,
            "last_finished_at": self.last_finished_at,
            "last_result": self.last_result,
            "consecutive_failures": self.consecutive_failures,
            "backoff_until": self.backoff_until,
        }
        if self.last_run_tick is not None:
            data["last_run_tick"] = self.last_run_tick
        return data


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def parse_state(text: str) -> PartitionState:
    """The state in ``text``; anything unreadable (bad JSON, not an object,
    ``consecutive_failures`` not a number) resets every field, as in the original."""
    try:
        data = json.loads(text)
    except ValueError:
        return PartitionState()
    if not isinstance(data, dict):
        return PartitionState()
    failures = data.get("consecutive_failures")
    if isinstance(failures, bool) or not isinstance(failures, int | float):
        return PartitionState()
    if failures != failures or failures in (float("inf"), float("-inf")):
        return PartitionState()
    tick = data.get("last_run_tick")
    return PartitionState(
        last_started_at=_str_or_none(data.get("last_started_at")),
        last_finished_at=_str_or_none(data.get("last_finished_at")),
        last_result=_str_or_none(data.get("last_result")),
        consecutive_failures=int(failures),
        backoff_until=_str_or_none(data.get("backoff_until")),
        last_run_tick=tick if isinstance(tick, int) and not isinstance(tick, bool) else None,
    )


def render_state(state: PartitionState) -> str:
    """Pretty JSON + LF."""
    return pretty(state.to_json())


def read_state(paths: KernelPaths, name: str) -> PartitionState:
    """The state file of ``name``; missing or unreadable → the empty state."""
    try:
        text = paths.partition_state(name).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return PartitionState()
    return parse_state(text)


def write_state(paths: KernelPaths, name: str, state: PartitionState) -> None:
    """Write the state file of ``name`` atomically."""
    atomic_write_text(paths.partition_state(name), render_state(state))


def backoff_until(outcome: str, failures: int, now: datetime, interval_ms: int) -> str | None:
    """Backoff (docs/formats.md §7.4): the ISO time until which the partition is skipped,
    or None."""
    if outcome == "timeout" and failures > 2:
        delay = min(failures * interval_ms, TIMEOUT_BACKOFF_CAP_MS)
    elif outcome == "error" and failures > 1:
        delay = min(failures * 2 * interval_ms, ERROR_BACKOFF_CAP_MS)
    else:
        return None
    return iso(now + timedelta(milliseconds=delay))


def next_state(
    prev: PartitionState,
    outcome: str,
    now: datetime,
    interval_ms: int,
    *,
    started_at: datetime | None = None,
    tick: int | None = None,
) -> PartitionState:
    """The state after a run that ended at ``now`` with ``outcome``.

    ``started_at`` defaults to ``now``; ``tick`` (when given) becomes ``last_run_tick``,
    otherwise the previous value is kept.

    Raises:
        ValueError: ``outcome`` is not one of success, timeout, invalid_output, error.
    """
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown partition outcome {outcome!r}")
    failures = 0 if outcome == "success" else prev.consecutive_failures + 1
    return replace(
        prev,
        last_started_at=iso(started_at or now),
        last_finished_at=iso(now),
        last_result=outcome,
        consecutive_failures=failures,
        backoff_until=backoff_until(outcome, failures, now, interval_ms),
        last_run_tick=tick if tick is not None else prev.last_run_tick,
    )


def is_backed_off(state: PartitionState, now: datetime) -> bool:
    """True while ``now < backoff_until`` (an unparsable timestamp never backs off)."""
    if state.backoff_until is None:
        return False
    try:
        until = parse_iso(state.backoff_until)
    except ValueError:
        return False
    return now < until
