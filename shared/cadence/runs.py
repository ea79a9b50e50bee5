"""One cadence tick's bookkeeping: memory check, selection, and each run's start and finish.

These are plain functions over the kernel and runtime files (no Celery): the tick task
and embedded mode call them under the kernel lock. A run is recorded in two steps,
because in distributed mode it finishes in another task: :func:`begin_tick` writes
``last_started_at`` and ``last_run_tick``; :func:`finish_run` checks the playlist item
off (with its History line), and writes the outcome and backoff (docs/formats.md §7.4).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared.cadence.selection import PartitionView, is_running, select_partitions, time_limits
from shared.constants import IMPLEMENTED_PARTITIONS, WEAVER
from shared.errors import PassTimeout
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.partitions.discovery import (
    PartitionInfo,
    discover_partitions,
    enabled_names,
)
from shared.partitions.playlist import check_off, read_playlist, write_playlist
from shared.partitions.state import is_backed_off, next_state, read_state, write_state
from shared.settings import Settings
from shared.timestamps import iso, parse_iso

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunContext:
    """One partition run started by a tick; travels with its tasks as JSON."""

    partition: str
    tick: int | None
    started_at: str
    max_duration_ms: int
    deadline: float

    @property
    def limits(self) -> tuple[float, float]:
        """(soft, hard) time limits in seconds for each task of the run."""
        return time_limits(self.max_duration_ms)

    def expired(self, now: float | None = None) -> bool:
        return (time.time() if now is None else now) > self.deadline

    def to_json(self) -> dict[str, Any]:
        return {
            "partition": self.partition,
            "tick": self.tick,
            "started_at": self.started_at,
            "max_duration_ms": self.max_duration_ms,
            "deadline": self.deadline,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunContext:
        return cls(
            partition=str(data["partition"]),
            tick=int(data["tick"]) if data.get("tick") is not None else None,
            started_at=str(data["started_at"]),
            max_duration_ms=int(data["max_duration_ms"]),
            deadline=float(data["deadline"]),
        )

    @classmethod
    def start(
        cls, partition: str, tick: int | None, max_duration_ms: int, now: datetime
    ) -> RunContext:
        _, hard = time_limits(max_duration_ms)
        return cls(partition, tick, iso(now), max_duration_ms, now.timestamp() + hard)


def check_deadline(run: RunContext | None) -> None:
    """Stop a run whose partition time budget is spent before starting the next stage.

    Raises:
        PassTimeout: ``run`` passed its deadline.
    """
    if run is not None and run.expired():
        raise PassTimeout(f"{run.partition} run from tick {run.tick} passed its deadline")


@dataclass(frozen=True)
class TickPlan:
    """What a tick decided: runs to dispatch, items checked off, the memory check report."""

    tick: int
    runs: tuple[RunContext, ...]
    skipped: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    memory_check: dict[str, Any] | None = None
    partitions: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {
            "tick": self.tick,
            "runs": [run.to_json() for run in self.runs],
            "skipped": [{"partition": n, "reason": r} for n, r in self.skipped],
            "notes": list(self.notes),
            "memory_check": self.memory_check,
            "partitions": list(self.partitions),
        }


def _memory_check(paths: KernelPaths, settings: Settings, lease: Lease | None) -> dict[str, Any]:
    from shared.memcheck.check import run_memory_check

    report = run_memory_check(paths, settings, lease=lease)
    result: dict[str, Any] = report.to_json()
    return result


def _view(info: PartitionInfo, paths: KernelPaths, now: datetime) -> PartitionView:
    state = read_state(paths, info.name)
    backoff = None
    if is_backed_off(state, now) and state.backoff_until:
        backoff = parse_iso(state.backoff_until)
    return PartitionView(
        name=info.name,
        enabled=info.schedule.enabled,
        cooldown_ticks=info.schedule.cooldown_ticks,
        backoff_until=backoff,
        last_run_tick=state.last_run_tick,
        running=is_running(
            state.last_started_at, state.last_finished_at, now, info.schedule.max_duration_ms
        ),
    )


def begin_tick(
    paths: KernelPaths,
    settings: Settings,
    tick: int,
    now: datetime | None = None,
    *,
    lease: Lease | None = None,
    memory_check: bool = True,
) -> TickPlan:
    """Run the memory check, re-read every partition's front matter, select (docs/formats.md §7.3),
    write the playlist and the started state of each pick. Call under the kernel lock.

    Raises:
        InputError, OSError: from the memory check or the kernel files.
    """
    now = now or datetime.now(UTC)
    check = _memory_check(paths, settings, lease) if memory_check else None
    infos = discover_partitions(paths)
    views = {info.name: _view(info, paths, now) for info in infos}
    selection = select_partitions(
        read_playlist(paths),
        views,
        enabled_names(infos),
        tick=tick,
        now=now,
        limit=settings.max_partitions_per_tick,
        implemented=IMPLEMENTED_PARTITIONS,
    )
    if selection.playlist is not None:
        if lease is not None:
            lease.ensure()
        write_playlist(paths, selection.playlist)
    by_name = {info.name: info for info in infos}
    runs: list[RunContext] = []
    for name in selection.picks:
        if lease is not None:
            lease.ensure()
        run = RunContext.start(name, tick, by_name[name].schedule.max_duration_ms, now)
        prev = read_state(paths, name)
        write_state(paths, name, replace(prev, last_started_at=run.started_at, last_run_tick=tick))
        runs.append(run)
    for note in selection.notes:
        log.warning("tick %s: %s", tick, note)
    return TickPlan(
        tick=tick,
        runs=tuple(runs),
        skipped=selection.skipped,
        notes=selection.notes,
        memory_check=check,
        partitions=tuple(by_name),
    )


def finish_run(
    paths: KernelPaths,
    settings: Settings,
    run: RunContext,
    outcome: str,
    now: datetime | None = None,
) -> bool:
    """Record the end of a tick-started run: playlist check-off + History, state file.

    Idempotent: a run whose finish is already recorded, or that a newer run replaced,
    is left alone (returns False). Call under the kernel lock.
    """
    now = now or datetime.now(UTC)
    prev = read_state(paths, run.partition)
    if prev.last_started_at != run.started_at:
        return False
    if prev.last_finished_at and prev.last_finished_at >= run.started_at:
        return False
    text = read_playlist(paths)
    checked = check_off(text, run.partition, iso(now))
    if checked is not None:
        write_playlist(paths, checked)
    state = next_state(
        prev,
        outcome,
        now,
        settings.cadence_interval_ms,
        started_at=parse_iso(run.started_at),
        tick=run.tick,
    )
    write_state(paths, run.partition, state)
    return True


def weaver_outcome(report: dict[str, Any]) -> str:
    """The weaver's run is ``invalid_output`` when its final text is blank."""
    text = report.get("text")
    return "success" if isinstance(text, str) and text.strip() else "invalid_output"


def record_weaver_end(
    paths: KernelPaths,
    settings: Settings,
    run: RunContext | None,
    report: dict[str, Any],
    lease: Lease,
) -> None:
    """Record how a weaver pass ended: a tick-started run's outcome (docs/formats.md
    §7.4; the lease is checked first), or a manual run's status. Call under the kernel
    lock."""
    if run is None:
        record_manual_run(paths, WEAVER, report.get("status") or "")
        return
    lease.ensure()
    finish_run(paths, settings, run, weaver_outcome(report))


MANUAL_DIR = "manual-runs"


@dataclass(frozen=True)
class ManualRun:
    """The last run of a partition started by hand (``weave``, ``commit``, ``enqueue``)."""

    partition: str
    finished_at: str
    result: str

    def to_json(self) -> dict[str, Any]:
        return {"partition": self.partition, "finished_at": self.finished_at, "result": self.result}


def _manual_file(paths: KernelPaths, partition: str) -> Path:
    return paths.subcon_state_dir / MANUAL_DIR / f"{partition}.json"


def record_manual_run(
    paths: KernelPaths, partition: str, result: str, now: datetime | None = None
) -> None:
    """Remember a hand-started run for ``status`` (subcon's own file, not the partition state file).

    Best effort: the run already happened, so a runtime dir that cannot be written to
    only loses this note (logged).
    """
    from shared.jsontext import pretty
    from shared.kernel.files import atomic_write_text

    record = ManualRun(partition, iso(now or datetime.now(UTC)), result)
    try:
        target = _manual_file(paths, partition)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, pretty(record.to_json()))
    except OSError as exc:
        log.warning("could not record the manual run of %s: %s", partition, exc)


def read_manual_run(paths: KernelPaths, partition: str) -> ManualRun | None:
    """The last hand-started run of ``partition``, or None (missing or unreadable file)."""
    import json

    try:
        data = json.loads(_manual_file(paths, partition).read_text(encoding="utf-8"))
        return ManualRun(str(data["partition"]), str(data["finished_at"]), str(data["result"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
