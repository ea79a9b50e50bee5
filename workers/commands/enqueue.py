"""``subcon enqueue``: write a directed item into a partition inbox and dispatch a pass."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click
from celery.result import AsyncResult

from shared.constants import WEAVER
from shared.errors import BrokerUnreachable, InputError
from shared.kernel.files import utf8_position
from shared.kernel.paths import KernelPaths
from workers.context import CliContext
from workers.options import json_option, timeout_option

# How the weaver routes a directed item (shared.weaver.settle.directed.route_item), for the
# operator; docs/operations.md ("Triggering work by hand") lists the same.
ROUTES = (
    "[memory:claude-lint], [memory:claude-compress], [sink], [merge], or prose asking to "
    "compact/prune/repair/rewrite/lint/fix memory/CLAUDE.md -> board update from evidence",
    "[entity-converge] [[slug]] -> converge that entity dossier",
    "[scan-gap] or no marker, with interval tokens such as 20260105[03,05] -> scan them",
    "no marker, naming a dossier or pointer with a [[slug]] -> entity dossier work",
    "[orphan-islands], or a body starting topics/ -> orphan report (no edit without evidence)",
)


def read_body(text: str | None, file: Path | None) -> str:
    """The item body from TEXT or ``--file`` (exactly one).

    Raises:
        InputError: neither or both given, unreadable or non-UTF-8 file, empty body.
    """
    if text is None and file is None:
        raise InputError(None, None, "give the item body as TEXT or with --file")
    if text is not None and file is not None:
        raise InputError(None, None, "give the item body as TEXT or with --file, not both")
    if file is not None:
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise InputError(file, None, f"cannot read: {exc.strerror or exc}") from exc
        try:
            body = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, column = utf8_position(data, exc.start)
            raise InputError(file, line, "not valid UTF-8", column=column) from exc
    else:
        body = text or ""
    if not body.strip():
        raise InputError(file, None, "the item body is empty")
    return body


def known_partition(paths: KernelPaths, partition: str) -> str:
    """``partition`` if the kernel has it (``subconscious/<name>/CLAUDE.md``).

    Raises:
        InputError: no such partition; the message lists the known ones.
    """
    from shared.partitions.discovery import discover_partitions

    names = [p.name for p in discover_partitions(paths, include_errors=True)]
    if partition not in names:
        known = ", ".join(names) if names else "none (run `subcon init`)"
        raise InputError(
            None, None, f"unknown partition {partition!r}: the kernel's partitions are {known}"
        )
    return partition


def route_of(item: str, body: str) -> dict[str, Any]:
    """How the weaver will route this body (the same pure function it uses)."""
    from shared.formats.frontmatter import js_trim
    from shared.partitions.inbox import InboxItem
    from shared.weaver.settle.directed import route_item

    route = route_item(InboxItem(item, js_trim(body)))
    return {"route": route.route, "marker": route.marker, "reason": route.reason}


def _warn_unrouted(route: dict[str, Any]) -> None:
    click.echo(
        f"warning: the weaver has no route for this item ({route['reason']}); it stays in "
        "the inbox, unsettled, until you replace it (--replace) with a routed body:",
        err=True,
    )
    for line in ROUTES:
        click.echo(f"  {line}", err=True)


@click.command(name="enqueue")
@click.option(
    "--partition",
    required=True,
    metavar="PARTITION",
    help="target partition, e.g. memory-weaver",
)
@click.option(
    "--name",
    "name",
    metavar="NAME",
    help="item basename ending in .pending (default: generated)",
)
@click.option(
    "--file",
    "file",
    type=click.Path(path_type=Path),
    metavar="PATH",
    help="read the body from PATH",
)
@click.option("--wait", is_flag=True, help="wait for the weaver pass and print its report")
@click.option("--replace", is_flag=True, help="overwrite an existing item of that name")
@json_option
@timeout_option("memory-weaver's hard time limit")
@click.argument("text", required=False)
@click.pass_obj
def command(
    obj: CliContext,
    partition: str,
    name: str | None,
    file: Path | None,
    wait: bool,
    replace: bool,
    as_json: bool,
    timeout: float | None,
    text: str | None,
) -> None:
    """Write TEXT (or the file --file PATH) as an inbox item of PARTITION, then dispatch
    a weaver pass for it. The item is acked by the weaver's rules, never by this command.

    Prints the pass's task id; with --wait then the pass's report, what it changed on
    the board and its commit. Embedded mode (no workers) runs the pass in-process and,
    without --wait, prints only its result for the item. --json prints one object.
    """
    from shared.jsontext import pretty

    item, doc = _write_item(obj, partition, name, text, file, replace, as_json)
    if partition == WEAVER:
        _dispatch_pass(obj, item, doc, wait=wait, as_json=as_json, timeout=timeout)
        return
    doc["task_id"] = None
    if as_json:
        click.echo(pretty(doc), nl=False)
    else:
        click.echo(f"{item}: queued for {partition} (subcon runs no pass for it)")


def _write_item(
    obj: CliContext,
    partition: str,
    name: str | None,
    text: str | None,
    file: Path | None,
    replace: bool,
    as_json: bool,
) -> tuple[str, dict[str, Any]]:
    """Validate and write the item; (its name, the report so far). Warns on stderr
    (without --json) when the weaver has no route for the body."""
    from shared.partitions.inbox import generate_item_name, validate_item_name, write_item

    obj.paths.require_kernel()
    known_partition(obj.paths, partition)
    item = validate_item_name(name) if name is not None else generate_item_name()
    body = read_body(text, file)
    route = route_of(item, body) if partition == WEAVER else None
    target = write_item(obj.paths, partition, item, body, replace=replace)
    doc: dict[str, Any] = {"item": item, "partition": partition, "path": str(target)}
    if route is not None:
        doc["route"] = route
    if not as_json:
        click.echo(f"wrote {target}", err=True)
        if route is not None and route["route"] == "unclear":
            _warn_unrouted(route)
    return item, doc


def _dispatch_pass(
    obj: CliContext,
    item: str,
    doc: dict[str, Any],
    *,
    wait: bool,
    as_json: bool,
    timeout: float | None,
) -> None:
    """Dispatch the weaver pass for ``item`` and print what the options ask for."""
    from shared.jsontext import pretty
    from workers.app import make_app
    from workers.canvas import dispatch_weaver, partition_limits
    from workers.reachability import require_broker
    from workers.waiting import commit_line, follow_commit, pass_text, run_and_wait

    app = make_app(obj.settings)
    try:
        require_broker(app)
    except BrokerUnreachable as exc:
        # The item is written: say so, and that the next tick's pass settles it.
        raise BrokerUnreachable(
            f"wrote {item}, but its weaver pass was not dispatched ({exc}); "
            "the next tick's pass will settle it"
        ) from None
    eager = bool(app.conf.task_always_eager)
    limit = timeout if timeout is not None else partition_limits(obj.paths, WEAVER)[1] + 60
    started = time.monotonic()

    def start() -> AsyncResult:
        return dispatch_weaver(app, directed=item, target=obj.target())

    if not eager and not wait:
        doc["task_id"] = start().id
        if as_json:
            click.echo(pretty(doc), nl=False)
        else:
            click.echo(doc["task_id"])  # alone on stdout, for scripts
            click.echo(f"{item}: weaver pass dispatched (--wait prints its report)", err=True)
        return
    task_id, report = run_and_wait(start, limit)
    if not eager and wait:
        follow_commit(app, report, limit - (time.monotonic() - started))
    doc["task_id"] = task_id
    doc["report"] = report
    if as_json:
        click.echo(pretty(doc), nl=False)
        return
    click.echo(task_id)
    if wait:
        click.echo(pass_text(report))
        return
    directed = report.get("directed") or {}
    click.echo(f"{item}: {directed.get('result', 'not settled by the pass')} (in-process pass)")
    click.echo(commit_line(report))
