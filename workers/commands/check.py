"""`subcon check` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="check")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon check is not built yet")
