"""``subcon kernels add|list|remove``: the registry of named kernels (issue #31).

Where the registry lives, and the rules an entry keeps, are in
:mod:`shared.kernels.registry`. Any command runs on a registered kernel with
``subcon --kernel-name NAME COMMAND``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from shared.errors import ConfigError
from shared.jsontext import pretty, shown
from shared.kernels.registry import (
    DEFAULT_NAME,
    KernelEntry,
    RedisStore,
    Registry,
    open_registry,
    relation,
)
from shared.settings import Settings
from workers.context import CliContext
from workers.options import SuggestingGroup, json_option


@click.group(name="kernels", cls=SuggestingGroup)
def command() -> None:
    """Register the kernels one cluster serves; run a command on one with
    `subcon --kernel-name NAME COMMAND`.

    The registry is the Redis hash subcon:kernels when a broker or SUBCON_REDIS_URL is
    set, else the file SUBCON_KERNELS_FILE (default: ~/.config/subcon/kernels.json).
    The settings' own kernel stays the unnamed kernel 'default'.
    """


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(os.path.expanduser(path)))


def _absolute_spec(spec: str) -> str:
    """``FORMAT:PATH`` with PATH made absolute from the current dir (else as given)."""
    fmt, sep, path = spec.partition(":")
    if not sep or not path.strip():
        return spec
    return f"{fmt}:{_absolute(Path(path.strip()))}"


def _store_json(registry: Registry) -> dict[str, str]:
    kind = "redis" if isinstance(registry.store, RedisStore) else "file"
    return {"store": kind, "where": registry.where}


def _entry_json(entry: KernelEntry) -> dict[str, Any]:
    return {
        **entry.to_json(),
        "kernel_exists": entry.kernel.is_dir(),
        "runtime_exists": entry.runtime.is_dir(),
    }


def _default_json(settings: Settings) -> dict[str, Any]:
    """The settings' unnamed kernel, shown beside the entries (it is not one of them)."""
    from shared.importing.sources import parse_sources

    try:
        imports = [source.spec for source in parse_sources(settings.import_sources)]
    except ConfigError:
        imports = [settings.import_sources or ""]
    kernel, runtime = Path(settings.kernel_dir), Path(settings.runtime_dir)
    return {
        "name": DEFAULT_NAME,
        "kernel": str(kernel),
        "runtime": str(runtime),
        "imports": imports,
        "kernel_exists": kernel.is_dir(),
        "runtime_exists": runtime.is_dir(),
    }


def _entry_lines(row: dict[str, Any]) -> list[str]:
    lines = []
    for role in ("kernel", "runtime"):
        missing = "" if row[f"{role}_exists"] else "  (does not exist yet)"
        lines.append(f"  {role + ':':<8} {shown(row[role])}{missing}")
    lines += [f"  import:  {shown(spec)}" for spec in row["imports"]]
    if row.get("added_at"):
        lines.append(f"  added:   {row['added_at']}")
    return lines


def _overlaps_default(entry: KernelEntry, settings: Settings) -> bool:
    ours = (entry.kernel, entry.runtime)
    theirs = [Path(os.path.realpath(d)) for d in (settings.kernel_dir, settings.runtime_dir)]
    return any(relation(a, b) is not None for a in ours for b in theirs)


@click.command(name="add")
@click.argument("name")
@click.option(
    "--kernel",
    "kernel",
    required=True,
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="its kernel dir (git work tree); a relative DIR is taken from the current dir",
)
@click.option(
    "--runtime",
    "runtime",
    required=True,
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="its runtime dir holding var/; a relative DIR is taken from the current dir",
)
@click.option(
    "--import",
    "imports",
    multiple=True,
    metavar="FORMAT:PATH",
    help="a transcript source its ticks import, as in SUBCON_IMPORT (repeat for more)",
)
@json_option
@click.pass_obj
def add_kernel(
    ctx: CliContext,
    name: str,
    kernel: Path,
    runtime: Path,
    imports: tuple[str, ...],
    as_json: bool,
) -> int:
    """Register kernel NAME (a-z, 0-9, '_', '-'; not 'default').

    Dirs are stored as real paths and must not overlap another kernel's dirs; they need
    not exist yet (`subcon --kernel-name NAME init` creates them). Exit 2 when refused.
    """
    registry = open_registry(ctx.settings)
    entry = registry.add(
        name, _absolute(kernel), _absolute(runtime), [_absolute_spec(s) for s in imports]
    )
    overlap = _overlaps_default(entry, ctx.settings)
    if as_json:
        doc = {"added": _entry_json(entry), "registry": _store_json(registry),
               "overlaps_default": overlap}  # fmt: skip
        click.echo(pretty(doc), nl=False)
        return 0
    click.echo(f"added kernel {entry.name!r} to the registry {registry.where}")
    row = _entry_json(entry)
    click.echo("\n".join(_entry_lines(row)))
    if not (row["kernel_exists"] and row["runtime_exists"]):
        click.echo(f"next: `subcon --kernel-name {entry.name} init` creates the missing dirs")
    click.echo(f"use it: `subcon --kernel-name {entry.name} status` (any command)")
    if overlap:
        click.echo(
            "note: its dirs overlap the settings' own (unnamed 'default') kernel "
            f"{ctx.settings.kernel_dir}: the same files under two names"
        )
    if not ctx.settings.embedded:
        click.echo(
            f"the cluster ticks {entry.name!r} from beat's next tick on (the kernel "
            "worker's host must see its dirs)"
        )
    return 0


@click.command(name="list")
@json_option
@click.pass_obj
def list_kernels(ctx: CliContext, as_json: bool) -> int:
    """List the registered kernels, and the settings' unnamed 'default' kernel."""
    registry = open_registry(ctx.settings)
    rows = [_entry_json(entry) for entry in registry.list()]
    default = _default_json(ctx.settings)
    if as_json:
        doc = {"registry": _store_json(registry), "default": default, "kernels": rows}
        click.echo(pretty(doc), nl=False)
        return 0
    click.echo(f"registry: {registry.where}")
    click.echo("default  (the settings' own kernel, not in the registry)")
    click.echo("\n".join(_entry_lines(default)))
    if not rows:
        click.echo("no kernels registered: `subcon kernels add NAME --kernel DIR --runtime DIR`")
    for row in rows:
        click.echo(row["name"])
        click.echo("\n".join(_entry_lines(row)))
    return 0


@click.command(name="remove")
@click.argument("name")
@json_option
@click.pass_obj
def remove_kernel(ctx: CliContext, name: str, as_json: bool) -> int:
    """Unregister kernel NAME. No file is deleted: its kernel and runtime dirs stay as
    they are. Exit 2 when no kernel has that name."""
    registry = open_registry(ctx.settings)
    entry = registry.remove(name)
    if as_json:
        doc = {"removed": entry.to_json(), "registry": _store_json(registry),
               "files_deleted": False}  # fmt: skip
        click.echo(pretty(doc), nl=False)
        return 0
    click.echo(f"removed kernel {entry.name!r} from the registry {registry.where}")
    click.echo(
        f"no file was deleted: kernel {shown(str(entry.kernel))} and runtime "
        f"{shown(str(entry.runtime))} are as they were"
    )
    return 0


for _sub in (add_kernel, list_kernels, remove_kernel):
    command.add_command(_sub)
