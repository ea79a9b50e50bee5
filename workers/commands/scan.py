"""``subcon scan``: scan and crystallize any range of the spine (no board update)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import click
from celery.result import AsyncResult

from shared.constants import WEAVER
from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from workers.context import CliContext
from workers.options import json_option, timeout_option


def _day(text: str, option: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InputError(None, None, f"{option}: {text!r} is not a YYYY-MM-DD date") from None


def whole_day(day: date) -> str:
    """The interval token covering every hour of ``day``."""
    return f"{day.strftime('%Y%m%d')}[00,23]"


def interval_for(
    paths: KernelPaths,
    interval: str | None,
    day: str | None,
    start: str | None,
    end: str | None,
) -> str:
    """The interval text for the chosen range option (exactly one must be given).

    ``--from/--to`` keeps only the days that have a spine file, so a long range costs
    nothing for its empty days.

    Raises:
        InputError: no range, several ranges, bad dates, or no spine day in the range.
    """
    chosen = [x for x in (interval, day, start or end) if x]
    if len(chosen) != 1:
        raise InputError(None, None, "give exactly one of --interval, --date, --from/--to")
    if interval:
        return interval
    if day:
        return whole_day(_day(day, "--date"))
    if not (start and end):
        raise InputError(None, None, "--from and --to go together")
    first, last = _day(start, "--from"), _day(end, "--to")
    if last < first:
        raise InputError(None, None, f"--to {end} is before --from {start}")
    tokens = []
    current = first
    while current <= last:
        if paths.day_file(current.isoformat()).is_file():
            tokens.append(whole_day(current))
        current += timedelta(days=1)
    if not tokens:
        raise InputError(paths.events_dir, None, f"no spine day file between {start} and {end}")
    return " ".join(tokens)


def render_scan(interval: str, report: dict[str, Any]) -> str:
    """The human summary of a scan + crystallize report."""
    new = report.get("fragments_new") or []
    prior = report.get("fragments_prior") or []
    lines = [
        f"scan {interval}: {report.get('external_events', 0)} external turns judged; "
        f"fragments {len(new)} new, {len(prior)} prior reused"
    ]
    covered = report.get("covered") or []
    lines.append(f"covered: {', '.join(covered) if covered else 'none'}")
    stats = report.get("stats") or {}
    malformed = stats.get("malformed") or []
    if stats.get("malformed_count") or malformed:
        count = stats.get("malformed_count", len(malformed))
        lines.append(f"malformed lines skipped: {count}")
        lines.extend(f"  {m}" for m in malformed[:5])
    missing = report.get("missing_slices") or []
    if missing:
        lines.append(f"slices not read: {', '.join(map(str, missing))}")
    return "\n".join(lines)


@click.command(name="scan")
@click.option(
    "--interval", metavar="INTERVAL", help="interval tokens, e.g. '20260105[03,05] 20260105[14,15]'"
)
@click.option("--date", "day", metavar="DATE", help="one whole UTC day DATE, YYYY-MM-DD")
@click.option("--from", "start", metavar="DATE", help="first day of a range, YYYY-MM-DD")
@click.option("--to", "end", metavar="DATE", help="last day of a range, YYYY-MM-DD")
@json_option
@timeout_option("memory-weaver's hard time limit")
@click.pass_obj
def command(
    obj: CliContext,
    interval: str | None,
    day: str | None,
    start: str | None,
    end: str | None,
    as_json: bool,
    timeout: float | None,
) -> None:
    """Scan and crystallize a range (creates each fully read day's fragments dir)."""
    from workers import progress
    from workers.app import make_app
    from workers.canvas import partition_limits, plan_weaver, send_weaver
    from workers.reachability import require_broker
    from workers.waiting import ScanProgress, emit, poll_group, run_and_wait

    obj.paths.require_kernel()
    text = interval_for(obj.paths, interval, day, start, end)
    app = make_app(obj.settings)
    require_broker(app)
    plan_json = plan_weaver(app, interval=text, target=obj.target())
    slices = plan_json.get("slices") or []
    limit = timeout if timeout is not None else partition_limits(obj.paths, WEAVER)[1] + 60
    bar = ScanProgress(len(slices))

    def start_scan() -> AsyncResult:
        return send_weaver(app, plan_json, scan_only=True, target=obj.target())

    def on_poll(result: AsyncResult) -> None:
        poll_group(result, bar.update)

    try:
        if app.conf.task_always_eager:
            with progress.listening(bar.update):
                _, report = run_and_wait(start_scan, limit)
        else:
            _, report = run_and_wait(start_scan, limit, on_poll)
    finally:
        bar.close()
    report.setdefault("interval", text)
    report.setdefault("text", render_scan(text, report))
    emit(report, as_json)
