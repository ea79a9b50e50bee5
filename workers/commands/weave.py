"""`subcon weave` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="weave")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon weave is not built yet")
