"""``subcon report [--out DIR] [--days N] [--open] [--json]``: the static memory report.

Writes ``DIR/index.html`` (self-contained: inline CSS and SVG, no script, no network),
``DIR/report.json`` and ``DIR/.spine-counts.json`` (per-day spine counts, so the next
report reads only the day files that changed); with ``--json`` prints the same JSON
document instead and writes nothing. Read only: no lock is taken, nothing in the
kernel or runtime changes.
"""

from __future__ import annotations

from pathlib import Path

import click

from shared.errors import InputError
from shared.report.collector import DEFAULT_DAYS, Inputs, collect_report, report_json
from shared.report.daycounts import CACHE_NAME
from workers.context import CliContext
from workers.options import json_option


def _tick(ctx: CliContext) -> tuple[int | None, str | None]:
    from shared.cadence.ticks import read_mirror, tick_file

    if not tick_file(ctx.paths).exists():
        return None, None
    try:
        return read_mirror(ctx.paths), None
    except InputError as exc:
        return None, f"{exc} (tick not shown)"


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
@json_option
@click.pass_obj
def command(ctx: CliContext, out_dir: Path, days: int, open_page: bool, as_json: bool) -> int:
    """Write a static HTML report of the board, its history, held-back files,
    partitions and spine coverage."""
    tick, tick_problem = _tick(ctx)
    out_dir = out_dir.absolute()
    inputs = Inputs(
        days=days,
        tick=tick,
        max_line_bytes=ctx.settings.max_line_bytes,
        spine_cache=out_dir / CACHE_NAME,
        save_cache=not as_json,
    )
    report = collect_report(ctx.paths, inputs)
    if tick_problem:
        from dataclasses import replace

        report = replace(report, problems=(*report.problems, tick_problem))
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
