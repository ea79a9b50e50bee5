"""Effectiveness snapshots: one file per board line, derived from every fragment file
on disk for that line, and rebuilt whenever new evidence, a stale count or a moved
line makes the file disagree with the disk."""

from __future__ import annotations

import re
from pathlib import Path

from shared.errors import InputError
from shared.formats.board import Board
from shared.formats.effectiveness import Effectiveness, read_effectiveness, render_effectiveness
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.weaver.crystallize.guidance import guidance_for, verdict_of
from shared.weaver.crystallize.outcome import CrystalReport
from shared.weaver.crystallize.prose import make_sample
from shared.weaver.crystallize.signals import NEW_SIGNALS
from shared.weaver.crystallize.store import StoredFragment, rel_path, write_if_changed
from shared.weaver.judging.interfaces import DossierWriter
from shared.weaver.judging.verdicts import Trajectory, WeakeningKind
from shared.weaver.results import LineEvidence

_ORDER = ("WEAKENING", "STRENGTHENING", "NEUTRAL")


def bullet_body(text: str) -> str:
    """A board line's text without its list bullet."""
    return re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text)


def _stale(path: Path, group: list[StoredFragment], report: CrystalReport) -> bool:
    try:
        eff = read_effectiveness(path)
    except InputError as exc:
        report.malformed.append(str(exc))
        return True
    if eff is None:
        return True
    counts = (eff.strengthening, eff.neutral, eff.weakening)
    have = tuple(
        sum(1 for g in group if g.fragment.trajectory == t)
        for t in ("STRENGTHENING", "NEUTRAL", "WEAKENING")
    )
    return counts != have


def build_effectiveness(
    marker: str, group: list[StoredFragment], board: Board, writer: DossierWriter
) -> Effectiveness:
    """The present snapshot for ``marker`` from every fragment file in ``group``."""
    line = board.by_marker(marker)
    counts = {t: 0 for t in _ORDER}
    for sf in group:
        if sf.fragment.trajectory in counts:
            counts[sf.fragment.trajectory] += 1
    verdict = verdict_of(counts["STRENGTHENING"], counts["NEUTRAL"], counts["WEAKENING"])
    samples = []
    for traj in _ORDER:
        members = [g for g in group if g.fragment.trajectory == traj]
        if members:
            newest = max(members, key=lambda g: (g.fragment.source_ts, g.rel))
            samples.append(make_sample(newest, writer))
    return Effectiveness(
        node_slug=marker,
        line_hash=line.hash if line else "unavailable",
        line=line.ref if line else "unavailable",
        current_line=bullet_body(line.text) if line else "unavailable",
        trajectory=verdict,
        strengthening=counts["STRENGTHENING"],
        neutral=counts["NEUTRAL"],
        weakening=counts["WEAKENING"],
        samples=tuple(samples),
        guidance=tuple(guidance_for(verdict, group)),
        kinds=(
            sum(1 for g in group if g.fragment.weakening_kind == WeakeningKind.RECALL_MISS),
            sum(1 for g in group if g.fragment.weakening_kind == WeakeningKind.DIRECTION_CHANGED),
            sum(1 for g in group if g.fragment.weakening_kind == WeakeningKind.OBSOLETE),
        ),
    )


def markers_to_rebuild(
    paths: KernelPaths,
    board: Board,
    by_marker: dict[str, list[StoredFragment]],
    new_paths: set[str],
    report: CrystalReport,
    lease: Lease,
) -> set[str]:
    """Markers whose effectiveness file must be derived again (new evidence, stale or
    foreign file); deletes the files of markers with neither a line nor evidence."""
    eff_dir = paths.effectiveness_dir
    touched = {m for m, group in by_marker.items() if any(g.rel in new_paths for g in group)}
    for marker, group in by_marker.items():
        # A file missing or disagreeing with the disk (e.g. after a crash between the
        # fragment writes and this rebuild) is stale: derive it again.
        if marker not in touched and _stale(eff_dir / f"{marker}.md", group, report):
            touched.add(marker)
    existing = (
        sorted(p for p in eff_dir.glob("*.md") if p.name != NEW_SIGNALS)
        if (eff_dir.is_dir())
        else []
    )
    for path in existing:
        marker = path.stem
        line = board.by_marker(marker)
        if line is None and not by_marker.get(marker):
            lease.ensure()
            path.unlink()
            report.effectiveness_deleted.append(rel_path(paths, path))
            continue
        if line is not None and by_marker.get(marker):
            try:
                eff = read_effectiveness(path)
            except InputError as exc:
                report.malformed.append(str(exc))
                eff = None
            if eff is None or eff.line != line.ref or eff.line_hash != line.hash:
                touched.add(marker)
    return touched


def write_effectiveness(
    paths: KernelPaths,
    board: Board,
    groups: dict[str, list[StoredFragment]],
    new_paths: set[str],
    report: CrystalReport,
    writer: DossierWriter,
    lease: Lease,
) -> None:
    """Write each marker's effectiveness file from its group; count new and prior."""
    for marker in sorted(groups):
        group = groups[marker]
        eff = build_effectiveness(marker, group, board, writer)
        path = paths.effectiveness_dir / f"{marker}.md"
        if write_if_changed(path, render_effectiveness(eff), lease):
            report.effectiveness_written.append(rel_path(paths, path))
        new = sum(1 for g in group if g.rel in new_paths)
        line = board.by_marker(marker)
        report.per_line[marker] = LineEvidence(
            ref=line.ref if line else "unavailable",
            effectiveness=rel_path(paths, path),
            new=new,
            prior=len(group) - new,
            trajectory=Trajectory(eff.trajectory),
        )
