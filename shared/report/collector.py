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
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import orjson

from shared.committer.audit import AuditRecord, parse_audit_line
from shared.errors import InputError
from shared.formats.board import parse_board
from shared.importing.status import read_status
from shared.kernel.files import read_utf8
from shared.kernel.paths import KernelPaths
from shared.partitions.playlist import read_playlist
from shared.report.calendar import coverage_days
from shared.report.daycounts import DayCountCache
from shared.report.history import (
    RawChange,
    Version,
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
    CommitSummary,
    CoverageDay,
    ImportSource,
    LineChange,
    LineHistory,
    Report,
    Window,
)
from shared.report.partitions import partition_rows
from shared.report.rows import anchor, board_rows, fragments_by_line
from shared.spine.gap import event_dates
from shared.timestamps import iso
from shared.weaver.crystallize.store import StoredFragment, load_fragments

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


def window_dates(paths: KernelPaths, days: int, now: datetime) -> list[str]:
    """``days`` consecutive dates ending at the newest spine or fragment day."""
    newest = event_dates(paths)[-1:]
    with contextlib.suppress(OSError):
        newest += sorted(
            p.name for p in paths.fragments_dir.iterdir() if _DATE_RE.fullmatch(p.name)
        )[-1:]
    end = date.fromisoformat(max(newest)) if newest else now.date()
    return [(end - timedelta(days=n)).isoformat() for n in range(days - 1, -1, -1)]


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


def _read_board(paths: KernelPaths, problems: list[str]) -> tuple[str | None, bool]:
    """The board's text and whether it was unreadable (then None, named in problems)."""
    try:
        return read_utf8(paths.board), False
    except InputError as exc:
        problems.append(f"{exc} (board not shown)")
        return None, True


def _history(
    paths: KernelPaths,
    versions: list[Version],
    by_key: dict[str, list[StoredFragment]],
    problems: list[str],
) -> tuple[dict[str, list[LineChange]], dict[str, tuple[str, str | None]], dict[str, str]]:
    """Each line history's changes and (text, marker), and the line-key aliases."""
    raw_changes, alias = line_changes(versions)
    log = _weaver_log(paths, problems)
    by_history: dict[str, list[LineChange]] = defaultdict(list)
    texts: dict[str, tuple[str, str | None]] = {}
    for raw in raw_changes:
        line = raw.new or raw.old
        assert line is not None
        by_history[raw.key].append(_line_change(raw, log, by_key.get(raw.line_key, [])))
        texts[raw.key] = (line.text, line.marker)
    return by_history, texts, alias


def _line_histories(
    by_history: dict[str, list[LineChange]],
    texts: dict[str, tuple[str, str | None]],
    current_keys: set[str],
) -> list[LineHistory]:
    histories = []
    for key, changes in by_history.items():
        text, marker = texts[key]
        on_board = key in current_keys
        histories.append(LineHistory(key, anchor(key), text, marker, on_board, tuple(changes)))
    # Lines gone from the board first: "where did my line go" is the question asked most.
    histories.sort(key=lambda h: (h.on_board, h.changes[-1].date if h.changes else ""))
    return histories


def _coverage(
    paths: KernelPaths,
    inputs: Inputs,
    dates: list[str],
    per_day: dict[str, int],
    problems: list[str],
) -> list[CoverageDay]:
    cache = DayCountCache(inputs.spine_cache)
    coverage, coverage_problems = coverage_days(paths, dates, per_day, inputs.max_line_bytes, cache)
    try:
        if inputs.save_cache:
            cache.save()
    except OSError as exc:
        problems.append(f"{inputs.spine_cache}: spine count cache not saved: {exc.strerror}")
    problems += coverage_problems
    return coverage


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
    board_text, unreadable = _read_board(paths, problems)
    board = parse_board(board_text or "")
    stored, fragment_errors = load_fragments(paths)
    problems += [f"{e} (fragment skipped)" for e in fragment_errors]
    keys = line_keys(board.lines)
    by_key, per_day = fragments_by_line(stored, board, keys)
    # History: every committed version, then the working tree.
    working = None if unreadable else (board_text or "")
    versions = board_versions(paths.kernel, working, _mtime_iso(paths.board, now))
    by_history, texts, alias = _history(paths, versions, by_key, problems)
    current_keys = {alias.get(k, k) for k in keys.values()}
    if unreadable and versions:
        # Not knowing the working tree, judge "still on the board" by the last commit.
        last = line_keys(versions[-1].board.lines).values()
        current_keys = {alias.get(k, k) for k in last}
    rows = board_rows(paths, board, keys, alias, by_key, by_history, dates, problems)
    histories = _line_histories(by_history, texts, current_keys)
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
    coverage = _coverage(paths, inputs, dates, per_day, problems)
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
        imports=tuple(_imports(paths)),
        problems=tuple(problems),
    )


def _imports(paths: KernelPaths) -> list[ImportSource]:
    """Each transcript source's last import (``subcon import`` or a tick), by name."""
    out = []
    for spec, entry in sorted(read_status(paths).items()):
        if not isinstance(entry, dict):
            continue
        shown = entry.get("problems_shown")
        out.append(
            ImportSource(
                source=spec,
                last_import=entry.get("last_import")
                if isinstance(entry.get("last_import"), str)
                else None,
                files=int(entry.get("files") or 0),
                events=int(entry.get("events") or 0),
                problems=int(entry.get("problems") or 0),
                problems_shown=tuple(str(p) for p in shown[:20]) if isinstance(shown, list) else (),
            )
        )
    return out


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
