"""Options and help conventions every ``subcon`` command shares (issue #32, help texts).

One wording per idea, so ``--help`` reads the same everywhere: ``--json`` says the same
thing in every command, a value option names its value with a metavar the help text
uses (``--file PATH``: "read the body from PATH"), and a default is written
``(default: …)`` in the help text, durations in seconds as ``N s``, never with
click's ``[default: …]``. ``-h`` is ``--help`` (set on the root group, inherited by
every command), and a mistyped command name gets a suggestion.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

HELP_OPTION_NAMES = ["-h", "--help"]
JSON_HELP = "print one JSON document instead of text"


def json_option(func: F) -> F:
    """``--json`` (bound to ``as_json``), worded as in every other command."""
    return click.option("--json", "as_json", is_flag=True, help=JSON_HELP)(func)


def timeout_option(limit: str) -> Callable[[F], F]:
    """``--timeout SECONDS``; the default is ``limit`` (whose hard time limit) + 60 s."""
    return click.option(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help=f"seconds to wait (default: {limit} + 60 s)",
    )


def suggestion(name: str, choices: list[str]) -> str:
    """`` Did you mean 'weave'?`` for the closest of ``choices``, or ""."""
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f" Did you mean {close[0]!r}?" if close else ""


class SuggestingGroup(click.Group):
    """A group that answers a mistyped command with the closest name (a usage error:
    exit 2, docs/commands.md)."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            ctx.fail(f"No such command {name!r}.{suggestion(name, self.list_commands(ctx))}")
        return super().resolve_command(ctx, args)
