"""Collect a :class:`~shared.report.model.Report` from the kernel, the runtime and git.

Read only: nothing here writes to the kernel or the runtime, takes the kernel lock or
touches git's index (``git status`` runs with ``--no-optional-locks``). Bad input is
never fatal: an unreadable fragment, effectiveness file, audit line or spine line is
skipped and named in ``Report.problems``, so the report always says what it left out.

The window is ``days`` UTC days ending at the newest day that has a spine file or a
fragment directory (today when there is neither), so a quiet kernel still shows its
last activity.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import orjson

from shared.committer.audit import AuditRecord, parse_audit_line
from shared.errors import InputError
from shared.formats.board import Board, parse_board
from shared.formats.effectiveness import Effectiveness, read_effectiveness
from shared.kernel.files import read_utf8
from shared.kernel.paths import KernelPaths
from shared.partitions.playlist import read_playlist
from shared.report.calendar import coverage_days
from shared.report.daycounts import DayCountCache
from shared.report.history import (
    RawChange,
    WeaverChange,
    board_versions,
    counts_in,
    find_reason,
    line_changes,
    line_keys,
    parse_weaver_log,
    recent_commits,
)
from shared.report.holdback import held_files
from shared.report.model import (
    SCHEMA,
    BoardRow,
    CommitSummary,
    DayCounts,
    Evidence,
    LineChange,
    LineHistory,
    Report,
    Trajectory,
    Window,
)
from shared.report.partitions import partition_rows
from shared.spine.gap import event_dates
from shared.timestamps import iso
from shared.weaver.crystallize.store import StoredFragment, load_fragments, resolve_marker

EVIDENCE_KEPT = 5
DEFAULT_DAYS = 30
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Inputs:
    """What the collector reads besides the two roots."""

    days: int = DEFAULT_DAYS
    tick: int | None = None
    max_line_bytes: int = 4 * 1024 * 1024
    now: datetime | None = None
    # Where per-day spine counts are cached between runs (None: read every day file);
    # with ``save_cache`` False the cache is only read (``--json`` writes nothing).
    spine_cache: Path | None = None
    save_cache: bool = True


def _fragment_day(sf: StoredFragment) -> str:
    parts = sf.rel.split("/")
    return parts[2] if len(parts) > 3 else sf.fragment.source_ts[:10]


def window_dates(paths: KernelPaths, days: int, now: datetime) -> list[str]:
    """``days`` consecutive dates ending at the newest spine or fragment day."""
    newest = event_dates(paths)[-1:]
    with contextlib.suppress(OSError):
        newest += sorted(
            p.name for p in paths.fragments_dir.iterdir() if _DATE_RE.fullmatch(p.name)
        )[-1:]
    end = date.fromisoformat(max(newest)) if newest else now.date()
    return [(end - timedelta(days=n)).isoformat() for n in range(days - 1, -1, -1)]


def _sections(board: Board) -> dict[int, str]:
    """Line number -> the heading above it."""
    out: dict[int, str] = {}
    current = ""
    numbers = {line.number for line in board.lines}
    for number, raw in enumerate(board.text.split("\n"), start=1):
        if raw.startswith("#"):
            current = raw.lstrip("#").strip()
        elif number in numbers:
            out[number] = current
    return out


def _evidence(sf: StoredFragment) -> Evidence:
    f = sf.fragment
    return Evidence(
        path=sf.rel,
        date=_fragment_day(sf),
        trajectory=f.trajectory,
        signal=f.signal,
        event_type=f.event_type,
        source_kind=f.source_kind,
        source_ts=f.source_ts,
        quotes=f.evidence,
        note=" ".join(f.notes),
    )


def _strip(group: list[StoredFragment], dates: list[str]) -> tuple[DayCounts, ...]:
    counts: dict[str, list[int]] = {d: [0, 0, 0] for d in dates}
    slot = {"STRENGTHENING": 0, "NEUTRAL": 1, "WEAKENING": 2}
    for sf in group:
        day = counts.get(_fragment_day(sf))
        index = slot.get(sf.fragment.trajectory)
        if day is not None and index is not None:
            day[index] += 1
    return tuple(DayCounts(d, *counts[d]) for d in dates)


def _anchor(key: str) -> str:
    return "line-" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _read_audit(paths: KernelPaths, since: str, problems: list[str]) -> list[AuditRecord]:
    """Audit records from files dated ``since`` or later; bad lines skipped and named."""
    out: list[AuditRecord] = []
    try:
        files = sorted(p for p in paths.audit_dir.glob("*.jsonl") if p.stem >= since)
    except OSError:
        return out
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            problems.append(f"{path}: unreadable: {exc.strerror}")
            continue
        for lineno, raw in enumerate(data.split(b"\n"), start=1):
            if not raw.strip():
                continue
            try:
                out.append(parse_audit_line(raw.decode("utf-8"), path, lineno))
            except UnicodeDecodeError:
                problems.append(f"{path}:{lineno}: audit line is not UTF-8, skipped")
            except InputError as exc:
                problems.append(f"{exc}, skipped")
    return out


def _weaver_log(paths: KernelPaths, problems: list[str]) -> list[WeaverChange]:
    out: list[WeaverChange] = []
    try:
        files = sorted(paths.weaver_report_dir.glob("*.jsonl"))
    except OSError:
        return out
    for path in files:
        try:
            text = path.read_bytes().decode("utf-8", "replace")
        except OSError as exc:
            problems.append(f"{path}: unreadable: {exc.strerror}")
            continue
        changes, bad = parse_weaver_log(text)
        out += changes
        if bad:
            problems.append(f"{path}: {bad} unreadable weaver report line(s) skipped")
    out.sort(key=lambda w: w.ts)
    return out


def _count_before(group: list[StoredFragment], when: str) -> tuple[int, int, int]:
    s = n = w = 0
    for sf in group:
        if sf.fragment.source_ts and sf.fragment.source_ts > when:
            continue
        t = sf.fragment.trajectory
        s += t == "STRENGTHENING"
        n += t == "NEUTRAL"
        w += t == "WEAKENING"
    return s, n, w


def _line_change(
    raw: RawChange, log: list[WeaverChange], group: list[StoredFragment]
) -> LineChange:
    found = find_reason(raw, log)
    reason = found.reason if found else None
    counts = counts_in(reason) or _count_before(group, raw.version.date)
    v = raw.version
    return LineChange(
        kind=raw.kind,
        commit=v.commit,
        date=v.date,
        subject=v.subject,
        body=v.body,
        old_text=raw.old.text if raw.old else None,
        new_text=raw.new.text if raw.new else None,
        reason=reason,
        strengthening=counts[0],
        neutral=counts[1],
        weakening=counts[2],
    )


def _mtime_iso(path: Path, fallback: datetime) -> str:
    try:
        return iso(datetime.fromtimestamp(path.stat().st_mtime, UTC))
    except OSError:
        return iso(fallback)


def collect_report(paths: KernelPaths, inputs: Inputs | None = None) -> Report:
    """Everything the report shows, read from ``paths`` (see the module docstring).

    Raises:
        ConfigError: the kernel dir does not exist.
    """
    inputs = inputs or Inputs()
    paths.require_kernel()
    now = inputs.now or datetime.now(UTC)
    problems: list[str] = []
    dates = window_dates(paths, max(1, inputs.days), now)
    since = dates[0]

    unreadable = False
    try:
        board_text = read_utf8(paths.board)
    except InputError as exc:
        problems.append(f"{exc} (board not shown)")
        board_text, unreadable = None, True
    board = parse_board(board_text or "")

    stored, fragment_errors = load_fragments(paths)
    problems += [f"{e} (fragment skipped)" for e in fragment_errors]
    keys = line_keys(board.lines)
    # Fragments are keyed like the lines they cite: by marker, or by the line's text hash
    # where the marker is missing or shared by several lines of the board.
    shared_markers = {x.marker for x in board.lines if x.marker and keys[x.number] != x.marker}
    hash_keys = {x.hash: keys[x.number] for x in board.lines}
    by_key: dict[str, list[StoredFragment]] = defaultdict(list)
    per_day: dict[str, int] = defaultdict(int)
    for sf in stored:
        per_day[_fragment_day(sf)] += 1
        marker = resolve_marker(sf.fragment, board)
        if marker and marker not in shared_markers:
            by_key[marker].append(sf)
        elif sf.fragment.source_line_hash in hash_keys:
            by_key[hash_keys[sf.fragment.source_line_hash]].append(sf)

    # History: every committed version, then the working tree.
    working = None if unreadable else (board_text or "")
    versions = board_versions(paths.kernel, working, _mtime_iso(paths.board, now))
    raw_changes, alias = line_changes(versions)
    log = _weaver_log(paths, problems)
    by_history: dict[str, list[LineChange]] = defaultdict(list)
    texts: dict[str, tuple[str, str | None]] = {}
    for raw in raw_changes:
        line = raw.new or raw.old
        assert line is not None
        by_history[raw.key].append(_line_change(raw, log, by_key.get(raw.line_key, [])))
        texts[raw.key] = (line.text, line.marker)

    current_keys = {alias.get(k, k) for k in keys.values()}
    if unreadable and versions:
        # Not knowing the working tree, judge "still on the board" by the last commit.
        last = line_keys(versions[-1].board.lines).values()
        current_keys = {alias.get(k, k) for k in last}
    sections = _sections(board)
    rows: list[BoardRow] = []
    for line in board.lines:
        key = keys[line.number]
        hist = alias.get(key, key)
        group = sorted(by_key.get(key, []), key=lambda sf: sf.fragment.source_ts, reverse=True)
        eff: Effectiveness | None = None
        eff_rel = None
        if line.marker:
            eff_path = paths.effectiveness_dir / f"{line.marker}.md"
            try:
                eff = read_effectiveness(eff_path)
            except (InputError, OSError) as exc:
                problems.append(f"{exc} (effectiveness file not shown)")
            if eff is not None:
                eff_rel = f"memory/effectiveness/{line.marker}.md"
        changes = by_history.get(hist, [])
        rows.append(
            BoardRow(
                number=line.number,
                text=line.text,
                section=sections.get(line.number, ""),
                marker=line.marker,
                hash=line.hash,
                trajectory=Trajectory.of(eff.trajectory if eff else None),
                strengthening=eff.strengthening if eff else 0,
                neutral=eff.neutral if eff else 0,
                weakening=eff.weakening if eff else 0,
                guidance=eff.guidance if eff else (),
                effectiveness=eff_rel,
                strip=_strip(group, dates),
                evidence=tuple(_evidence(sf) for sf in group[:EVIDENCE_KEPT]),
                evidence_total=len(group),
                last_change=changes[-1] if changes else None,
                history=_anchor(hist),
            )
        )
    histories = []
    for key, changes in by_history.items():
        text, marker = texts[key]
        on_board = key in current_keys
        histories.append(LineHistory(key, _anchor(key), text, marker, on_board, tuple(changes)))
    # Lines gone from the board first: "where did my line go" is the question asked most.
    histories.sort(key=lambda h: (h.on_board, h.changes[-1].date if h.changes else ""))

    audit = _read_audit(paths, since, problems)
    held, held_problems = held_files(paths.kernel, audit)
    problems += held_problems
    commits = [
        CommitSummary(c.commit, c.date, c.subject, c.files) for c in recent_commits(paths.kernel)
    ]
    partitions, partition_problems = partition_rows(
        paths, audit, inputs.tick, since, now, _playlist(paths, problems)
    )
    problems += partition_problems
    cache = DayCountCache(inputs.spine_cache)
    coverage, coverage_problems = coverage_days(paths, dates, per_day, inputs.max_line_bytes, cache)
    try:
        if inputs.save_cache:
            cache.save()
    except OSError as exc:
        problems.append(f"{inputs.spine_cache}: spine count cache not saved: {exc.strerror}")
    problems += coverage_problems

    return Report(
        schema=SCHEMA,
        generated_at=iso(now),
        kernel=str(paths.kernel),
        runtime=str(paths.runtime),
        window=Window(dates[0], dates[-1], len(dates)),
        tick=inputs.tick,
        board=tuple(rows),
        histories=tuple(histories),
        held=tuple(held),
        commits=tuple(commits),
        partitions=tuple(partitions),
        coverage=tuple(coverage),
        problems=tuple(problems),
    )


def _playlist(paths: KernelPaths, problems: list[str]) -> str | None:
    try:
        return read_playlist(paths)
    except (InputError, OSError) as exc:
        problems.append(f"{exc} (playlist history not shown)")
        return None


def report_json(report: Report) -> str:
    """The ``--json`` document: pretty (2-space indent), raw UTF-8, trailing LF.

    orjson serialises the frozen records and enums directly (a year-long report is
    megabytes; ``dataclasses.asdict`` + ``json`` took 20x longer).
    """
    return orjson.dumps(report, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"
