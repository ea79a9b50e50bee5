"""The entity crystallizer: fragment files, effectiveness snapshots, new-signals,
entity dossiers and node-create messages (writes; the caller holds the kernel lock).

Every write is atomic, preceded by ``lease.ensure()``, and skipped when the file
already holds the same bytes, so a re-run is byte-identical and untouched files
keep their mtimes. Effectiveness files and dossiers are derived from *all*
fragment files on disk, so their counts always equal the files that prove them.
"""

from __future__ import annotations

from collections import defaultdict

from shared.formats.board import Board
from shared.formats.fragments import Fragment, fragment_filename, render_fragment
from shared.kernel.files import atomic_write_text
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.crystallize.outcome import CrystalReport
from shared.weaver.crystallize.promotion import (
    bootstrap_dossiers,
    post_node_create,
    promote_entities,
)
from shared.weaver.crystallize.prose import RuleDossierWriter
from shared.weaver.crystallize.signals import write_new_signals
from shared.weaver.crystallize.snapshots import markers_to_rebuild, write_effectiveness
from shared.weaver.crystallize.store import (
    StoredFragment,
    load_fragments,
    rel_path,
    resolve_marker,
)
from shared.weaver.judging.interfaces import DossierWriter
from shared.weaver.judging.verdicts import Trajectory
from shared.weaver.scan.scanner import ScannedFragment


def _dedup_key(frag: Fragment, board: Board) -> tuple[str, str, str, str]:
    """The dedup key (event, signal, line, trajectory) with the line resolved to its
    marker: fragments the original runtime wrote carry no marker row."""
    marker = resolve_marker(frag, board)
    base = frag.dedup_key()
    return (base[0], base[1], marker, base[3]) if marker else base


def _write_new(
    paths: KernelPaths,
    board: Board,
    scanned: list[ScannedFragment],
    stored: list[StoredFragment],
    report: CrystalReport,
    lease: Lease,
) -> set[str]:
    """Write each scanned fragment no file on disk holds yet (adding it to
    ``stored``); returns the paths written."""
    keys = {(sf.path.parent.name, _dedup_key(sf.fragment, board)) for sf in stored}
    new_paths: set[str] = set()
    for item in scanned:
        day_dir = paths.fragment_day_dir(item.date)
        target = day_dir / fragment_filename(item.fragment)
        rel = rel_path(paths, target)
        key = (item.date, _dedup_key(item.fragment, board))
        if target.exists() or key in keys:
            if rel not in report.fragments_prior:
                report.fragments_prior.append(rel)
            continue
        lease.ensure()
        atomic_write_text(target, render_fragment(item.fragment))
        keys.add(key)
        report.fragments_new.append(rel)
        new_paths.add(rel)
        stored.append(StoredFragment(rel, target, item.fragment))
    stored.sort(key=lambda s: s.rel)
    return new_paths


def _by_marker(
    stored: list[StoredFragment], board: Board
) -> tuple[dict[str, list[StoredFragment]], list[StoredFragment]]:
    """Line fragments grouped by their line's marker, and the NEW_SIGNAL fragments."""
    by_marker: dict[str, list[StoredFragment]] = defaultdict(list)
    signals: list[StoredFragment] = []
    for sf in stored:
        if sf.fragment.trajectory == Trajectory.NEW_SIGNAL:
            signals.append(sf)
            continue
        marker = resolve_marker(sf.fragment, board)
        if marker:
            by_marker[marker].append(sf)
    return by_marker, signals


def crystallize_fragments(
    paths: KernelPaths,
    settings: Settings,
    board: Board,
    scanned: list[ScannedFragment],
    lease: Lease,
    writer: DossierWriter | None = None,
) -> CrystalReport:
    """Write new fragments (deduplicated), then refresh effectiveness files,
    ``new-signals.md``, entity dossiers and node-create messages from disk."""
    writer = writer or RuleDossierWriter()
    report = CrystalReport()
    stored, errors = load_fragments(paths)
    report.malformed.extend(errors)
    new_paths = _write_new(paths, board, scanned, stored, report, lease)
    by_marker, signals = _by_marker(stored, board)
    touched = markers_to_rebuild(paths, board, by_marker, new_paths, report, lease)
    groups = {m: by_marker[m] for m in touched}
    write_effectiveness(paths, board, groups, new_paths, report, writer, lease)

    candidates, report.new_signals_written = write_new_signals(
        paths, signals, new_paths, writer, lease
    )
    # A board pointer without a dossier gets a minimal one (the line stays).
    report.bootstrapped.extend(bootstrap_dossiers(paths, board, by_marker, lease))
    written, malformed = promote_entities(paths, settings, stored, lease, writer)
    report.entities_written.extend(written)
    report.malformed.extend(malformed)
    report.node_create.extend(post_node_create(paths, settings, candidates, lease))
    return report
