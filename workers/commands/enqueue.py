"""`subcon enqueue` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="enqueue")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon enqueue is not built yet")
