"""The entity crystallizer: fragment files, effectiveness snapshots, new-signals,
entity dossiers and node-create messages (writes; the caller holds the kernel lock).

Every write is atomic, preceded by ``lease.ensure()``, and skipped when the file
already holds the same bytes, so a re-run is byte-identical and untouched files
keep their mtimes. Effectiveness files and dossiers are derived from *all*
fragment files on disk, so their counts always equal the files that prove them.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from shared.errors import InputError
from shared.formats.board import Board
from shared.formats.effectiveness import (
    Candidate,
    Effectiveness,
    parse_new_signals,
    read_effectiveness,
    render_effectiveness,
    render_new_signals,
)
from shared.formats.fragments import Fragment, fragment_filename, render_fragment
from shared.kernel.files import atomic_write_text, read_utf8
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.language.text import ascii_slug, one_line, token_set
from shared.settings import Settings
from shared.weaver.concepts import same_instruction
from shared.weaver.crystallize.promotion import (
    bootstrap_dossiers,
    post_node_create,
    promote_entities,
)
from shared.weaver.crystallize.prose import RuleDossierWriter, make_sample, quote_of, wanted_of
from shared.weaver.crystallize.store import (
    StoredFragment,
    load_fragments,
    rel_path,
    resolve_marker,
    write_if_changed,
)
from shared.weaver.judging.interfaces import DossierWriter
from shared.weaver.judging.vocabulary import RootCause, Signal, Trajectory, WeakeningKind
from shared.weaver.results import LineEvidence
from shared.weaver.scan.scanner import ScannedFragment

NEW_SIGNALS = "new-signals.md"
_ORDER = ("WEAKENING", "STRENGTHENING", "NEUTRAL")


@dataclass
class CrystalReport:
    """What one crystallize run did, gathered as it runs (the stage's result,
    :class:`~shared.weaver.results.CrystallizeResult`, adds what the pass read)."""

    fragments_new: list[str] = field(default_factory=list)
    fragments_prior: list[str] = field(default_factory=list)
    per_line: dict[str, LineEvidence] = field(default_factory=dict)
    effectiveness_written: list[str] = field(default_factory=list)
    effectiveness_deleted: list[str] = field(default_factory=list)
    new_signals_written: bool = False
    entities_written: list[str] = field(default_factory=list)
    node_create: list[str] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)
    bootstrapped: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        changed = self.entities_written or self.effectiveness_written or self.new_signals_written
        if self.bootstrapped and not (changed or self.fragments_new):
            return "BOOTSTRAPPED:"
        if changed or self.fragments_new or self.effectiveness_deleted:
            return "UPDATED:"
        return "NO_NEW_GRADIENT:"


def bullet_body(text: str) -> str:
    """A board line's text without its list bullet."""
    return re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text)


def _verdict(s: int, n: int, w: int) -> str:
    if w > s:
        return Trajectory.WEAKENING
    if s > w:
        return Trajectory.STRENGTHENING
    return Trajectory.NEUTRAL


def _when(g: StoredFragment) -> tuple[str, str]:
    return (g.fragment.source_ts, g.rel)


def _classified(group: list[StoredFragment]) -> list[str] | None:
    """Guidance from what the evidence says (issue #11), or None for the count rules.

    The newest explicit statement decides: a direction change rewrites, an obsolete
    practice removes, unless the line was applied or reaffirmed after it; a recall
    miss (the user asked for what the line says) keeps the line.
    """
    weak = sorted((g for g in group if g.fragment.trajectory == Trajectory.WEAKENING), key=_when)
    if not any(g.fragment.weakening_kind for g in weak):
        return None
    explicit = [
        g
        for g in weak
        if g.fragment.weakening_kind in {WeakeningKind.DIRECTION_CHANGED, WeakeningKind.OBSOLETE}
    ]
    latest = explicit[-1] if explicit else None
    if latest is not None:
        later = [
            g
            for g in group
            if _when(g) > _when(latest)
            and (
                g.fragment.trajectory == Trajectory.STRENGTHENING
                or g.fragment.weakening_kind == WeakeningKind.RECALL_MISS
            )
        ]
        if not later:
            if latest.fragment.weakening_kind == WeakeningKind.OBSOLETE:
                return [
                    f"REMOVE [obsolete]: the user says the practice stopped or is out of date "
                    f"({latest.rel}); move the line's text to its topic dossier."
                ]
            wanted = wanted_of(latest)
            if wanted:
                return [
                    f"REWRITE [direction-changed]: the user states a different behaviour "
                    f'({latest.rel}); direction that would have helped: "{wanted}"'
                ]
            return [
                f"KEEP [direction-changed]: the user changed the direction ({latest.rel}) "
                "but no new direction is quoted whole; preserve until one is."
            ]
    recall = [g for g in weak if g.fragment.weakening_kind == WeakeningKind.RECALL_MISS]
    if recall:
        return [
            f"KEEP [recall-miss]: the user reaffirmed the line after the agent missed it "
            f"({recall[-1].rel}); keep it, sharpen the trigger at most."
        ]
    return None


def _guidance(verdict: str, group: list[StoredFragment]) -> list[str]:
    s = sum(1 for g in group if g.fragment.trajectory == Trajectory.STRENGTHENING)
    w = sum(1 for g in group if g.fragment.trajectory == Trajectory.WEAKENING)
    classified = _classified(group)
    if classified is not None:
        return classified
    if verdict == Trajectory.STRENGTHENING:
        return [f"KEEP: strengthening evidence outweighs weakening ({s} vs {w}); preserve."]
    if verdict == Trajectory.NEUTRAL:
        return ["KEEP: sparse, waiting or balanced evidence; preserve the line as-is."]
    weak = sorted(
        (g for g in group if g.fragment.trajectory == Trajectory.WEAKENING),
        key=lambda g: (g.fragment.source_ts, g.rel),
    )
    recall = sum(1 for g in weak if g.fragment.root_cause == RootCause.RECALL_MISS)
    wrong = sum(1 for g in weak if g.fragment.root_cause == RootCause.DIRECTION_WRONG)
    tail = f"; root_cause direction-wrong = {wrong}" if wrong else ""
    wanted = next((x for x in (wanted_of(g) for g in reversed(weak)) if x), None)
    if recall > wrong and not wanted:
        return [
            f"SHARPEN: the direction holds but was not recalled (root_cause recall-miss = "
            f"{recall}); make the trigger more visible."
        ]
    if wanted:
        return [
            "REWRITE: the trigger is real but the direction failed; direction that would "
            f'have helped: "{one_line(wanted, 160)}"{tail}'
        ]
    return [
        "REMOVE: weakening evidence names no better direction; move the line's text to "
        f"its topic dossier{tail}."
    ]


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
    verdict = _verdict(counts["STRENGTHENING"], counts["NEUTRAL"], counts["WEAKENING"])
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
        guidance=tuple(_guidance(verdict, group)),
        kinds=(
            sum(1 for g in group if g.fragment.weakening_kind == WeakeningKind.RECALL_MISS),
            sum(1 for g in group if g.fragment.weakening_kind == WeakeningKind.DIRECTION_CHANGED),
            sum(1 for g in group if g.fragment.weakening_kind == WeakeningKind.OBSOLETE),
        ),
    )


def cluster_new_signals(group: list[StoredFragment], writer: DossierWriter) -> list[Candidate]:
    """Group NEW_SIGNAL fragments whose candidate rule reads alike: most content tokens
    shared, or, across English and Chinese, most key concepts
    (:func:`shared.weaver.concepts.same_instruction`)."""
    clusters: list[tuple[str, list[StoredFragment], str, str]] = []
    for sf in sorted(group, key=lambda g: (g.fragment.source_ts, g.rel)):
        trigger, direction = _candidate_of(sf)
        key = f"{trigger} {direction}" if token_set(f"{trigger} {direction}") else quote_of(sf)
        for rep, members, _t, _d in clusters:
            if same_instruction(rep, key):
                members.append(sf)
                break
        else:
            clusters.append((key, [sf], trigger, direction))
    out = []
    for _key, members, trigger, direction in clusters:
        slug = ascii_slug(direction or trigger) or (
            "signal-" + hashlib.sha256((trigger + direction).encode()).hexdigest()[:8]
        )
        signal = (
            "correction"
            if any(m.fragment.signal == Signal.CORRECTION for m in members)
            else (members[0].fragment.signal)
        )
        out.append(
            Candidate(
                slug=slug,
                signal=signal,
                trigger=trigger,
                direction=direction or one_line(quote_of(members[0]), 160),
                samples=tuple(make_sample(m, writer) for m in members),
            )
        )
    return out


def _candidate_of(sf: StoredFragment) -> tuple[str, str]:
    trigger = direction = ""
    for note in sf.fragment.notes:
        if note.startswith('Candidate trigger: "'):
            trigger = note[len('Candidate trigger: "') :].rstrip(".").rstrip('"')
        elif note.startswith('Candidate direction: "'):
            direction = note[len('Candidate direction: "') :].rstrip(".").rstrip('"')
    return trigger, direction


def _listed_signals(path: Path) -> set[str] | None:
    try:
        text = read_utf8(path)  # never a blocking open (a planted FIFO)
        if text is None:
            return None
        cands = parse_new_signals(text, path)
    except InputError:
        return None
    return {s.path for c in cands for s in c.samples}


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


def _markers_to_rebuild(
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


def _write_effectiveness(
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
    touched = _markers_to_rebuild(paths, board, by_marker, new_paths, report, lease)
    groups = {m: by_marker[m] for m in touched}
    _write_effectiveness(paths, board, groups, new_paths, report, writer, lease)

    candidates = cluster_new_signals(signals, writer)
    ns_path = paths.effectiveness_dir / NEW_SIGNALS
    listed = _listed_signals(ns_path)
    if signals and (any(s.rel in new_paths for s in signals) or listed != {s.rel for s in signals}):
        report.new_signals_written = write_if_changed(
            ns_path, render_new_signals(candidates), lease
        )
    # A board pointer without a dossier gets a minimal one (the line stays).
    report.bootstrapped.extend(bootstrap_dossiers(paths, board, by_marker, lease))
    written, malformed = promote_entities(paths, settings, stored, lease, writer)
    report.entities_written.extend(written)
    report.malformed.extend(malformed)
    report.node_create.extend(post_node_create(paths, settings, candidates, lease))
    return report
