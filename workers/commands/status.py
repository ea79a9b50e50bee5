"""`subcon status` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="status")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon status is not built yet")
