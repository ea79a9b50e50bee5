"""``subcon report [--all] [--out DIR] [--days N] [--open] [--json]``: the static memory report.

Writes ``DIR/index.html`` (self-contained: inline CSS and SVG, no script, no network),
``DIR/report.json`` and ``DIR/.spine-counts.json`` (per-day spine counts, so the next
report reads only the day files that changed); with ``--json`` prints the same JSON
document instead and writes nothing. Read only: no lock is taken, nothing in the
kernel or runtime changes.

With ``--all``, every kernel the cluster serves (the settings' own ``default`` kernel
when its dir exists, then every registry entry): ``DIR/<name>/`` holds each kernel's
report as above, ``DIR/index.html`` and ``DIR/index.json`` the index over them
(:mod:`shared.report.overview`); ``--json`` prints the index.
"""

from __future__ import annotations

from pathlib import Path

import click

from shared.errors import BrokerUnreachable, RegistryError, SubconError
from shared.jsontext import shown
from shared.kernels.registry import DEFAULT_NAME, open_registry
from shared.report.collector import DEFAULT_DAYS, Inputs, report_json
from shared.report.daycounts import CACHE_NAME
from shared.report.overview import Target, build_index, collect_report_with_tick
from workers.context import CliContext
from workers.options import json_option


def _targets(ctx: CliContext) -> tuple[list[Target], str | None, SubconError | None]:
    """The kernels to report, where the registry is, and the error reading it (then
    only the default kernel is reported, and the command fails after writing)."""
    targets = [Target(DEFAULT_NAME, ctx.paths)] if ctx.paths.kernel.is_dir() else []
    where = None
    try:
        registry = open_registry(ctx.settings)
        where = registry.where
        entries = registry.list()
    except (RegistryError, BrokerUnreachable) as exc:
        return targets, where, exc
    return targets + [Target(e.name, e.paths) for e in entries], where, None


def _all(ctx: CliContext, out_dir: Path, days: int, open_page: bool, as_json: bool) -> int:
    """``report --all``: every kernel's report and the index over them."""
    if ctx.kernel_name != DEFAULT_NAME:
        raise click.UsageError("--all reports every kernel: leave out --kernel-name")
    targets, where, error = _targets(ctx)
    problems = (
        [f"kernel registry not read, only the default kernel reported: {error}"] if error else []
    )
    inputs = Inputs(days=days, max_line_bytes=ctx.settings.max_line_bytes)
    index = build_index(
        targets, inputs, out_dir, write=not as_json, registry=where, problems=problems
    )
    if as_json:
        from shared.report.overview import index_json

        click.echo(index_json(index), nl=False)
    else:
        from shared.report.overview import write_index
        from shared.report.renderer import open_in_browser

        page, data = write_index(index, out_dir)
        click.echo(f"index: {page}\ndata:  {data}")
        for row in index.kernels:
            summary = str(out_dir / row.page) if row.page else "no page"
            if row.board_lines is not None:
                summary = (
                    f"{row.board_lines} board lines, {len(row.held)} file(s) held back, "
                    f"{len(row.problems)} problem(s); {summary}"
                )
            click.echo(f"{shown(row.name)}: {row.state.value}, {summary}")
            for problem in row.problems:
                click.echo(f"  {shown(problem)}")
        if not index.kernels:
            click.echo("no kernel: no default kernel dir, no registry entry")
        if open_page and not open_in_browser(page):
            click.echo("subcon: no browser available to open the report", err=True)
    if error is not None:
        raise error
    return 0


@click.command(name="report")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("subcon-report"),
    metavar="DIR",
    help="where index.html and report.json go (default: subcon-report)",
)
@click.option(
    "--days",
    type=click.IntRange(1, 3660),
    default=DEFAULT_DAYS,
    metavar="N",
    help=f"window: N UTC days ending at the newest spine or fragment day (default: {DEFAULT_DAYS})",
)
@click.option("--open", "open_page", is_flag=True, help="open index.html in a browser")
@click.option(
    "--all",
    "every_kernel",
    is_flag=True,
    help="every kernel: the default one and each registered one, each in DIR/NAME/, "
    "and an index over them in DIR/index.html (with --json: the index)",
)
@json_option
@click.pass_obj
def command(
    ctx: CliContext, out_dir: Path, days: int, open_page: bool, every_kernel: bool, as_json: bool
) -> int:
    """Write a static HTML report of the board, its history, held-back files,
    partitions and spine coverage; with --all, of every kernel, with an index page."""
    out_dir = out_dir.absolute()
    if every_kernel:
        return _all(ctx, out_dir, days, open_page, as_json)
    inputs = Inputs(
        days=days,
        max_line_bytes=ctx.settings.max_line_bytes,
        spine_cache=out_dir / CACHE_NAME,
        save_cache=not as_json,
    )
    report = collect_report_with_tick(ctx.paths, inputs)
    if as_json:
        click.echo(report_json(report), nl=False)
        return 0
    from shared.report.renderer import open_in_browser, write_report

    index, data = write_report(report, out_dir)
    gone = sum(1 for h in report.histories if not h.on_board)
    click.echo(
        f"report: {index}\n"
        f"data:   {data}\n"
        f"{len(report.board)} board lines, {gone} gone from the board, "
        f"{len(report.held)} file(s) held back, "
        f"{sum(len(p.inbox) for p in report.partitions)} inbox item(s) pending, "
        f"window {report.window.start}..{report.window.end}"
        + (f", {len(report.problems)} problem(s) listed in the report" if report.problems else "")
    )
    if open_page and not open_in_browser(index):
        click.echo("subcon: no browser available to open the report", err=True)
    return 0
