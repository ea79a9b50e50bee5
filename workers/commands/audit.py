"""`subcon audit` (not built yet)."""

from __future__ import annotations

import click


@click.command(name="audit")
def command() -> None:
    """Not built yet."""
    raise click.ClickException("subcon audit is not built yet")
