"""`subcon init [--demo] [--force]`: create the kernel and runtime layout and git genesis."""

from __future__ import annotations

import click

from shared.jsontext import pretty
from shared.setup.bootstrap import init_kernel
from workers.context import CliContext
from workers.options import json_option


@click.command(name="init")
@click.option("--demo", is_flag=True, help="add the demo board, dossiers and synthetic spine")
@click.option(
    "--force", is_flag=True, help="allow a non-empty kernel dir (existing files are kept)"
)
@click.option("--seed", type=int, default=7, metavar="N", help="demo spine RNG seed (default: 7)")
@json_option
@click.pass_obj
def command(ctx: CliContext, demo: bool, force: bool, seed: int, as_json: bool) -> None:
    """Create the kernel and runtime in the original layout, then commit git genesis.

    A non-empty kernel dir is refused unless --force is given; an existing kernel
    repository only gets its .gitignore entries synced (no commit).
    """
    report = init_kernel(ctx.paths, demo=demo, force=force, seed=seed)
    if as_json:
        click.echo(pretty(report.to_json()), nl=False)
    else:
        click.echo(report.text)
