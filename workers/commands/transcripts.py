"""``subcon import``: append Claude Code, Codex, SpecStory or aider transcripts to the spine.

Runs in-process in every mode: it writes only the runtime's spine (under the spine's
append lock) and the import watermarks, never the kernel.
"""

from __future__ import annotations

from pathlib import Path

import click

from shared.errors import InputError
from shared.importing.formats import FORMATS
from shared.importing.run import ImportReport, import_and_record
from shared.importing.sources import Source, parse_sources
from shared.jsontext import pretty, shown
from workers.commands.status import require_roots
from workers.context import CliContext
from workers.options import json_option


def render_import(report: ImportReport, *, verbose: bool = False) -> list[str]:
    """The report as lines: one per source, what was redacted and cut, the problems."""
    doc = report.to_json()
    lines = []
    for entry in doc["sources"]:
        lines.append(
            f"import {shown(entry['source'])}: {entry['files']} file(s), "
            f"{entry['events']} event(s) written"
        )
    lines.append(
        f"files: {doc['files_read']} read, {doc['files_unchanged']} unchanged; "
        f"events: {doc['events_written']} written ({doc['user_events_written']} from the user)"
    )
    if doc["redacted"]:
        kinds = ", ".join(f"{n} {kind}" for kind, n in doc["redacted"].items())
        lines.append(f"redacted: {kinds}")
    if doc["characters_cut"] or doc["blobs_dropped"]:
        lines.append(
            f"capped: {doc['characters_cut']} characters cut from long texts, "
            f"{doc['blobs_dropped']} image/base64 blob(s) dropped"
        )
    if doc["problem_count"]:
        lines.append(f"problems: {doc['problem_count']} (the rest was imported)")
        shown_problems = doc["problems"] if verbose else doc["problems"][:10]
        lines += [f"  {shown(p)}" for p in shown_problems]
        more = doc["problem_count"] - len(shown_problems)
        if more > 0:
            lines.append(f"  … {more} more (--verbose or --json lists up to 100)")
    return lines


@click.command(name="import")
@click.option(
    "--from",
    "fmt",
    type=click.Choice(sorted(FORMATS)),
    help="the transcripts' format; without it, the sources of SUBCON_IMPORT",
)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--settle",
    type=float,
    default=None,
    metavar="SECONDS",
    help="take a file's last record once the file has been quiet this many seconds "
    "(default: SUBCON_IMPORT_SETTLE_SECONDS, else 60 s)",
)
@json_option
@click.option("-v", "--verbose", is_flag=True, help="list every problem kept (up to 100)")
@click.pass_obj
def command(
    ctx: CliContext,
    fmt: str | None,
    paths: tuple[Path, ...],
    settle: float | None,
    as_json: bool,
    verbose: bool,
) -> int:
    """Import what is new in transcript files or directories into the spine.

    Directories are walked for the format's file names. Re-importing writes nothing
    twice; credentials are replaced by [redacted: KIND] before anything is written.
    Exit 0 when every record was read, 1 when some were reported as problems (file:line,
    the rest imported), 2 for a missing path, an unknown format or missing roots.
    """
    require_roots(ctx.paths)
    if fmt is None and paths:
        raise click.UsageError("name the format of these paths with --from")
    if fmt is not None and not paths:
        raise click.UsageError("name at least one file or directory to import")
    if fmt is not None:
        sources = [Source(fmt, p.expanduser()) for p in paths]
    else:
        sources = parse_sources(ctx.settings.import_sources)
        if not sources:
            raise click.UsageError(
                "nothing to import: give --from FORMAT PATH… or set SUBCON_IMPORT"
            )
    missing = [s for s in sources if not s.root.exists()]
    if missing:
        raise InputError(missing[0].root, None, f"{missing[0].fmt} source does not exist")
    settle_seconds = ctx.settings.import_settle_seconds if settle is None else settle
    report = import_and_record(ctx.paths, sources, settle_seconds=settle_seconds)
    if as_json:
        click.echo(pretty(report.to_json()), nl=False)
    else:
        click.echo("\n".join(render_import(report, verbose=verbose)))
    return 1 if report.problem_count else 0
