"""``subcon weave``: one memory-weaver pass (scan -> crystallize -> update -> settle)."""

from __future__ import annotations

import time

import click
from celery.result import AsyncResult

from shared.constants import WEAVER
from workers.context import CliContext
from workers.options import json_option, timeout_option


def unposted_gap(obj: CliContext) -> str | None:
    """The newest spine gap's tokens when one exists and none is posted (a pass run by
    hand then has nothing to weave, and the operator should hear why)."""
    from shared.constants import SCAN_GAP_PENDING
    from shared.spine.gap import find_gap

    if (obj.paths.inbox_dir(WEAVER) / SCAN_GAP_PENDING).exists():
        return None
    gap = find_gap(obj.paths, obj.settings)
    return " ".join(gap.tokens) if gap is not None else None


@click.command(name="weave")
@json_option
@click.option(
    "--wait/--no-wait", default=True, help="wait for the report, or not (default: --wait)"
)
@timeout_option("memory-weaver's hard time limit")
@click.option(
    "--no-commit",
    is_flag=True,
    help="do not request a commit afterwards (by default the pass asks the committer "
    "to commit every clean changed file, including changes made before it)",
)
@click.option("-v", "--verbose", is_flag=True, help="list every malformed spine line skipped")
@click.pass_obj
def command(
    obj: CliContext,
    as_json: bool,
    wait: bool,
    timeout: float | None,
    no_commit: bool,
    verbose: bool,
) -> None:
    """Run one weaver pass: in-process with no broker, else on the workers.

    The report ends with what the pass did to the board and whether it requested or
    made a commit (with the commit id); --no-commit leaves the changes uncommitted.
    """
    from workers.app import make_app
    from workers.canvas import dispatch_weaver, partition_limits
    from workers.reachability import require_broker
    from workers.waiting import follow_commit, pass_text, run_and_wait

    obj.paths.require_kernel()
    app = make_app(obj.settings)
    require_broker(app)
    limit = timeout if timeout is not None else partition_limits(obj.paths, WEAVER)[1] + 60
    started = time.monotonic()

    def start() -> AsyncResult:
        return dispatch_weaver(app, commit=not no_commit, target=obj.target())

    if not wait and not app.conf.task_always_eager:
        click.echo(start().id)
        return
    task_id, report = run_and_wait(start, limit)
    if not app.conf.task_always_eager:
        follow_commit(app, report, limit - (time.monotonic() - started))
        if not as_json:
            click.echo(f"task: {task_id}", err=True)
    if as_json:
        from shared.jsontext import pretty

        click.echo(pretty(report), nl=False)
        return
    click.echo(pass_text(report, requested=not no_commit, verbose=verbose))
    hint = unposted_gap(obj)
    if hint and str(report.get("text", "")).startswith("NO_NEW_GRADIENT"):
        # On stderr: stdout ends with the board and commit lines, as scripts expect.
        click.echo(
            f"gap: {hint} has unjudged events but is not posted; `subcon gap` posts it "
            "(each tick's memory check does too), then `subcon weave` weaves it",
            err=True,
        )
