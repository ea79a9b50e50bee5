"""Help texts read one way (issue #32, low): ``-h`` is ``--help`` everywhere, a mistyped
command gets a suggestion and the usage exit code (2, docs/commands.md), value options
name their value with a metavar the help uses, ``--json`` is worded the same in every
command, and defaults are written ``(default: …)`` (durations ``… s``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
import pytest

from workers.cli import COMMANDS, cli, main
from workers.options import JSON_HELP


def every_command() -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """(path, command) for every command and subcommand, the root first."""
    ctx = click.Context(cli)
    yield (), cli
    for name in sorted(COMMANDS):
        command = cli.get_command(ctx, name)
        assert command is not None
        yield (name,), command
        if isinstance(command, click.Group):
            sub_ctx = click.Context(command, parent=ctx)
            for sub in command.list_commands(sub_ctx):
                found = command.get_command(sub_ctx, sub)
                assert found is not None
                yield (name, sub), found


PATHS = [path for path, _ in every_command()]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "subcon")
def test_dash_h_is_help_everywhere(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]):
    assert main([*path, "-h"]) == 0
    short = capsys.readouterr().out
    assert main([*path, "--help"]) == 0
    assert short == capsys.readouterr().out
    assert short.startswith("Usage: ") and f"{' '.join(('', *path))} [OPTIONS]" in short
    assert "-h, --help" in short


@pytest.mark.parametrize(
    ("args", "wanted"),
    [(["waeve"], "weave"), (["stauts"], "status"), (["spine", "raed", "x"], "read")],
)
def test_a_mistyped_command_gets_a_suggestion_and_exit_2(
    args: list[str], wanted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    typed = args[1] if args[0] == "spine" else args[0]
    assert f"No such command {typed!r}." in err
    assert f"Did you mean {wanted!r}?" in err


def test_an_unknown_command_far_from_any_gets_no_suggestion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["xyzzy"]) == 2
    err = capsys.readouterr().err
    assert "No such command 'xyzzy'." in err and "Did you mean" not in err


def value_options() -> Iterator[tuple[str, click.Option]]:
    for path, command in every_command():
        for param in command.params:
            if isinstance(param, click.Option) and not param.is_flag and not param.count:
                yield " ".join(path) or "subcon", param


def test_value_options_name_their_value() -> None:
    """Each names its value (``--file PATH``), never click's type name (``--file TEXT``)."""
    unnamed = [
        f"{where} {param.opts[0]}"
        for where, param in value_options()
        if not isinstance(param.type, click.Choice) and param.metavar is None
    ]
    assert unnamed == []


def test_help_refers_to_the_metavar_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["enqueue", "-h"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"--file PATH\s+read the body from PATH\n", out), out
    assert main(["audit", "-h"]) == 0
    assert re.search(
        r"--file PATH\s+only records for the kernel file PATH\n", capsys.readouterr().out
    )


def test_json_is_worded_the_same_in_every_command() -> None:
    helps = {
        " ".join(path): param.help
        for path, command in every_command()
        for param in command.params
        if isinstance(param, click.Option) and "--json" in param.opts
    }
    assert len(helps) >= 16
    assert {where: text for where, text in helps.items() if text != JSON_HELP} == {}


def test_defaults_are_written_one_way(capsys: pytest.CaptureFixture[str]) -> None:
    timeouts: list[str] = []
    for path, command in every_command():
        main([*path, "-h"])
        assert "[default:" not in capsys.readouterr().out, path
        for param in command.params:
            if not isinstance(param, click.Option) or not param.help:
                continue
            assert not param.show_default, (path, param.opts)
            for said in re.findall(r"\(default\b[^)]*\)", param.help):
                assert re.fullmatch(r"\(default: [^)]+\)", said), (path, param.opts, said)
            if "--timeout" in param.opts or "--settle" in param.opts:
                timeouts.append(param.help)
    assert len(timeouts) == 5
    for text in timeouts:
        assert re.search(r"\(default: [^)]*\b60 s\)$", text), text
        assert text.startswith(("seconds to wait (default: ", "take a file's last record")), text
