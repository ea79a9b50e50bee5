"""Partition rows: schedule, run history, backoff, cooldown and pending inbox items.

Run history is gathered from what each partition leaves behind: the state file
(docs/formats.md §7.4; the latest run only, with its start), the committer's audit
records (one wake = the records sharing a timestamp: tick, duration, outcome), the
weaver's run log, and the playlist's ``## History`` lines (finish times only). A
field no source records stays None and renders as a dash.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from shared.committer.audit import AuditRecord
from shared.constants import COMMITTER, WEAVER
from shared.kernel.paths import KernelPaths
from shared.partitions.discovery import discover_partitions
from shared.partitions.inbox import list_items
from shared.partitions.state import is_backed_off, read_state
from shared.report.model import InboxRow, PartitionRow, RunRecord
from shared.timestamps import iso, parse_iso

RUNS_KEPT = 30
BODY_PREVIEW = 600
_HISTORY_RE = re.compile(r"^- (\S+) executed=(.+)$")


def _ms_between(start: str | None, end: str | None) -> int | None:
    if not start or not end:
        return None
    try:
        delta = parse_iso(end) - parse_iso(start)
    except ValueError:
        return None
    ms = int(delta.total_seconds() * 1000)
    return ms if ms >= 0 else None


def committer_runs(records: Iterable[AuditRecord]) -> list[RunRecord]:
    """One run per committer wake (its records share ``ts``), oldest first."""
    wakes: dict[str, list[AuditRecord]] = {}
    for record in records:
        if not record.dry_run:
            wakes.setdefault(record.ts, []).append(record)
    out = []
    for ts in sorted(wakes):
        group = wakes[ts]
        decisions = {r.decision for r in group}
        if "committed" in decisions and "held" in decisions:
            result = "committed, held back"
        elif "committed" in decisions:
            result = "committed"
        elif "held" in decisions:
            result = "held back"
        elif "skipped" in decisions:
            result = f"skipped: {group[0].reason or ''}".rstrip(": ")
        else:
            result = "no new gradient"
        duration = next((r.duration_ms for r in group if r.duration_ms is not None), None)
        started = None
        if duration is not None:
            try:
                started = iso(parse_iso(ts) - timedelta(milliseconds=duration))
            except ValueError:
                started = None
        tick = next((r.tick for r in group if r.tick is not None), None)
        out.append(RunRecord(tick, started, ts, duration, result, "audit"))
    return out


def weaver_runs(paths: KernelPaths, since: str) -> tuple[list[RunRecord], list[str]]:
    """Weaver passes from its run log (``var/subconscious/memory-weaver/reports``)."""
    out: list[RunRecord] = []
    problems: list[str] = []
    directory = paths.weaver_report_dir
    try:
        files = sorted(p for p in directory.glob("*.jsonl") if p.stem >= since[:10])
    except OSError:
        return out, problems
    for path in files:
        try:
            text = path.read_bytes().decode("utf-8", "replace")
        except OSError as exc:
            problems.append(f"{path}: unreadable: {exc.strerror}")
            continue
        for lineno, raw in enumerate(text.split("\n"), start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except ValueError:
                problems.append(f"{path}:{lineno}: malformed weaver report line, skipped")
                continue
            if not isinstance(record, dict) or not isinstance(record.get("ts"), str):
                problems.append(f"{path}:{lineno}: weaver report line without ts, skipped")
                continue
            status = str(record.get("status") or "").rstrip(":") or None
            out.append(RunRecord(None, None, record["ts"], None, status, "weaver-report"))
    return out, problems


def playlist_runs(text: str | None) -> dict[str, list[RunRecord]]:
    """``- <ts> executed=<name>`` History lines, by partition, oldest first."""
    out: dict[str, list[RunRecord]] = {}
    if not text:
        return out
    for raw in text.split("\n"):
        match = _HISTORY_RE.match(raw.strip())
        if match:
            rec = RunRecord(None, None, match.group(1), None, None, "playlist")
            out.setdefault(match.group(2).strip(), []).append(rec)
    for runs in out.values():
        runs.sort(key=lambda r: r.finished or "")
    return out


def _inbox(paths: KernelPaths, name: str, now: datetime) -> tuple[InboxRow, ...]:
    rows = []
    directory = paths.inbox_dir(name)
    for item in list_items(paths, name):
        try:
            mtime = datetime.fromtimestamp(os.lstat(directory / item.name).st_mtime, UTC)
        except OSError:
            continue
        body = item.body if len(item.body) <= BODY_PREVIEW else item.body[:BODY_PREVIEW] + "…"
        age = max(0, int((now - mtime).total_seconds()))
        rows.append(InboxRow(item.name, body, iso(mtime), age))
    return tuple(rows)


def _inbox_names(paths: KernelPaths, known: list[str]) -> list[str]:
    """Discovered partitions plus any other partition inbox under ``var/subconscious``."""
    try:
        extra = sorted(p.name for p in paths.subconscious_var_dir.iterdir() if p.is_dir())
    except OSError:
        extra = []
    return known + [n for n in extra if n not in known and paths.inbox_dir(n).is_dir()]


def _same_run(state: RunRecord, other: RunRecord) -> bool:
    """The state file's run and another source's record of it: the same tick, or (no
    tick known) finish times within two seconds of each other."""
    if state.tick is not None and other.tick is not None:
        return state.tick == other.tick and _near(state.finished, other.finished, 60_000)
    return _near(state.finished, other.finished, 2_000)


def _signed_ms(a: str | None, b: str | None) -> int:
    forward = _ms_between(a, b)
    if forward is not None:
        return forward
    backward = _ms_between(b, a)
    return -backward if backward is not None else 10**12


def _near(a: str | None, b: str | None, limit_ms: int) -> bool:
    gap = _ms_between(a, b) if a and b and a <= b else _ms_between(b, a)
    return gap is not None and gap <= limit_ms


def _merge(latest: RunRecord | None, runs: list[RunRecord]) -> list[RunRecord]:
    """Runs oldest first with the state file's run folded in (it has the start time)."""
    if latest is None:
        return runs
    state = latest
    same = [r for r in runs if _same_run(state, r)]
    same.sort(key=lambda r: abs(_signed_ms(state.finished, r.finished)))
    out = [r for r in runs if not same or r is not same[0]]
    if same:
        base = same[0]
        latest = RunRecord(
            latest.tick if latest.tick is not None else base.tick,
            latest.started or base.started,
            latest.finished,
            latest.duration_ms if latest.duration_ms is not None else base.duration_ms,
            base.result if base.source == "audit" else latest.result,
            f"{latest.source}+{base.source}",
        )
    out.append(latest)
    out.sort(key=lambda r: r.finished or r.started or "")
    return out


def partition_rows(
    paths: KernelPaths,
    audit: list[AuditRecord],
    tick: int | None,
    since: str,
    now: datetime,
    playlist_text: str | None,
) -> tuple[list[PartitionRow], list[str]]:
    """One row per partition (discovered, or only holding an inbox), and problems."""
    problems: list[str] = []
    infos = {p.name: p for p in discover_partitions(paths, include_errors=True)}
    for found in infos.values():
        if found.error:
            problems.append(f"partition {found.name}: {found.error}")
    history = playlist_runs(playlist_text)
    weaver, weaver_problems = weaver_runs(paths, since)
    problems += weaver_problems
    by_source = {COMMITTER: committer_runs(audit), WEAVER: weaver}
    rows = []
    for name in _inbox_names(paths, list(infos)):
        info = infos.get(name)
        state = read_state(paths, name)
        latest: RunRecord | None = None
        if state.last_started_at or state.last_finished_at:
            finished = state.last_finished_at
            running = bool(
                state.last_started_at and (not finished or finished < state.last_started_at)
            )
            latest = RunRecord(
                state.last_run_tick,
                state.last_started_at,
                None if running else finished,
                None if running else _ms_between(state.last_started_at, finished),
                "running" if running else state.last_result,
                "state",
            )
        runs = by_source.get(name) or history.get(name, [])
        runs = [r for r in _merge(latest, list(runs)) if (r.finished or r.started or "") >= since]
        cooldown = info.schedule.cooldown_ticks if info else 0
        remaining = None
        if tick is not None and state.last_run_tick is not None:
            remaining = max(0, cooldown - (tick - state.last_run_tick))
        rows.append(
            PartitionRow(
                name=name,
                discovered=info is not None,
                enabled=bool(info and info.schedule.enabled and info.schedulable),
                cooldown_ticks=cooldown,
                last_run_tick=state.last_run_tick,
                cooldown_remaining=remaining,
                last_result=state.last_result,
                consecutive_failures=state.consecutive_failures,
                backoff_until=state.backoff_until,
                backed_off=is_backed_off(state, now),
                runs=tuple(reversed(runs[-RUNS_KEPT:])),
                inbox=_inbox(paths, name, now),
            )
        )
    return rows, problems
