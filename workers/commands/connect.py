"""``subcon connect``: print (or with ``--write`` add) what makes an agent read the board."""

from __future__ import annotations

from pathlib import Path

import click

from shared.jsontext import pretty
from shared.setup.connect import AGENTS, connection
from workers.context import CliContext
from workers.options import json_option


@click.command(name="connect")
@click.argument("agent", type=click.Choice(AGENTS))
@click.option(
    "--project",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    help="the project directory DIR (default: the user-wide file, for claude-code and codex)",
)
@click.option("--write", is_flag=True, help="add the line to the file (never done unasked)")
@json_option
@click.pass_obj
def command(ctx: CliContext, agent: str, project: Path | None, write: bool, as_json: bool) -> int:
    """Show the line that makes AGENT load this kernel's board, and where it goes.

    Without --write nothing is changed. With --write the line is appended once (the
    file is created if missing; a file that already holds it is left alone).
    """
    ctx.paths.require_kernel()
    conn = connection(agent, ctx.paths.board, project, Path.home())
    present = conn.present()
    written = conn.write() if write else False
    if as_json:
        doc = {
            "agent": agent,
            "file": str(conn.file),
            "text": conn.text,
            "note": conn.note,
            "already_present": present,
            "written": written,
        }
        click.echo(pretty(doc), nl=False)
        return 0
    click.echo(f"{agent}: {conn.note}")
    click.echo(f"file: {conn.file}")
    click.echo("add:")
    click.echo("".join(f"    {line}\n" for line in conn.text.splitlines()), nl=False)
    if present:
        click.echo("already there: nothing to do")
    elif written:
        click.echo(f"written: appended to {conn.file}")
    else:
        click.echo("not written (run again with --write to add it)")
    return 0
