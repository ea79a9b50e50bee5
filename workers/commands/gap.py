"""``subcon gap``: find the next spine gap and post ``scan-gap.md.pending``.

Plain posting only (kernel-format 6.6 delivery): the contract gate and the
signal ledger belong to the memory check.
"""

from __future__ import annotations

import click

from shared.gap import find_gap, post_gap
from shared.jsontext import compact
from workers.context import CliContext


@click.command(name="gap")
@click.option("--dry-run", is_flag=True, help="find the gap but write nothing")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.pass_obj
def command(ctx: CliContext, dry_run: bool, as_json: bool) -> int:
    """Post the newest unscanned spine day (or day tail) to the memory-weaver inbox."""
    ctx.paths.require_kernel()
    gap = find_gap(ctx.paths, ctx.settings)
    if gap is None:
        if as_json:
            click.echo(
                compact(
                    {
                        "date": None,
                        "bands": [],
                        "tokens": [],
                        "external_events": 0,
                        "incremental": False,
                        "dry_run": dry_run,
                        "posted": [],
                        "withheld": [],
                    }
                )
            )
        else:
            click.echo("gap: none — all external days dreamt")
        return 0
    result = post_gap(ctx.paths, gap, dry_run=dry_run)
    if as_json:
        click.echo(
            compact(
                {
                    **gap.to_json(),
                    "dry_run": dry_run,
                    "posted": result.posted,
                    "withheld": result.withheld,
                }
            )
        )
        return 0
    what = "tail" if gap.incremental else f"{len(gap.bands)} band(s)"
    click.echo(f"gap: {gap.date} ({what}) {' '.join(gap.tokens)}")
    click.echo(f"external events in window: {gap.external_events}")
    verb = "would post" if dry_run else "posted"
    for path in result.posted:
        click.echo(f"{verb} {path}")
    for item in result.withheld:
        click.echo(f"  withheld {item['kind']} → {item['partition']}: {item['reason']}")
    return 0
