"""`subcon spine` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="spine")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon spine is not built yet")
