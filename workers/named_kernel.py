"""``subcon --kernel-name NAME COMMAND``: run a command on a kernel of the registry.

The name is looked up in the registry the settings point at
(:func:`shared.kernels.registry.open_registry`); its kernel dir, runtime dir and import
sources replace the settings' own, as ``--kernel``/``--runtime`` would (the named
kernel's import sources replace ``SUBCON_IMPORT``: one agent's transcripts never feed
another's kernel). Without the option, or with ``--kernel-name default``, the settings'
unnamed kernel is used as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from shared.kernels.registry import DEFAULT_NAME, entry_settings, open_registry
from shared.settings import Settings


def named_kernel(
    settings: Settings, name: str, overrides: dict[str, Path | None], command: str | None
) -> tuple[Settings, dict[str, Any]]:
    """The settings and command-line overrides of the kernel registered as ``name``.

    Raises:
        click.UsageError: ``--kernel``/``--runtime`` given too, or the command is
            ``kernels`` (which takes names as arguments).
        UnknownKernel: no kernel of that name (exit 2).
        BrokerUnreachable: the registry's Redis does not answer (exit 3).
    """
    if name == DEFAULT_NAME:
        return settings, dict(overrides)
    if command == "kernels":
        raise click.UsageError("`kernels` takes kernel names as arguments: leave out --kernel-name")
    if any(value is not None for value in overrides.values()):
        raise click.UsageError(
            "--kernel-name names the kernel and runtime dirs: leave out --kernel and --runtime"
        )
    entry = open_registry(settings).get(name)
    named = entry_settings(settings, entry)
    chosen: dict[str, Any] = {
        "kernel_dir": named.kernel_dir,
        "runtime_dir": named.runtime_dir,
        "import_sources": named.import_sources,
    }
    return named, {**chosen, "kernel_name": name}
