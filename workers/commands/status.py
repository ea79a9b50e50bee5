"""``subcon status``: roots, partitions, inboxes, the current gap, last runs, tick."""

from __future__ import annotations

from typing import Any

import click

from shared.errors import SubconError
from shared.inbox import list_items, read_ledger
from shared.jsontext import compact
from shared.kernel import KernelPaths
from shared.partition_state import is_backed_off, read_state
from shared.partitions import discover_partitions
from shared.settings import Settings
from workers.context import CliContext


def _inbox_partitions(paths: KernelPaths, known: list[str]) -> list[str]:
    """Discovered partitions plus any other inbox dir under ``var/subconscious``."""
    names = list(known)
    try:
        extra = sorted(p.name for p in paths.subconscious_var_dir.iterdir() if p.is_dir())
    except OSError:
        extra = []
    return names + [n for n in extra if n not in names and (paths.inbox_dir(n)).is_dir()]


def _gap(paths: KernelPaths, settings: Settings) -> dict[str, Any] | None:
    from shared.gap import find_gap

    gap = find_gap(paths, settings)
    return None if gap is None else gap.to_json()


def _tick(paths: KernelPaths) -> int | str | None:
    from workers.tickstore import read_mirror, tick_file

    if not tick_file(paths).exists():
        return None
    try:
        return read_mirror(paths)
    except SubconError as exc:
        return f"unreadable: {exc}"


def collect_status(paths: KernelPaths, settings: Settings) -> dict[str, Any]:
    """Everything ``status`` shows, read-only, as one JSON-ready object."""
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    partitions = discover_partitions(paths, include_errors=True)
    runs: dict[str, Any] = {}
    for info in partitions:
        state = read_state(paths, info.name)
        runs[info.name] = {**state.to_json(), "backed_off": is_backed_off(state, now)}
    inboxes = {
        name: {
            "items": [item.name for item in list_items(paths, name)],
            "ledger": sorted(read_ledger(paths, name)),
        }
        for name in _inbox_partitions(paths, [p.name for p in partitions])
    }
    try:
        gap: dict[str, Any] | str | None = _gap(paths, settings)
    except (SubconError, OSError) as exc:
        gap = f"error: {exc}"
    return {
        "kernel": {"path": str(paths.kernel), "exists": paths.kernel.is_dir()},
        "runtime": {"path": str(paths.runtime), "exists": paths.runtime.is_dir()},
        "mode": "embedded" if settings.embedded else "distributed",
        "memory_check": {
            # The original's system.status shape (5.10); subcon never forgets.
            "check_enabled": settings.memory_check,
            "forget_enabled": False,
            "partitions": [
                {
                    "name": p.name,
                    "contract": p.contract_state,
                    "enabled": p.contract_enabled,
                    "consumes": sorted(p.consumes),
                }
                for p in partitions
            ],
        },
        "tick": _tick(paths),
        "partitions": [p.to_json() for p in partitions],
        "last_runs": runs,
        "inboxes": inboxes,
        "gap": gap,
    }


def render_status(status: dict[str, Any]) -> str:
    """Human-readable status lines."""
    lines: list[str] = []
    for root in ("kernel", "runtime"):
        entry = status[root]
        lines.append(f"{root}: {entry['path']}" + ("" if entry["exists"] else "  (missing)"))
    lines.append(
        f"mode: {status['mode']}   tick: {status['tick'] if status['tick'] is not None else '-'}"
    )
    lines.append("partitions:")
    if not status["partitions"]:
        lines.append("  (none)")
    for part in status["partitions"]:
        sched = part["schedule"]
        if part["error"]:
            # Its schedule is only the default: never show it as enabled.
            lines.append(f"  {part['name']}: NOT RUNNABLE, contract {part['contract']}")
            lines.append(f"    cannot be read: {part['error']}")
        else:
            flags = "enabled" if sched["enabled"] else "disabled"
            lines.append(
                f"  {part['name']}: {flags}, cooldown {sched['cooldown_ticks']} tick(s), "
                f"max {sched['max_duration_ms']} ms, contract {part['contract']}"
                + (f" consumes {','.join(part['consumes'])}" if part["consumes"] else "")
            )
        lines += [f"    warning: {w}" for w in part["warnings"]]
        run = status["last_runs"].get(part["name"], {})
        if run.get("last_result"):
            backoff = f", backed off until {run['backoff_until']}" if run.get("backed_off") else ""
            lines.append(
                f"    last run: {run['last_result']} at {run.get('last_finished_at') or 'never'}, "
                f"{run['consecutive_failures']} consecutive failure(s){backoff}"
            )
    lines.append("inboxes:")
    if not status["inboxes"]:
        lines.append("  (none)")
    for name, inbox in status["inboxes"].items():
        lines.append(f"  {name}: {len(inbox['items'])} item(s)")
        lines += [f"    {item}" for item in inbox["items"]]
    gap = status["gap"]
    if gap is None:
        lines.append("gap: none — all external days dreamt")
    elif isinstance(gap, str):
        lines.append(f"gap: {gap}")
    else:
        lines.append(
            f"gap: {gap['date']} {' '.join(gap['tokens'])} "
            f"({gap['external_events']} external events)"
        )
    return "\n".join(lines)


@click.command(name="status")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.pass_obj
def command(ctx: CliContext, as_json: bool) -> int:
    """Show roots, partitions, inbox items, the current gap, last runs and the tick."""
    status = collect_status(ctx.paths, ctx.settings)
    click.echo(compact(status) if as_json else render_status(status))
    return 0
