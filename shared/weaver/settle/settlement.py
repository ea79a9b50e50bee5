"""Settling a pass: the Stage-1 scan-gap ack, the Stage-2 directed item, the report.

An item is deleted only after its work reached a terminal status (``UPDATED:``,
``NO-OP:``, ``NO_NEW_GRADIENT:``, ``BOOTSTRAPPED:``); ``scan-gap.md.pending`` only after
every date of its interval was marked covered (``memory/fragments/<date>/`` exists).
"""

from __future__ import annotations

from typing import Any

from shared.constants import TERMINAL_PREFIXES, WEAVER
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import ack_item, list_items
from shared.settings import Settings
from shared.weaver.crystallize.promotion import converge_entity
from shared.weaver.plan import PassPlan
from shared.weaver.records import SliceRole
from shared.weaver.report import append_report, render_report
from shared.weaver.results import CrystallizeResult, UpdateResult
from shared.weaver.settle.directed import Route

LISTED = 200


def _directed_result(
    paths: KernelPaths,
    plan: PassPlan,
    route: Route,
    crystallized: CrystallizeResult,
    updated: UpdateResult,
    lease: Lease,
) -> tuple[str, list[str]]:
    if route.route == "scan":
        mine = [s for s in plan.slices if s.role is SliceRole.DIRECTED]
        if any(s.spine.token() in crystallized.missing_slices for s in mine):
            return "PARTIAL_UPDATE: some slices of the requested interval were not read", []
        if crystallized.deferred:
            # Writing them would mark a day covered that the gap scan has not read.
            return (
                f"NO_NEW_GRADIENT: {route.interval} lies on a day the gap scan has not "
                "covered yet; its evidence is written when that day is scanned",
                [],
            )
        if crystallized.fragments_new or updated.changed:
            return f"UPDATED: scanned {route.interval}", []
        return f"NO_NEW_GRADIENT: {route.interval} held no new line-referenced evidence", []
    if route.route == "update":
        if not paths.effectiveness_dir.is_dir():
            return "NO_NEW_GRADIENT: no effectiveness evidence; no cosmetic edit made", []
        if updated.changed:
            return "UPDATED: memory/CLAUDE.md changed from per-line evidence", []
        return "NO-OP: memory/CLAUDE.md already reflects the per-line evidence", []
    if route.route == "entity":
        # A missing-dossier report whose pointer is on the board: this pass's
        # crystallizer wrote the minimal dossier (the original's BOOTSTRAPPED: path).
        names = {f"{s}.md" for s in route.slugs}
        boot = [p for p in crystallized.bootstrapped if p.rsplit("/", 1)[-1] in names]
        if boot:
            return f"BOOTSTRAPPED: {', '.join(boot)} from the board line and its fragments", []
        status, changed = converge_entity(paths, route.slugs[0], lease)
        return status, [changed] if changed else []
    if route.route == "orphans":
        return "NO_NEW_GRADIENT: no line-level evidence licenses wiring these nodes", []
    return f"UNCLEAR: {route.reason}", []


def _ack_scan_gap(
    paths: KernelPaths,
    plan: PassPlan,
    crystallized: CrystallizeResult,
    acked: list[str],
    notes: list[str],
    lease: Lease,
) -> None:
    """Ack the scan-gap item once every day of its interval was covered."""
    if plan.scan_gap_item and plan.full_days:
        if all(d in crystallized.covered for d in plan.full_days):
            lease.ensure()
            if ack_item(paths, WEAVER, plan.scan_gap_item):
                acked.append(plan.scan_gap_item)
        else:
            notes.append(f"{plan.scan_gap_item} kept: the interval was not fully read")


def _changed_files(crystallized: CrystallizeResult, updated: UpdateResult) -> list[str]:
    """Kernel files the crystallizer and the updater wrote or deleted."""
    changed = list(crystallized.effectiveness_written)
    changed += crystallized.effectiveness_deleted
    changed += crystallized.entities_written
    changed += crystallized.bootstrapped
    if crystallized.new_signals_written:
        changed.append("memory/effectiveness/new-signals.md")
    if updated.changed:
        changed.append("memory/CLAUDE.md")
    changed += updated.topics_written
    return changed


def _settle_directed(
    paths: KernelPaths,
    plan: PassPlan,
    route: Route,
    stages: tuple[CrystallizeResult, UpdateResult],
    report: tuple[list[str], list[str], list[str]],
    lease: Lease,
) -> dict[str, Any]:
    """Settle the directed item; ack it only on a terminal result. ``report`` is the
    (changed, acked, notes) lists it adds to."""
    changed, acked, notes = report
    result, extra = _directed_result(paths, plan, route, *stages, lease)
    changed += extra
    terminal = result.startswith(TERMINAL_PREFIXES)
    if terminal:
        lease.ensure()
        if ack_item(paths, WEAVER, route.name, expect=route.body):
            acked.append(route.name)
        elif (paths.inbox_dir(WEAVER) / route.name).exists():
            notes.append(f"{route.name} kept: it changed while this pass ran")
    return {"name": route.name, "route": route.route, "result": result, "terminal": terminal}


def _scanner_line(plan: PassPlan, crystallized: CrystallizeResult) -> str | None:
    """The report's scanner line (None when the pass scanned no interval)."""
    if not plan.interval:
        return None
    fragments_new = crystallized.fragments_new
    line = (
        f"{plan.interval} ({plan.source}): {crystallized.external_events} "
        f"external turns judged; fragments {len(fragments_new)} new, "
        f"{len(crystallized.fragments_prior)} prior reused"
    )
    if not fragments_new:
        line += "; NO_NEW_GRADIENT: no external line-referenced evidence found."
    return line


def _subagents(
    plan: PassPlan, route: Route | None, crystallized: CrystallizeResult, updated: UpdateResult
) -> list[str]:
    """The original's subagent names for the stages that had work."""
    out = []
    if plan.interval or (route and route.route == "scan"):
        out.append("spine-scanner")
    if crystallized.fragments_new or (route and route.route == "entity"):
        out.append("entity-crystallizer")
    if updated.effectiveness_read or (route and route.route == "update"):
        out.append("intuition-updater")
    return out


def settle(
    paths: KernelPaths,
    settings: Settings,
    plan: PassPlan,
    crystallized: CrystallizeResult,
    updated: UpdateResult,
    lease: Lease,
) -> dict[str, Any]:
    """Stage-1 ack, the Stage-2 directed item, the final report (appended to the log)."""
    acked: list[str] = []
    notes = list(plan.notes) + list(plan.waiting)
    _ack_scan_gap(paths, plan, crystallized, acked, notes, lease)
    if crystallized.deferred:
        notes.append(f"{crystallized.deferred} fragments deferred: their day was not fully read")
    changed = _changed_files(crystallized, updated)
    directed = None
    route = plan.route
    if route is not None:
        stages = (crystallized, updated)
        directed = _settle_directed(paths, plan, route, stages, (changed, acked, notes), lease)
    pending = [i.name for i in list_items(paths, WEAVER)]
    fragments_new = list(crystallized.fragments_new)
    per_line = [
        {"ref": v.ref, "effectiveness": v.effectiveness, "new": v.new, "prior": v.prior}
        for _m, v in sorted(crystallized.per_line.items())
        if v.new
    ]
    line_changes = [d.summary or f"{d.ref} {d.action} ({d.reason})" for d in updated.edits]
    if changed or fragments_new:
        status = "UPDATED:"
    elif directed and str(directed["result"]).startswith("NO-OP:"):
        status = "NO-OP:"
    else:
        status = "NO_NEW_GRADIENT:"
    data: dict[str, Any] = {
        "status": status,
        "scanner_line": _scanner_line(plan, crystallized),
        "subagents": _subagents(plan, route, crystallized, updated),
        "per_line": per_line,
        "line_changes": line_changes,
        "directed": directed,
        "changed": changed,
        "acked": acked,
        "pending": pending,
        "notes": notes,
        "fragments_new": fragments_new[:LISTED],
        "fragments_new_count": len(fragments_new),
        "interval": plan.interval,
        "covered": list(crystallized.covered),
    }
    if not plan.interval and directed is None and not changed and not acked:
        data["status"] = "NO_NEW_GRADIENT:"
        data["scanner_line"] = None
    admissible = plan.interval or directed or changed or acked or notes
    text = render_report(data) if admissible else render_report({})
    data["text"] = text
    data["report_log"] = append_report(paths, data)
    return data
