"""``subcon gap``: find the next spine gap and post ``scan-gap.md.pending``.

Plain posting only (docs/formats.md §9.4): the contract gate and the
signal ledger belong to the memory check.
"""

from __future__ import annotations

from typing import Any

import click

from shared.jsontext import pretty
from shared.spine.gap import find_gap, post_gap
from shared.spine.reader import ReadStats
from workers.context import CliContext
from workers.malformed import malformed_json, malformed_lines
from workers.options import json_option


@click.command(name="gap")
@click.option("--dry-run", is_flag=True, help="find the gap but write nothing")
@json_option
@click.option("-v", "--verbose", is_flag=True, help="list every malformed spine line skipped")
@click.pass_obj
def command(ctx: CliContext, dry_run: bool, as_json: bool, verbose: bool) -> int:
    """Post the newest unscanned spine day (or day tail) to the memory-weaver inbox.

    Malformed spine lines in the day files read are skipped and reported (file:line).
    """
    ctx.paths.require_kernel()
    stats = ReadStats()
    gap = find_gap(ctx.paths, ctx.settings, stats=stats)
    if gap is None:
        if as_json:
            doc: dict[str, Any] = {
                "date": None,
                "bands": [],
                "tokens": [],
                "external_events": 0,
                "incremental": False,
                "dry_run": dry_run,
                "posted": [],
                "withheld": [],
                **malformed_json(stats),
            }
            click.echo(pretty(doc), nl=False)
        else:
            click.echo("gap: none — all external days dreamt")
            for line in malformed_lines(stats, verbose=verbose):
                click.echo(line)
        return 0
    result = post_gap(ctx.paths, gap, dry_run=dry_run)
    if as_json:
        doc = {
            **gap.to_json(),
            "dry_run": dry_run,
            "posted": result.posted,
            "withheld": result.withheld,
            **malformed_json(stats),
        }
        click.echo(pretty(doc), nl=False)
        return 0
    what = "tail" if gap.incremental else f"{len(gap.bands)} band(s)"
    click.echo(f"gap: {gap.date} ({what}) {' '.join(gap.tokens)}")
    click.echo(f"external events in window: {gap.external_events}")
    verb = "would post" if dry_run else "posted"
    for path in result.posted:
        click.echo(f"{verb} {path}")
    for item in result.withheld:
        click.echo(f"  withheld {item['kind']} → {item['partition']}: {item['reason']}")
    for line in malformed_lines(stats, verbose=verbose):
        click.echo(line)
    return 0
