"""``subcon spine``: append, look up, read and slice spine events."""

from __future__ import annotations

import sys
from typing import Any

import click
import orjson

from shared.errors import InputError
from shared.jsontext import compact
from shared.spine.event import render_event
from shared.spine.index import read_event_by_id
from shared.spine.interval import parse_interval
from shared.spine.reader import ReadStats, iter_slice
from shared.spine.slices import plan_slices
from shared.spine.writer import append_event
from workers.context import CliContext
from workers.options import SuggestingGroup, json_option


@click.group(name="spine", cls=SuggestingGroup)
def command() -> None:
    """Read and write the runtime's event spine (var/events)."""


def _fields_from_flags(
    type_: str | None, kind: str | None, name: str | None, session_key: str | None, text: str | None
) -> dict[str, Any]:
    missing = [flag for flag, value in (("--type", type_), ("--kind", kind)) if not value]
    if missing:
        raise click.UsageError(
            f"missing {' and '.join(missing)}: an event built from flags needs --type and "
            "--kind (or pass `-` to read one JSON event from stdin)"
        )
    source: dict[str, Any] = {"kind": kind}
    if name:
        source["name"] = name
    fields: dict[str, Any] = {"type": type_, "source": source}
    if session_key:
        fields["session_key"] = session_key
    fields["payload"] = {"text": text} if text is not None else {}
    return fields


def _fields_from_stdin() -> dict[str, Any]:
    data = sys.stdin.buffer.read()
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InputError("<stdin>", None, f"invalid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InputError("<stdin>", None, "an event must be a JSON object")
    return value


@command.command(name="append")
@click.argument("source", required=False, metavar="[-]")
@click.option("--type", "type_", metavar="TYPE", help="event type, e.g. channel.message")
@click.option("--kind", metavar="KIND", help="source kind, e.g. stdio")
@click.option("--name", metavar="NAME", help="source name")
@click.option("--session-key", metavar="KEY", help="session key")
@click.option("--text", metavar="TEXT", help="payload.text")
@json_option
@click.pass_obj
def append(
    ctx: CliContext,
    source: str | None,
    type_: str | None,
    kind: str | None,
    name: str | None,
    session_key: str | None,
    text: str | None,
    as_json: bool,
) -> None:
    """Append one event: built from --type/--kind (and --name, --session-key, --text),
    or, with `-`, one JSON object read from stdin. Stdin is read only when asked.
    With --json the event is printed as the spine stores it (one compact JSON line).

    \b
    The event gets a fresh "id" (evt_<uuid4>); an "id" in the input is dropped.
    A "ts" in the input is stored in toISOString() form (UTC, milliseconds, Z):
    2026-01-05T01:00:00+08:00 becomes 2026-01-04T17:00:00.000Z and goes to that UTC
    day's file; a ts without an offset is taken as UTC; one that is not ISO-8601 is
    refused (exit 2). Without a ts, the current time.
    """
    flags = [
        f
        for f, v in (
            ("--type", type_),
            ("--kind", kind),
            ("--name", name),
            ("--session-key", session_key),
            ("--text", text),
        )
        if v is not None
    ]
    if source is not None and source != "-":
        raise click.UsageError(f"unexpected argument {source!r}: only `-` (read stdin) is allowed")
    if source == "-":
        if flags:
            raise click.UsageError(f"give the event as `-` (stdin) or as flags, not both: {flags}")
        fields = _fields_from_stdin()
    else:
        fields = _fields_from_flags(type_, kind, name, session_key, text)
    event = append_event(ctx.paths, fields)
    if as_json:
        click.echo(render_event(event))
    else:
        click.echo(f"appended {event['id']} to var/events/{event['ts'][:10]}.jsonl")
        click.echo(render_event(event))


@command.command(name="get")
@click.argument("event_id")
@click.pass_obj
def get(ctx: CliContext, event_id: str) -> int:
    """Print the event with EVENT_ID (via the by_id index); exit 1 if not found."""
    event = read_event_by_id(ctx.paths, event_id, max_line_bytes=ctx.settings.max_line_bytes)
    if event is None:
        click.echo(f"no event {event_id}", err=True)
        return 1
    click.echo(render_event(event))
    return 0


@command.command(name="read")
@click.argument("interval")
@click.option("--external", is_flag=True, help="only external events (source gate)")
@click.option("--stats", "show_stats", is_flag=True, help="print read stats to stderr as JSON")
@click.option("-v", "--verbose", is_flag=True, help="list every malformed line skipped")
@click.pass_obj
def read(ctx: CliContext, interval: str, external: bool, show_stats: bool, verbose: bool) -> None:
    """Print the events of an INTERVAL such as 20260105[03,05], one JSON line each.

    Malformed lines are skipped; stderr says how many and where (file:line).
    """
    from workers.malformed import malformed_lines

    items = parse_interval(interval)
    stats = ReadStats()
    limit = ctx.settings.max_line_bytes
    for s in plan_slices(ctx.paths, items, ctx.settings.scan_slice_events, max_line_bytes=limit):
        for record in iter_slice(ctx.paths, s, stats, limit, external_only=external):
            click.echo(render_event(record.event))
    if show_stats:
        click.echo(compact(stats.to_json()), err=True)
    else:
        for line in malformed_lines(stats, verbose=verbose):
            click.echo(line, err=True)


@command.command(name="slices")
@click.argument("interval")
@click.option("--max-events", type=int, default=None, metavar="N", help="events per slice")
@click.pass_obj
def slices(ctx: CliContext, interval: str, max_events: int | None) -> None:
    """Print the scan slices of INTERVAL as JSON lines."""
    items = parse_interval(interval)
    per = max_events or ctx.settings.scan_slice_events
    limit = ctx.settings.max_line_bytes
    for s in plan_slices(ctx.paths, items, per, max_line_bytes=limit):
        click.echo(compact(s.to_json()))
