"""`subcon commit [--dry-run] [--json]`: one memory-committer wake, in-process."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from shared.cadence.runs import record_manual_run
from shared.committer.run import run_committer
from shared.constants import COMMITTER
from shared.jsontext import pretty
from shared.kernel.lock.factory import open_kernel_lock
from shared.kernel.paths import KernelPaths
from workers.context import CliContext
from workers.options import json_option

# Test-only: pause after the commit is built (before HEAD moves) until this file exists.
PAUSE_ENV = "SUBCON_TEST_PAUSE_AFTER_STAGE"


def read_tick(paths: KernelPaths) -> int | None:
    """The cadence tick number from ``var/subcon/tick.json`` (the tick store writes it), or None."""
    try:
        data = json.loads((paths.subcon_state_dir / "tick.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get("tick") if isinstance(data, dict) else data
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@click.command(name="commit")
@click.option("--dry-run", is_flag=True, help="review and report; no git or audit writes")
@json_option
@click.pass_obj
def command(ctx: CliContext, dry_run: bool, as_json: bool) -> int:
    """Review changed allowlisted files and commit the clean ones (one commit).

    After NO_NEW_GRADIENT the next line says why. Exit 0 when it committed or had
    nothing to commit, 2 when the kernel is not a git repository, 3 when git is busy
    (index.lock, a merge or rebase in progress, HEAD moved) or the kernel lock is held.
    A dry run writes nothing, not even audit records: it says "would commit" and
    "would hold back".
    """
    lock = open_kernel_lock(ctx.settings, ctx.paths)
    pause = os.environ.get(PAUSE_ENV)
    report = run_committer(
        ctx.paths,
        ctx.settings,
        lock=lock,
        tick=read_tick(ctx.paths),
        dry_run=dry_run,
        pause_after_stage=Path(pause) if pause else None,
    )
    if as_json:
        click.echo(pretty(report.to_json()), nl=False)
    else:
        click.echo(report.human)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if not dry_run:
        record_manual_run(ctx.paths, COMMITTER, report.outcome)
    return report.exit_code
