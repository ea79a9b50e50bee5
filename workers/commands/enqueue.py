"""``subcon enqueue``: write a directed item into a partition inbox and dispatch a pass."""

from __future__ import annotations

from pathlib import Path

import click
from celery.result import AsyncResult

from shared.constants import WEAVER
from shared.errors import InputError
from workers.context import CliContext


def read_body(text: str | None, file: Path | None) -> str:
    """The item body from TEXT or ``--file`` (exactly one).

    Raises:
        InputError: neither or both given, unreadable or non-UTF-8 file, empty body.
    """
    if (text is None) == (file is None):
        raise InputError(None, None, "give the item body as TEXT or with --file, not both")
    if file is not None:
        try:
            body = file.read_bytes().decode("utf-8")
        except OSError as exc:
            raise InputError(file, None, f"cannot read: {exc.strerror or exc}") from exc
        except UnicodeDecodeError as exc:
            raise InputError(file, None, f"not UTF-8 text: {exc.reason}") from exc
    else:
        body = text or ""
    if not body.strip():
        raise InputError(file, None, "the item body is empty")
    return body


@click.command(name="enqueue")
@click.option("--partition", required=True, help="target partition, e.g. memory-weaver")
@click.option("--name", "name", help="item basename ending in .pending (default: generated)")
@click.option("--file", "file", type=click.Path(path_type=Path), help="read the body from F")
@click.option("--wait", is_flag=True, help="wait for the weaver pass and print its report")
@click.option("--replace", is_flag=True, help="overwrite an existing item of that name")
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
@click.option("--timeout", type=float, help="seconds to wait (default: hard limit + 60)")
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
    """Write TEXT (or --file) as an inbox item of PARTITION, then dispatch a weaver pass
    for it. The item is acked by the weaver's rules, never by this command."""
    from shared.inbox import generate_item_name, validate_item_name, write_item
    from shared.kernel import safe_basename
    from workers.app import make_app
    from workers.canvas import dispatch_weaver, partition_limits
    from workers.waiting import emit, run_and_wait

    obj.paths.require_kernel()
    safe_basename(partition)
    item = validate_item_name(name) if name is not None else generate_item_name()
    body = read_body(text, file)
    target = write_item(obj.paths, partition, item, body, replace=replace)
    click.echo(f"wrote {target}", err=True)
    if partition != WEAVER:
        click.echo(f"{item}: queued for {partition} (subcon runs no pass for it)")
        return
    app = make_app(obj.settings)
    limit = timeout if timeout is not None else partition_limits(obj.paths, WEAVER)[1] + 60

    def start() -> AsyncResult:
        return dispatch_weaver(app, directed=item)

    if not app.conf.task_always_eager and not wait:
        click.echo(start().id)
        return
    task_id, report = run_and_wait(start, limit)
    click.echo(task_id)
    emit(report, as_json)
