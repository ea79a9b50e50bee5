"""`subcon tick` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="tick")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon tick is not built yet")
