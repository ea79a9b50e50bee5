"""`subcon review` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="review")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon review is not built yet")
