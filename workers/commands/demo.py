"""`subcon demo` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="demo")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon demo is not built yet")
