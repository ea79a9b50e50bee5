"""`subcon init` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="init")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon init is not built yet")
