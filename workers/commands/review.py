"""`subcon review PATH... [--as KIND] [--json]`: the committer's gates over files, without git."""

from __future__ import annotations

from pathlib import Path

import click

from shared.jsontext import pretty, shown
from shared.review.allowlist import FileKind, kind_for_review
from shared.review.reviewer import review_paths
from workers.options import json_option

KINDS = [k.value for k in FileKind]


@click.command(name="review")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--as",
    "as_kind",
    type=click.Choice(KINDS),
    help="apply this file kind's gate set to every FILE instead of the one its path implies",
)
@json_option
def command(files: tuple[Path, ...], as_kind: str | None, as_json: bool) -> int:
    """Review every logical line of FILES; exit 1 when any line is rejected.

    The gate set depends on the file kind: board rules for a CLAUDE.md directly under a
    memory/ dir, dossier rules under memory/entities/ or memory/topics/, the kernel's
    allowlist elsewhere (any other CLAUDE.md is a partition prompt, anything else a
    dossier). The kind applied is printed per file; --as overrides it.

    Each rejected line names the rule that decided it (gate.rule, e.g.
    status-shape.pending-work) and its reason; a line the precedent judge passed over a
    rule names the rule it overruled.

    --json prints one JSON array: an object per logical line, with the kind applied and
    the deciding (or overruled) rule's id in "rule".
    """
    forced = FileKind(as_kind) if as_kind else None
    kinds = {str(f): forced or kind_for_review(f.absolute().as_posix()) for f in files}
    decisions = review_paths(list(files), as_kind=forced)
    if as_json:
        rows = [{**d.to_json(), "kind": kinds[d.file].value} for d in decisions]
        click.echo(pretty(rows), nl=False)
        return 1 if any(d.rejected for d in decisions) else 0
    for f in files:
        mine = [d for d in decisions if d.file == str(f)]
        rejected = sum(1 for d in mine if d.rejected)
        how = "--as" if forced else "from its path"
        click.echo(
            f"{shown(str(f))}: reviewed as {kinds[str(f)].value} ({how}): "
            f"{len(mine) - rejected} approved, {rejected} rejected"
        )
        for d in mine:
            if d.rejected:
                click.echo(f"{shown(d.file)}:{d.line}: reject {d.rule} `{d.reason}`: {d.text}")
            elif d.overruled:
                click.echo(f"{shown(d.file)}:{d.line}: approve ({d.reason}): {d.text}")
    approved = sum(1 for d in decisions if not d.rejected)
    click.echo(f"{approved} approved, {len(decisions) - approved} rejected")
    return 1 if any(d.rejected for d in decisions) else 0
