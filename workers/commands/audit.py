"""`subcon audit [--since T] [--file PATH] [--json]`: read the committer's audit log."""

from __future__ import annotations

import click

from shared.committer.audit import read_audit
from shared.jsontext import compact, pretty, shown
from workers.commands.status import require_roots
from workers.context import CliContext
from workers.options import json_option


@click.command(name="audit")
@click.option("--since", default=None, metavar="TIME", help="ISO date or timestamp (UTC)")
@click.option(
    "--file", "file", default=None, metavar="PATH", help="only records for the kernel file PATH"
)
@json_option
@click.pass_obj
def command(ctx: CliContext, since: str | None, file: str | None, as_json: bool) -> int:
    """Print committer audit records, oldest first.

    Exit 2 when the kernel or runtime dir is missing; "no audit records" when none
    match (exit 0).
    """
    require_roots(ctx.paths)
    records = read_audit(ctx.paths, since=since, file=file)
    if as_json:
        click.echo(pretty([r.to_json() for r in records]), nl=False)
        return 0
    for r in records:
        where = shown(r.file) if r.file else "-"
        if r.line is not None:
            where = f"{where}:{r.line}"
        extra = f" {r.commit[:12]}" if r.commit else ""
        quote = f" {compact(r.quote)}" if r.quote else ""
        rule = f"{r.rule} " if r.rule else ""
        if r.rule and r.reading:
            rule = f"{r.rule} [{r.reading}] "
        click.echo(f"{r.ts} {r.decision} {where} {rule}{r.reason or ''}{extra}{quote}".rstrip())
    if not records:
        click.echo("no audit records" + (f" since {since}" if since else ""))
    return 0
