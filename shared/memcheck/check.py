"""The memory check (docs/formats.md §8.1, §5.6, §6.3): measure, gate, deliver, sweep.

One tick: read the two consumer contracts; unless some signal kind is open for
pattern-tracker or memory-weaver, measure nothing. Otherwise compute orphan states and
run board-, entity-, node- and gap-lint and the orphan signals (limit 1 per class);
deliver each selection through the contract gate (withheld with a reason, or
``already-pending`` when the file exists, else posted). Only when every sub-step was
clean (no exception, no unreadable path other than "missing") and orphan states were
computed, sync the signal ledgers: signals this check posted earlier that the current
measurement no longer selects are swept. Items not in a ledger (operator, LLM or
directed items) are never touched.

Forget (docs/formats.md §8.1; ``shared/memcheck/forget.py``): with ``SUBCON_FORGET`` (or
``ALADUO_EXP_MEMORY_FORGET``) and the memory-check flag both on, stale orphan nodes that
were warnable are deleted from the work tree, for the committer to remove in one commit.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TypeVar

from shared.constants import PATTERN_TRACKER, SCAN_GAP_PENDING, WEAVER
from shared.errors import SubconError
from shared.jsontext import shown
from shared.kernel.files import atomic_write_text, utf8_problem
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.memcheck import board_lint, entity_lint, node_lint
from shared.memcheck.forget import apply_forget, plan_forget
from shared.memcheck.links import board_closure, route_contract_decision
from shared.memcheck.orphans import (
    ISLAND,
    NEWBORN,
    Orphan,
    OrphanReport,
    detect_orphans,
    islands_selection,
    newborn_selections,
)
from shared.memcheck.reads import MemoryReads
from shared.memcheck.selection import Selection
from shared.partitions.discovery import SIGNAL_KINDS, PartitionInfo, gate, read_partition
from shared.partitions.inbox import read_ledger, write_ledger
from shared.settings import Settings
from shared.spine.gap import find_gap, scan_gap_body
from shared.timestamps import iso

log = logging.getLogger(__name__)

CONSUMERS: Final = (PATTERN_TRACKER, WEAVER)
_SUBSTEP_ERRORS = (OSError, SubconError, ValueError, UnicodeError)


@dataclass
class CheckReport:
    """What one memory-check tick measured, posted, withheld and swept."""

    memory_dir: str
    dry_run: bool
    measured: bool = False
    clean: bool = False
    posted: list[str] = field(default_factory=list)
    withheld: list[dict[str, str]] = field(default_factory=list)
    swept: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    gap: dict[str, Any] | None = None
    board: dict[str, Any] = field(default_factory=dict)
    entity: dict[str, Any] = field(default_factory=dict)
    node: dict[str, Any] = field(default_factory=dict)
    orphans: dict[str, Any] | None = None
    forgotten: list[str] = field(default_factory=list)
    spared_unwarnable: list[str] = field(default_factory=list)
    contracts: list[dict[str, Any]] = field(default_factory=list)
    ledgers: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready report (``posted`` are paths; ``swept`` are inbox basenames)."""
        return {
            "memoryDir": self.memory_dir,
            "dryRun": self.dry_run,
            "measured": self.measured,
            "clean": self.clean,
            "posted": list(self.posted),
            "withheld": list(self.withheld),
            "swept": list(self.swept),
            "errors": list(self.errors),
            "gap": self.gap,
            "board": self.board,
            "entity": self.entity,
            "node": self.node,
            "orphans": self.orphans,
            "forgotten": list(self.forgotten),
            "spared_unwarnable": list(self.spared_unwarnable),
            "contracts": self.contracts,
            "ledgers": self.ledgers,
        }

    @property
    def text(self) -> str:
        """Plain report lines in the spirit of ``duoduo memory check``."""
        return self.render()

    def render(self, *, plain: bool = False) -> str:
        """The report lines; ``plain`` words them for a newcomer (``subcon demo``): a
        withheld signal says which step was skipped and why in words, not as
        ``withheld <kind> → <partition>: <reason code>``, and counts are pluralised."""
        lines = [f"memory check — {self.memory_dir}" + ("  (dry run)" if self.dry_run else "")]
        if not self.measured:
            lines.append("no consumer accepts any signal kind: nothing measured")
            return "\n".join(lines)
        census = self.board.get("census", {})
        lines.append(
            f"board: markers pattern={census.get('pattern', 0)} lesson={census.get('lesson', 0)} "
            f"groove={census.get('groove', 0)}  ({self.board.get('targets', 0)} targets)"
        )
        lines += [f"  {finding}" for finding in self.board.get("missing_dossiers", [])]
        lines.append(f"entity: {self.entity.get('flagged', 0)} flagged")
        lines.append(f"node: {self.node.get('flagged', 0)} flagged")
        if self.gap is None:
            lines.append("gap: none — all external days dreamt")
        else:
            bands = len(self.gap["tokens"])
            counted = f"{bands} band" + ("" if bands == 1 else "s") if plain else f"{bands} band(s)"
            lines.append(f"gap: {self.gap['date']} ({counted})")
        islands = (self.orphans or {}).get("islands", 0)
        lines.append(f"orphan islands: {islands}")
        verb = "would forget" if self.dry_run else "forgot"
        lines += [f"{verb} {rel} (stale orphan, never linked)" for rel in self.forgotten]
        lines += [
            f"spared {rel} (stale orphan, but its partition never accepted the warning)"
            for rel in self.spared_unwarnable
        ]
        verb = "would post" if self.dry_run else "posted"
        lines.append(f"{verb} {len(self.posted)} .pending")
        lines += [f"  {shown(path)}" for path in self.posted]
        if plain:
            lines += plain_withheld(self.withheld)
        else:
            lines += [
                f"  withheld {w['kind']} → {w['partition']}: {w['reason']}" for w in self.withheld
            ]
        lines += [f"  swept {shown(name)}" for name in self.swept]
        lines += [f"  error {err}" for err in self.errors]
        if not self.clean and not self.dry_run:
            lines.append("  (degraded tick: ledger sync and sweep skipped)")
        return "\n".join(lines)


# A withheld signal's reason code (the contract gate's, docs/formats.md §6.3), in words.
_WITHHELD_WHY: Final = {
    "partition-absent": "skipped the {} step: that partition is not installed",
    "already-pending": "not posted to {} again: the same signal still waits in its inbox",
    "kind-not-consumed": "skipped the {} step: that partition does not take this signal",
    "partition-disabled": "skipped the {} step: that partition is disabled",
    "self-id-mismatch": "skipped the {} step: its CLAUDE.md names another partition",
    "no-contract": "skipped the {} step: its CLAUDE.md declares no contract",
    "parse-fail": "skipped the {} step: its CLAUDE.md contract cannot be read",
}


def plain_withheld(withheld: list[dict[str, str]]) -> list[str]:
    """One line per (partition, reason) the check withheld signals for, in words:
    ``skipped the pattern-tracker step: that partition is not installed``."""
    steps = dict.fromkeys((w["partition"], w["reason"]) for w in withheld)
    return [
        "  " + _WITHHELD_WHY.get(reason, "skipped the {} step: " + reason).format(partition)
        for partition, reason in steps
    ]


_Row = TypeVar("_Row")


@dataclass
class _Tick:
    """Mutable state of one check: contracts, selections, and whether it stayed clean."""

    paths: KernelPaths
    settings: Settings
    report: CheckReport
    contracts: dict[str, PartitionInfo | None]
    dry_run: bool
    lease: Lease | None
    ok: bool = True
    selections: list[Selection] = field(default_factory=list)
    # The board closure, computed once per check for the entity and node lints.
    closure: set[str] | None = None

    def gate(self, selection: Selection) -> str | None:
        return gate(
            selection.kind, self.contracts.get(selection.partition), self.settings.memory_check
        )

    def substep(self, name: str, run: Callable[[MemoryReads], list[Selection]]) -> None:
        """Run one lint; a failure or an unreadable path makes the tick unclean."""
        reads = MemoryReads(self.paths.memory_dir)
        try:
            selected = run(reads)
        except _SUBSTEP_ERRORS as exc:
            self.ok = False
            self.report.errors.append(f"{name}: {exc}")
            log.warning("memory check %s failed: %s", name, exc)
            return
        if reads.unreadable:
            self.ok = False
            self.report.errors += [f"{name}: unreadable {p}" for p in reads.unreadable]
        self.deliver(selected)

    def deliver(self, selected: list[Selection]) -> None:
        for selection in selected:
            self.selections.append(selection)
            reason = self.gate(selection)
            if reason is None:
                target = self.paths.inbox_dir(selection.partition) / selection.filename
                reason = "already-pending" if os.path.lexists(target) else None
            if reason is not None:
                self.report.withheld.append(
                    {"kind": selection.kind, "partition": selection.partition, "reason": reason}
                )
                continue
            if not self.dry_run:
                try:
                    self.ensure()
                    atomic_write_text(target, selection.body)
                except OSError as exc:
                    self.ok = False
                    self.report.errors.append(f"deliver {target}: {exc}")
                    continue
            self.report.posted.append(str(target))

    def ensure(self) -> None:
        """Raise LockLost before a write when the lease is gone."""
        if self.lease is not None:
            self.lease.ensure()


def _board_text(reads: MemoryReads) -> str:
    return reads.text("CLAUDE.md") or ""


def _gap_step(tick: _Tick) -> Callable[[MemoryReads], list[Selection]]:
    def run(_reads: MemoryReads) -> list[Selection]:
        gap = find_gap(tick.paths, tick.settings)
        if gap is None:
            return []
        tick.report.gap = {**gap.to_json(), "selected": SCAN_GAP_PENDING}
        return [Selection("scan-gap.v1", WEAVER, SCAN_GAP_PENDING, scan_gap_body(gap))]

    return run


def _board_step(tick: _Tick) -> Callable[[MemoryReads], list[Selection]]:
    def run(reads: MemoryReads) -> list[Selection]:
        text = reads.text("CLAUDE.md")
        if text is None:
            return []
        targets = board_lint.measure(reads, text)
        selected = board_lint.select(targets)
        tick.report.board = {
            "census": board_lint.census(text),
            "missing_dossiers": board_lint.missing_dossiers(reads, text),
            "targets": len(targets),
            "flagged": [t.to_json() for t in targets if t.trajectory != "NO-EFF"],
            "selected": [s.to_json() for s in selected],
        }
        return selected

    return run


def _closure_step(
    tick: _Tick,
    subdir: str,
    measure: Callable[[MemoryReads, set[str]], list[_Row]],
    select: Callable[[list[_Row]], list[Selection]],
    report_field: str,
) -> Callable[[MemoryReads], list[Selection]]:
    """entity-lint and node-lint (docs/formats.md §8.5, §8.6): rows measured against the
    board closure."""

    def run(reads: MemoryReads) -> list[Selection]:
        if not reads.is_dir(subdir):
            return []
        if tick.closure is None:
            tick.closure = board_closure(reads, _board_text(reads))
        rows = measure(reads, tick.closure)
        selected = select(rows)
        setattr(
            tick.report,
            report_field,
            {"flagged": len(rows), "selected": [s.to_json() for s in selected]},
        )
        return selected

    return run


def _orphan_step(report: OrphanReport) -> Callable[[MemoryReads], list[Selection]]:
    def run(_reads: MemoryReads) -> list[Selection]:
        return newborn_selections(report) + islands_selection(report)

    return run


def _unlisted(tick: _Tick, partition: str) -> set[str]:
    """Signals subcon posts that the original never selects, kept out of the ledger.

    The ledger is shared with a duoduo daemon on the same runtime, whose memory check
    sweeps every listed name its own measurement does not select. An incremental tail
    ``scan-gap`` for a covered day (`docs/formats.md` §9.5) is subcon's alone: listed, duoduo would
    delete it on its next tick. Unlisted, only the weaver's ack removes it.
    """
    if partition == WEAVER and tick.report.gap is not None and tick.report.gap["incremental"]:
        return {SCAN_GAP_PENDING}
    return set()


def _sync_ledgers(tick: _Tick) -> None:
    """Inbox sync (docs/formats.md §5.6): keep what is still wanted or was just posted,
    sweep the rest."""
    posted = [Path(p) for p in tick.report.posted]
    for partition in CONSUMERS:
        inbox = tick.paths.inbox_dir(partition)
        wanted = {
            s.filename for s in tick.selections if s.partition == partition and tick.gate(s) is None
        }
        if not wanted and not inbox.is_dir():
            continue
        keep = {p.name for p in posted if p.parent == inbox}
        for name in sorted(read_ledger(tick.paths, partition)):
            if name in wanted:
                keep.add(name)
            elif os.path.lexists(inbox / name):
                tick.ensure()
                try:
                    (inbox / name).unlink()
                except OSError as exc:
                    tick.report.errors.append(f"sweep {inbox / name}: {exc}")
                    keep.add(name)
                    continue
                tick.report.swept.append(name)
        keep -= _unlisted(tick, partition)
        tick.ensure()
        write_ledger(tick.paths, partition, keep)
        tick.report.ledgers[partition] = sorted(keep)


def _contracts(paths: KernelPaths, report: CheckReport) -> dict[str, PartitionInfo | None]:
    """Each consumer partition's contract, also listed in the report."""
    contracts = {name: read_partition(paths, name) for name in CONSUMERS}
    for name, info in contracts.items():
        report.contracts.append(
            {
                "name": name,
                "contract": info.contract_state if info else "partition-absent",
                "enabled": info.contract_enabled if info else None,
                "consumes": sorted(info.consumes) if info else [],
            }
        )
    return contracts


def _orphans(tick: _Tick, now: float) -> OrphanReport | None:
    """Orphan states (None when they could not be measured; the tick is then unclean
    for an unreadable path, and the error is in the report)."""
    reads = MemoryReads(tick.paths.memory_dir)
    try:
        orphans = detect_orphans(reads, now)
    except _SUBSTEP_ERRORS as exc:
        orphans = None
        tick.report.errors.append(f"orphan-states: {exc}")
    if reads.unreadable:
        tick.ok = False
        tick.report.errors += [f"orphan-states: unreadable {p}" for p in reads.unreadable]
    return orphans


def _lints(tick: _Tick, orphans: OrphanReport | None) -> None:
    """Every lint in order, each a substep that may select signals to post."""
    tick.substep("board-lint", _board_step(tick))
    tick.substep(
        "entity-lint",
        _closure_step(tick, "entities", entity_lint.measure, entity_lint.select, "entity"),
    )
    tick.substep(
        "node-lint", _closure_step(tick, "topics", node_lint.measure, node_lint.select, "node")
    )
    tick.substep("gap-lint", _gap_step(tick))
    if orphans is not None:
        tick.report.orphans = {
            "islands": len(orphans.by_state(ISLAND)),
            "newborn": len(orphans.by_state(NEWBORN)),
            "orphans": [o.to_json() for o in orphans.orphans],
        }
        tick.substep("orphans", _orphan_step(orphans))


def forget_orphans(
    tick: _Tick, orphans: OrphanReport, now_ms: float, *, force: bool = False
) -> None:
    """Plan and (unless a dry run) apply the forget pass; the report lists both."""

    def warnable(orphan: Orphan) -> bool:
        partition = route_contract_decision(orphan.rel)
        return gate("orphan-newborn.v1", tick.contracts.get(partition), True) is None

    plan = plan_forget(orphans, warnable, force=force)
    tick.report.spared_unwarnable = [f"memory/{o.rel}" for o in plan.spared]
    if tick.dry_run:
        tick.report.forgotten = [f"memory/{o.rel}" for o in plan.forget]
        return
    now = iso(datetime.fromtimestamp(now_ms / 1000, UTC))
    tick.report.forgotten = apply_forget(tick.paths, plan, now, tick.lease)


def run_memory_check(
    paths: KernelPaths,
    settings: Settings,
    *,
    dry_run: bool = False,
    lease: Lease | None = None,
    now_ms: float | None = None,
) -> CheckReport:
    """One memory-check tick (see the module docstring).

    ``dry_run`` measures and reports what would be posted but writes nothing (no
    signal, no ledger, no sweep). With ``lease``, ``lease.ensure()`` runs before each
    write. ``now_ms`` (epoch ms) fixes the clock for orphan ages.

    Raises:
        LockLost: the lease was lost before a write.
    """
    report = CheckReport(memory_dir=str(paths.memory_dir), dry_run=dry_run)
    contracts = _contracts(paths, report)
    tick = _Tick(paths, settings, report, contracts, dry_run, lease)
    flag = settings.memory_check
    forget = settings.forget and flag
    consumer = any(gate(k, contracts[p], flag) is None for p in CONSUMERS for k in SIGNAL_KINDS)
    if not consumer and not forget:
        return report
    report.measured = True
    bad = utf8_problem(paths.board)
    if bad is not None:
        # The lints read it with replacement characters; the operator must still hear.
        report.errors.append(f"board: {bad}")
        tick.ok = False
    clock = time.time() * 1000 if now_ms is None else now_ms
    orphans = _orphans(tick, clock)
    if consumer:
        _lints(tick, orphans)
    report.clean = tick.ok and orphans is not None
    if consumer and report.clean and not dry_run:
        _sync_ledgers(tick)
    if forget and orphans is not None:
        forget_orphans(tick, orphans, clock)
    if report.posted or report.swept or report.withheld:
        log.info(
            "[memory] check tick posted=%d swept=%d withheld=%d",
            len(report.posted),
            len(report.swept),
            len(report.withheld),
        )
    return report


def reclaim(
    paths: KernelPaths,
    settings: Settings,
    *,
    dry_run: bool = False,
    force: bool = False,
    lease: Lease | None = None,
    now_ms: float | None = None,
) -> CheckReport:
    """``subcon reclaim``: the forget pass by hand, whatever the forget setting says
    (``force`` also forgets stale orphans whose partition never accepted the warning).

    Raises:
        LockLost: the lease was lost before a deletion.
    """
    report = CheckReport(memory_dir=str(paths.memory_dir), dry_run=dry_run)
    contracts = _contracts(paths, report)
    tick = _Tick(paths, settings, report, contracts, dry_run, lease)
    report.measured = True
    clock = time.time() * 1000 if now_ms is None else now_ms
    orphans = _orphans(tick, clock)
    report.clean = tick.ok and orphans is not None
    if orphans is not None:
        forget_orphans(tick, orphans, clock, force=force)
    return report
