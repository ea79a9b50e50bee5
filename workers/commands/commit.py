"""`subcon commit` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="commit")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon commit is not built yet")
