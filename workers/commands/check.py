"""``subcon check``: one memory-check tick (kernel-format 6.1) under the kernel lock."""

from __future__ import annotations

import click

from shared.jsontext import compact
from shared.lock.factory import open_kernel_lock
from shared.memcheck import CheckReport, run_memory_check
from shared.partitions import discover_partitions
from workers.context import CliContext


@click.command(name="check")
@click.option("--dry-run", is_flag=True, help="measure and report, write nothing")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.pass_obj
def command(ctx: CliContext, dry_run: bool, as_json: bool) -> int:
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
    if as_json:
        click.echo(compact({**report.to_json(), "unreadable_partitions": unreadable}))
    else:
        click.echo(report.text)
        for entry in unreadable:
            click.echo(f"  partition {entry['name']} not runnable: {entry['error']}")
    return 1 if report.errors or unreadable else 0
