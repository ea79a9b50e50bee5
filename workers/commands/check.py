"""``subcon check``: one memory-check tick (docs/formats.md §8.1) under the kernel lock."""

from __future__ import annotations

import click

from shared.jsontext import pretty
from shared.kernel.lock.factory import open_kernel_lock
from shared.memcheck.check import CheckReport, run_memory_check
from shared.partitions.discovery import discover_partitions
from shared.spine.gap import misnamed_day_files
from shared.spine.reader import ReadStats
from workers.context import CliContext
from workers.malformed import malformed_json, malformed_lines
from workers.options import json_option


@click.command(name="check")
@click.option("--dry-run", is_flag=True, help="measure and report, write nothing")
@json_option
@click.option("-v", "--verbose", is_flag=True, help="list every malformed spine line skipped")
@click.pass_obj
def command(ctx: CliContext, dry_run: bool, as_json: bool, verbose: bool) -> int:
    """Lint memory, post signals to partition inboxes, sweep stale ones.

    Exits 1 when a sub-step failed (the report lists the errors) or a partition's
    CLAUDE.md cannot be read (listed with file:line and the reason).
    """
    ctx.paths.require_kernel()
    report: CheckReport
    if dry_run:
        report = run_memory_check(ctx.paths, ctx.settings, dry_run=True)
    else:
        lock = open_kernel_lock(ctx.settings, ctx.paths)
        with lock.hold("memory-check") as lease:
            report = run_memory_check(ctx.paths, ctx.settings, lease=lease)
    unreadable = [
        {"name": p.name, "error": p.error}
        for p in discover_partitions(ctx.paths, include_errors=True)
        if p.error is not None
    ]
    spine = _spine_stats(ctx)
    misnamed = misnamed_day_files(ctx.paths)
    if as_json:
        doc = {
            **report.to_json(),
            "unreadable_partitions": unreadable,
            "spine": {**malformed_json(spine), "misnamed": [m.to_json() for m in misnamed]},
        }
        click.echo(pretty(doc), nl=False)
    else:
        click.echo(report.text)
        for entry in unreadable:
            click.echo(f"  partition {entry['name']} not runnable: {entry['error']}")
        for line in malformed_lines(spine, verbose=verbose):
            click.echo(line)
        for day in misnamed:
            click.echo(f"warning: {day.warning}")
    return 1 if report.errors or unreadable else 0


def _spine_stats(ctx: CliContext) -> ReadStats:
    """Malformed lines in the day files the gap check consults (its cache makes this
    a re-read of nothing when the check just ran)."""
    from shared.spine.gap import find_gap

    stats = ReadStats()
    find_gap(ctx.paths, ctx.settings, stats=stats)
    return stats
