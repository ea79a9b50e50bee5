"""`subcon demo [DIR]`: a demo kernel in DIR, then one embedded pass of each partition.

DIR defaults to ``./subcon-demo`` (kernel ``DIR/kernel``, runtime ``DIR/runtime``).
The kernel is created with ``init --demo`` only when it does not exist yet, so running
the command again shows the next pass on the same kernel. No broker or Redis is used:
settings are pointed at DIR with every broker/Redis URL cleared, so the kernel lock
is the file lock and the tasks run in-process.

Order: the memory check (which posts ``scan-gap.md.pending`` for the newest
uncovered day, as the cadence maintenance tick does), then memory-weaver, then
memory-committer, each report printed as it finishes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from shared.constants import COMMITTER, WEAVER
from shared.importing.run import import_and_record
from shared.importing.sources import Source
from shared.jsontext import pretty
from shared.kernel.lock.factory import open_kernel_lock
from shared.kernel.paths import KernelPaths
from shared.memcheck.check import run_memory_check
from shared.settings import Settings
from shared.setup.bootstrap import InitReport, init_kernel
from shared.setup.demo.output import committer_text
from shared.setup.demo.transcripts import write_demo_project
from workers.commands.transcripts import render_import
from workers.context import CliContext
from workers.embedded import run_partition
from workers.options import json_option

MEMORY_CHECK = "memory-check"


def demo_settings(base: Settings, paths: KernelPaths) -> Settings:
    """``base`` pointed at the demo roots, with every broker/Redis URL cleared (embedded)."""
    return base.model_copy(
        update={
            "kernel_dir": paths.kernel,
            "runtime_dir": paths.runtime,
            "broker_url": None,
            "result_backend": None,
            "redis_url": None,
        }
    )


def run_demo(settings: Settings, paths: KernelPaths) -> dict[str, dict[str, Any]]:
    """Memory check, then one weaver pass, then one committer run; reports by step.

    Each report is a JSON-ready dict with a ``text`` entry.

    Raises:
        ConfigError, InputError, LockError, GitError: from the stages.
    """
    reports: dict[str, dict[str, Any]] = {}
    with open_kernel_lock(settings, paths).hold(MEMORY_CHECK) as lease:
        check = run_memory_check(paths, settings, lease=lease)
    reports[MEMORY_CHECK] = {**check.to_json(), "text": check.render(plain=True)}
    # The weaver would otherwise request a commit itself; the demo shows the
    # committer's run as its own step instead.
    reports[WEAVER] = run_partition(settings, WEAVER, commit=False)
    reports[COMMITTER] = run_partition(settings, COMMITTER)
    return reports


def _print_text(
    init_report: InitReport | None, paths: KernelPaths, reports: dict[str, dict[str, Any]]
) -> None:
    if init_report is not None:
        click.echo("== init --demo")
        click.echo(init_report.text)
    else:
        click.echo(f"== using the existing demo kernel {paths.kernel}")
    for name, report in reports.items():
        click.echo(f"\n== {name}")
        text = committer_text(report) if name == COMMITTER else str(report.get("text", ""))
        click.echo(text.rstrip("\n"))


def next_hint(again: str, paths: KernelPaths, settings: Settings) -> str:
    """The closing ``next:`` line: another run while a spine day is left to weave, else
    where to look (never another run that would have nothing to do)."""
    from shared.spine.gap import find_gap

    roots = f"subcon --kernel {paths.kernel} --runtime {paths.runtime}"
    if find_gap(paths, settings) is not None:
        return f"next: `{again}` again for the next pass, or `{roots} status`"
    return (
        f"next: every spine day is woven, so another run has nothing to weave; "
        f"`{roots} status` shows the state, `{roots} report` writes the HTML report"
    )


def import_demo_transcripts(directory: Path, paths: KernelPaths) -> dict[str, Any]:
    """Write the Claude Code demo project under ``DIR/claude/projects`` and import it."""
    projects = directory / "claude" / "projects"
    write_demo_project(projects)
    paths.runtime.mkdir(parents=True, exist_ok=True)
    report = import_and_record(paths, [Source("claude-code", projects)], settle_seconds=0)
    lines = render_import(report)
    return {**report.to_json(), "text": f"transcripts: {projects}\n" + "\n".join(lines)}


@click.command(name="demo")
@click.argument("directory", required=False, type=click.Path(path_type=Path))
@click.option(
    "--from",
    "source",
    type=click.Choice(["claude-code"]),
    help="build the spine from Claude Code transcripts instead of the synthetic one",
)
@click.option("--seed", type=int, default=7, metavar="N", help="demo spine RNG seed (default: 7)")
@json_option
@click.pass_obj
def command(
    ctx: CliContext, directory: Path | None, source: str | None, seed: int, as_json: bool
) -> None:
    """Create a demo kernel in DIRECTORY (once), then run memory-weaver and memory-committer.

    With --from claude-code the demo writes a small Claude Code project (three sessions
    in the real transcript format) and imports it into the spine first; DIRECTORY then
    defaults to ./subcon-demo-claude-code.
    """
    default = "subcon-demo-claude-code" if source else "subcon-demo"
    directory = (directory or Path(default)).absolute()
    paths = KernelPaths(kernel=directory / "kernel", runtime=directory / "runtime")
    init_report = None
    imported: dict[str, Any] | None = None
    if source == "claude-code":
        imported = import_demo_transcripts(directory, paths)
    if not paths.kernel.exists():
        # The imported transcripts are the spine: init writes no synthetic one, and the
        # board starts clean so the first weave's edit is committed.
        init_report = init_kernel(
            paths, demo=True, force=source is not None, seed=seed, demo_edits=source is None
        )
    settings = demo_settings(ctx.settings, paths)
    reports = run_demo(settings, paths)
    if imported is not None:
        reports = {"import": imported, **reports}
    if as_json:
        doc = {
            "kernel": str(paths.kernel),
            "runtime": str(paths.runtime),
            "init": init_report.to_json() if init_report else None,
            "reports": reports,
        }
        click.echo(pretty(doc), nl=False)
        return
    _print_text(init_report, paths, reports)
    again = f"subcon demo --from {source} {directory}" if source else f"subcon demo {directory}"
    click.echo("\n" + next_hint(again, paths, settings))
