"""``subcon tick``: one cadence tick now (memory check, selection, the picked runs).

A manual tick always runs (the duplicate-tick guard only drops a second *beat* tick
within half a period). With a broker it runs on the kernel worker; the command then
waits for every run the tick started (and the commit a weaver pass requested) and
prints their reports, unless ``--no-wait``.
"""

from __future__ import annotations

import time
from typing import Any

import click

from shared.constants import COMMITTER, WEAVER
from shared.jsontext import pretty
from workers.context import CliContext
from workers.options import json_option, timeout_option


def _indent(text: str) -> list[str]:
    return [f"    {line}" for line in text.rstrip("\n").split("\n")]


def render_run(entry: dict[str, Any]) -> list[str]:
    """The lines of one dispatched run: its report, or why it has none."""
    from workers.malformed import malformed_lines
    from workers.waiting import board_line, commit_line

    name = entry.get("partition")
    if "error" in entry:
        return [f"  {name}: {entry['error']}"]
    report = entry.get("report")
    if not isinstance(report, dict):
        why = entry.get("wait_error") or "not waited for (--no-wait)"
        return [f"  {name}: dispatched as task {entry.get('task_id')}; {why}"]
    text = str(report.get("text") or "(no text)")
    head, _, rest = text.partition("\n")
    lines = [f"  {name}: {head}"]
    if name == COMMITTER and report.get("why"):
        lines += _indent(str(report["why"]))
    if rest:
        lines += _indent(rest)
    if name == WEAVER:
        lines += _indent(board_line(report)) + _indent(commit_line(report))
        for line in malformed_lines(report.get("read_stats"), verbose=False):
            lines += _indent(line)
    return lines


def render_tick(report: dict[str, Any]) -> str:
    """A short human summary of a tick report."""
    how = " (manual)" if report.get("manual") else ""
    if report.get("skipped") and isinstance(report["skipped"], str):
        return f"tick {report.get('tick')}{how}: skipped ({report['skipped']})"
    lines = [f"tick {report.get('tick')}{how}"]
    for item in report.get("skipped") or []:
        lines.append(f"  checked off {item['partition']} ({item['reason']})")
    for entry in report.get("dispatched") or []:
        lines += render_run(entry)
    if len(lines) == 1:
        lines.append("  nothing due")
    for note in report.get("notes") or []:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def collect_runs(app: Any, report: dict[str, Any], deadline: float) -> None:
    """Wait for each run a distributed tick dispatched; put its report in the entry."""
    from celery.result import AsyncResult

    from shared.errors import SubconError
    from workers.waiting import follow_commit, wait_for

    for entry in report.get("dispatched") or []:
        if "report" in entry or "error" in entry or not entry.get("task_id"):
            continue
        left = max(1.0, deadline - time.monotonic())
        try:
            entry["report"] = wait_for(AsyncResult(entry["task_id"], app=app), left)
        except SubconError as exc:
            entry["wait_error"] = str(exc)
            continue
        if entry.get("partition") == WEAVER:
            follow_commit(app, entry["report"], deadline - time.monotonic())


def _default_timeout(obj: CliContext) -> float:
    from workers.canvas import partition_limits

    hard = max(partition_limits(obj.paths, p)[1] for p in (WEAVER, COMMITTER))
    return hard + 60


@click.command(name="tick")
@json_option
@click.option(
    "--wait/--no-wait",
    default=True,
    help="wait for the runs the tick started and print their reports, or not (default: --wait)",
)
@timeout_option("the longest hard time limit of memory-weaver and memory-committer")
@click.pass_obj
def command(obj: CliContext, as_json: bool, wait: bool, timeout: float | None) -> None:
    """Run one cadence tick now: in-process with no broker, else on the kernel worker.

    A manual tick always runs (the duplicate guard is for beat); it advances the tick
    number and selects partitions exactly as a beat tick does.
    """
    from workers import routing
    from workers.app import make_app
    from workers.reachability import require_broker
    from workers.waiting import run_and_wait

    obj.paths.require_kernel()
    app = make_app(obj.settings)
    require_broker(app)
    limit = timeout if timeout is not None else _default_timeout(obj)
    deadline = time.monotonic() + limit
    task = app.tasks[routing.TICK]
    eager = bool(app.conf.task_always_eager)
    kwargs = {"manual": True, **obj.target().kwargs}
    if not wait and not eager:
        click.echo(task.apply_async(kwargs=kwargs).id)
        return
    _, report = run_and_wait(lambda: task.apply_async(kwargs=kwargs), limit)
    if not eager:
        collect_runs(app, report, deadline)
    click.echo(pretty(report), nl=False) if as_json else click.echo(render_tick(report))
