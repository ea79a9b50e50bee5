"""`subcon review PATH... [--json]`: the committer's gates over files, without git."""

from __future__ import annotations

from pathlib import Path

import click

from shared.committer.review import review_paths
from shared.jsontext import pretty


@click.command(name="review")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="one JSON object per logical line")
def command(files: tuple[Path, ...], as_json: bool) -> int:
    """Review every logical line of FILES; exit 1 when any line is rejected.

    Board rules apply to a CLAUDE.md under a memory/ dir, dossier rules under
    memory/entities/ or memory/topics/.
    """
    decisions = review_paths(list(files))
    if as_json:
        click.echo(pretty([d.to_json() for d in decisions]), nl=False)
    else:
        for d in decisions:
            if d.rejected:
                click.echo(f"{d.file}:{d.line}: reject `{d.reason}`: {d.text}")
        approved = sum(1 for d in decisions if not d.rejected)
        click.echo(f"{approved} approved, {len(decisions) - approved} rejected")
    return 1 if any(d.rejected for d in decisions) else 0
