"""``subcon reclaim [--dry-run] [--force]``: forget stale orphan nodes now, then commit.

The original's ``duoduo memory reclaim``: the forget pass whatever ``SUBCON_FORGET``
says. Only stale orphans (unreachable from the board, no node links to them, older than
48 h) whose partition accepted the orphan warning are forgotten; ``--force`` skips the
warning check, never the orphan state. The deletions are committed by one committer wake
(``forget: <slug>, stale orphan never linked``), audited like every commit.
"""

from __future__ import annotations

import click

from shared.committer.run import run_committer
from shared.jsontext import pretty
from shared.kernel.lock.factory import open_kernel_lock
from shared.memcheck.check import reclaim
from workers.commands.commit import read_tick
from workers.context import CliContext
from workers.options import json_option


@click.command(name="reclaim")
@click.option("--dry-run", is_flag=True, help="list what would be forgotten; change nothing")
@click.option("--force", is_flag=True, help="also forget orphans never warned about")
@json_option
@click.pass_obj
def command(ctx: CliContext, dry_run: bool, force: bool, as_json: bool) -> int:
    """Forget stale orphan topic nodes and commit their removal (one commit).

    Exit 0 when done (or nothing to forget), 2 without a kernel, 3 when the kernel lock
    is held or git is busy (the deletions then wait for the next commit).
    """
    ctx.paths.require_kernel()
    lock = open_kernel_lock(ctx.settings, ctx.paths)
    if dry_run:
        report = reclaim(ctx.paths, ctx.settings, dry_run=True, force=force)
    else:
        with lock.hold("reclaim") as lease:
            report = reclaim(ctx.paths, ctx.settings, force=force, lease=lease)
    committed = None
    if report.forgotten and not dry_run:
        committed = run_committer(ctx.paths, ctx.settings, lock=lock, tick=read_tick(ctx.paths))
    if as_json:
        doc = {
            "dry_run": dry_run,
            "forgotten": report.forgotten,
            "spared_unwarnable": report.spared_unwarnable,
            "errors": report.errors,
            "commit": committed.to_json() if committed is not None else None,
        }
        click.echo(pretty(doc), nl=False)
    else:
        verb = "would forget" if dry_run else "forgot"
        for rel in report.forgotten:
            click.echo(f"{verb} {rel} (stale orphan, never linked)")
        for rel in report.spared_unwarnable:
            click.echo(f"spared {rel} (its partition never accepted the warning; --force)")
        if not report.forgotten:
            click.echo("nothing to forget")
        for error in report.errors:
            click.echo(f"error: {error}")
        if committed is not None:
            click.echo(committed.human)
    return committed.exit_code if committed is not None else (1 if report.errors else 0)
