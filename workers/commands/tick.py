"""``subcon tick``: one cadence tick now (memory check, selection, the picked runs)."""

from __future__ import annotations

from typing import Any

import click

from shared.jsontext import pretty
from workers.context import CliContext


def render_tick(report: dict[str, Any]) -> str:
    """A short human summary of a tick report."""
    if report.get("skipped") and isinstance(report["skipped"], str):
        return f"tick {report.get('tick')}: skipped ({report['skipped']})"
    lines = [f"tick {report.get('tick')}"]
    for item in report.get("skipped") or []:
        lines.append(f"  checked off {item['partition']} ({item['reason']})")
    for entry in report.get("dispatched") or []:
        name = entry.get("partition")
        if "error" in entry:
            lines.append(f"  {name}: {entry['error']}")
        elif "report" in entry:
            text = entry["report"].get("text") if isinstance(entry["report"], dict) else None
            lines.append(f"  {name}: {text or '(no text)'}".rstrip())
        else:
            lines.append(f"  {name}: dispatched {entry.get('task_id')}")
    if len(lines) == 1:
        lines.append("  nothing due")
    for note in report.get("notes") or []:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


@click.command(name="tick")
@click.option("--json", "as_json", is_flag=True, help="print the tick report as JSON")
@click.option("--timeout", type=float, default=120.0, show_default=True)
@click.pass_obj
def command(obj: CliContext, as_json: bool, timeout: float) -> None:
    """Run one cadence tick: in-process with no broker, else on the kernel worker."""
    from workers import routing
    from workers.app import make_app
    from workers.waiting import run_and_wait

    obj.paths.require_kernel()
    app = make_app(obj.settings)
    _, report = run_and_wait(lambda: app.tasks[routing.TICK].apply_async(), timeout)
    click.echo(pretty(report), nl=False) if as_json else click.echo(render_tick(report))
