"""``subcon`` command line: global root options and one module per command.

Every command that reports has ``--json``. Errors from the project's hierarchy are
turned into exit codes here, at one boundary: 2 for bad input or configuration,
3 for git or lock failures, 1 for "the check found problems" (set by commands).
"""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from shared.errors import (
    BrokerUnreachable,
    ConfigError,
    GitError,
    InputError,
    LockError,
    SubconError,
)
from shared.kernel.paths import KernelPaths
from shared.kernels.registry import DEFAULT_NAME
from shared.settings import load_settings
from workers.context import CliContext
from workers.options import HELP_OPTION_NAMES, SuggestingGroup

# command name -> module under workers.commands exposing ``command``.
COMMANDS: dict[str, str] = {
    "init": "init",
    "demo": "demo",
    "status": "status",
    "gap": "gap",
    "spine": "spine",
    "scan": "scan",
    "weave": "weave",
    "tick": "tick",
    "commit": "commit",
    "review": "review",
    "audit": "audit",
    "check": "check",
    "enqueue": "enqueue",
    "report": "report",
    "import": "transcripts",
    "connect": "connect",
    "reclaim": "reclaim",
    "kernels": "kernels",
}


class LazyGroup(SuggestingGroup):
    """Imports a command module only when that command runs (fast ``--help``); a
    mistyped name gets the closest command as a suggestion."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        loaded = importlib.import_module(f"workers.commands.{module}")
        command: click.Command = loaded.command
        return command


def package_version() -> str:
    """The installed distribution's version (pyproject's ``version``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("subcon")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _print_version(ctx: click.Context) -> None:
    click.echo(f"subcon {package_version()}")
    ctx.exit(0)


@click.group(cls=LazyGroup, context_settings={"help_option_names": HELP_OPTION_NAMES})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, _param, value: _print_version(ctx) if value else None,
    help="print subcon's version and exit",
)
@click.option(
    "--kernel",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="kernel dir (SUBCON_KERNEL_DIR)",
)
@click.option(
    "--runtime",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="runtime dir (SUBCON_RUNTIME_DIR)",
)
@click.option(
    "--kernel-name",
    metavar="NAME",
    help="the kernel registered as NAME (`subcon kernels list`): its dirs and import sources",
)
@click.pass_context
def cli(
    ctx: click.Context, kernel: Path | None, runtime: Path | None, kernel_name: str | None
) -> None:
    """subcon: background memory maintenance for an agent kernel."""
    overrides: dict[str, Any] = {"kernel_dir": kernel, "runtime_dir": runtime}
    settings = load_settings(**overrides)
    if kernel_name is not None:
        from workers.named_kernel import named_kernel

        settings, overrides = named_kernel(settings, kernel_name, overrides, ctx.invoked_subcommand)
    ctx.obj = CliContext(
        settings=settings,
        paths=KernelPaths.from_settings(settings),
        overrides=overrides,
        kernel_name=kernel_name or DEFAULT_NAME,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and map project errors to exit codes."""
    for stream in (sys.stdout, sys.stderr):
        # A lone surrogate (from a spine line the original cut by UTF-16 unit) in any
        # output is written as its \\uXXXX escape instead of failing the command.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        result = cli.main(args=list(argv) if argv is not None else None, standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 130
    except (InputError, ConfigError) as exc:
        click.echo(f"subcon: {exc}", err=True)
        return 2
    except (GitError, LockError, BrokerUnreachable) as exc:
        click.echo(f"subcon: {exc}", err=True)
        return 3
    except SubconError as exc:
        click.echo(f"subcon: {exc}", err=True)
        return 2
    return int(result) if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
