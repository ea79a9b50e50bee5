"""``subcon status``: roots, partitions, inboxes, the current gap, last runs, tick."""

from __future__ import annotations

from typing import Any

import click

from shared.cadence.runs import read_manual_run
from shared.errors import ConfigError, SubconError
from shared.jsontext import pretty, shown
from shared.kernel.paths import KernelPaths
from shared.partitions.discovery import discover_partitions
from shared.partitions.inbox import list_items, read_ledger
from shared.partitions.state import is_backed_off, read_state
from shared.settings import Settings, source_of
from shared.spine.gap import MisnamedDay, misnamed_day_files
from shared.spine.reader import ReadStats
from workers.context import CliContext
from workers.malformed import malformed_json, malformed_lines
from workers.options import json_option


def _inbox_partitions(paths: KernelPaths, known: list[str]) -> list[str]:
    """Discovered partitions plus any other inbox dir under ``var/subconscious``."""
    names = list(known)
    try:
        extra = sorted(p.name for p in paths.subconscious_var_dir.iterdir() if p.is_dir())
    except OSError:
        extra = []
    return names + [n for n in extra if n not in names and (paths.inbox_dir(n)).is_dir()]


def _gap(paths: KernelPaths, settings: Settings, stats: ReadStats) -> dict[str, Any] | None:
    from shared.spine.gap import find_gap

    gap = find_gap(paths, settings, stats=stats)
    return None if gap is None else gap.to_json()


def require_roots(paths: KernelPaths) -> None:
    """Raise ConfigError naming the fix when the kernel or runtime dir is missing."""
    paths.require_kernel()
    paths.require_runtime()


def _tick(paths: KernelPaths) -> int | str | None:
    from shared.cadence.ticks import read_mirror, tick_file

    if not tick_file(paths).exists():
        return None
    try:
        return read_mirror(paths)
    except SubconError as exc:
        return f"unreadable: {exc}"


def collect_status(
    paths: KernelPaths, settings: Settings, overrides: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Everything ``status`` shows, read-only, as one JSON-ready object."""
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    partitions = discover_partitions(paths, include_errors=True)
    runs: dict[str, Any] = {}
    manual: dict[str, Any] = {}
    for info in partitions:
        state = read_state(paths, info.name)
        runs[info.name] = {**state.to_json(), "backed_off": is_backed_off(state, now)}
        last = read_manual_run(paths, info.name)
        if last is not None:
            manual[info.name] = last.to_json()
    inboxes = {
        name: {
            "items": [item.name for item in list_items(paths, name)],
            "ledger": sorted(read_ledger(paths, name)),
        }
        for name in _inbox_partitions(paths, [p.name for p in partitions])
    }
    stats = ReadStats()
    try:
        gap: dict[str, Any] | str | None = _gap(paths, settings, stats)
    except (SubconError, OSError) as exc:
        gap = f"error: {exc}"
    return {
        "kernel": {"path": str(paths.kernel), "exists": paths.kernel.is_dir()},
        "runtime": {"path": str(paths.runtime), "exists": paths.runtime.is_dir()},
        "mode": "embedded" if settings.embedded else "distributed",
        "settings": {
            "file": str(settings.env_file) if settings.env_file else None,
            "sources": {
                name: source_of(settings, name, overrides or {})
                for name in ("kernel_dir", "runtime_dir", "broker_url")
            },
        },
        "broker": _broker(settings),
        "memory_check": {
            # The original's system.status shape (docs/formats.md §6.3).
            "check_enabled": settings.memory_check,
            "forget_enabled": settings.forget and settings.memory_check,
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
        "manual_runs": manual,
        "inboxes": inboxes,
        "gap": gap,
        "spine": {
            **malformed_json(stats),
            "misnamed": [m.to_json() for m in misnamed_day_files(paths)],
        },
        "import": _imports(paths, settings),
    }


def _broker(settings: Settings) -> dict[str, Any] | None:
    """Whether the configured broker answers (None in embedded mode)."""
    if settings.embedded:
        return None
    from shared.kernel.keys import shown_url
    from workers.reachability import broker_problem

    problem = broker_problem(settings.broker_url)
    return {"url": shown_url(settings.broker_url or ""), "reachable": problem is None,
            "problem": problem}  # fmt: skip


def _imports(paths: KernelPaths, settings: Settings) -> dict[str, Any]:
    """Each configured or past import source and its last import."""
    from shared.importing.sources import parse_sources
    from shared.importing.status import read_status

    last = read_status(paths)
    try:
        configured = [s.spec for s in parse_sources(settings.import_sources)]
        error = None
    except ConfigError as exc:
        configured, error = [], str(exc)
    sources = {
        spec: {"configured": spec in configured, "last": last.get(spec)}
        for spec in [*configured, *(s for s in last if s not in configured)]
    }
    return {"sources": sources, "error": error}


def render_status(status: dict[str, Any], *, verbose: bool = False) -> str:
    """Human-readable status lines."""
    lines: list[str] = []
    for root in ("kernel", "runtime"):
        entry = status[root]
        lines.append(f"{root}: {entry['path']}" + ("" if entry["exists"] else "  (missing)"))
    lines.append(
        f"mode: {status['mode']}   tick: {status['tick'] if status['tick'] is not None else '-'}"
    )
    chosen = status.get("settings") or {}
    sources = chosen.get("sources") or {}
    if sources:
        lines.append(
            f"settings: the command line, then the environment, then "
            f"{chosen.get('file') or '(no settings file)'}, then the defaults; "
            + ", ".join(f"{name} from {where}" for name, where in sources.items())
        )
    broker = status.get("broker")
    if broker is not None:
        lines.append(
            f"broker: {broker['url']} answers"
            if broker["reachable"]
            else f"broker: UNREACHABLE: {broker['problem']}"
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
                f"    last tick run: {run['last_result']} at "
                f"{run.get('last_finished_at') or 'never'}, "
                f"{run['consecutive_failures']} consecutive failure(s){backoff}"
            )
        by_hand = status.get("manual_runs", {}).get(part["name"])
        if by_hand:
            lines.append(
                f"    last manual run: {shown(by_hand['result'])} at {by_hand['finished_at']}"
            )
    lines.append("inboxes:")
    if not status["inboxes"]:
        lines.append("  (none)")
    for name, inbox in status["inboxes"].items():
        lines.append(f"  {shown(name)}: {len(inbox['items'])} item(s)")
        lines += [f"    {shown(item)}" for item in inbox["items"]]
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
    lines += malformed_lines(status.get("spine"), verbose=verbose)
    lines += [
        f"warning: {MisnamedDay(m['file'].removeprefix('var/events/'), m['rename_to']).warning}"
        for m in (status.get("spine") or {}).get("misnamed", [])
    ]
    lines += _import_lines(status.get("import") or {})
    return "\n".join(lines)


def _import_lines(imports: dict[str, Any]) -> list[str]:
    sources = imports.get("sources") or {}
    if not sources and not imports.get("error"):
        return []
    lines = ["import:"]
    if imports.get("error"):
        lines.append(f"  SUBCON_IMPORT unusable: {imports['error']}")
    for spec, entry in sources.items():
        how = "" if entry["configured"] else " (not in SUBCON_IMPORT; imported by hand)"
        last = entry.get("last")
        if not last:
            lines.append(f"  {shown(spec)}{how}: never imported")
            continue
        lines.append(
            f"  {shown(spec)}{how}: last import {last['last_import']}, {last['files']} file(s), "
            f"{last['events']} event(s) written, {last['problems']} problem(s)"
        )
        lines += [f"    {shown(p)}" for p in last.get("problems_shown", [])[:5]]
    return lines


@click.command(name="status")
@json_option
@click.option("-v", "--verbose", is_flag=True, help="list every malformed spine line skipped")
@click.pass_obj
def command(ctx: CliContext, as_json: bool, verbose: bool) -> int:
    """Show roots, partitions, inbox items, the current gap, last runs and the tick.

    Exit 2 when the kernel or runtime dir is missing (the message names the fix).
    Runs started by hand (weave, commit, enqueue) are listed as manual runs.
    """
    require_roots(ctx.paths)
    status = collect_status(ctx.paths, ctx.settings, ctx.overrides)
    if as_json:
        click.echo(pretty(status), nl=False)
    else:
        click.echo(render_status(status, verbose=verbose))
    return 0
