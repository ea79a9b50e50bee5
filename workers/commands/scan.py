"""`subcon scan` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="scan")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon scan is not built yet")
