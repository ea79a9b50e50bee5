"""`subcon gap` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="gap")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon gap is not built yet")
