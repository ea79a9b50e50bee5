"""``new-signals.md``: NEW_SIGNAL fragments clustered into candidate board lines."""

from __future__ import annotations

import hashlib
from pathlib import Path

from shared.errors import InputError
from shared.formats.effectiveness import Candidate, parse_new_signals, render_new_signals
from shared.kernel.files import read_utf8
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.language.text import ascii_slug, one_line, token_set
from shared.weaver.concepts import same_instruction
from shared.weaver.crystallize.prose import make_sample, quote_of
from shared.weaver.crystallize.store import StoredFragment, write_if_changed
from shared.weaver.judging.interfaces import DossierWriter
from shared.weaver.judging.verdicts import Signal

NEW_SIGNALS = "new-signals.md"


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
        if not trigger:
            # A later member may name the situation the first one left out.
            trigger, direction = next(
                ((t, d) for t, d in map(_candidate_of, members) if t), (trigger, direction)
            )
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


def write_new_signals(
    paths: KernelPaths,
    signals: list[StoredFragment],
    new_paths: set[str],
    writer: DossierWriter,
    lease: Lease,
) -> tuple[list[Candidate], bool]:
    """The candidates of the NEW_SIGNAL fragments on disk, and whether
    ``new-signals.md`` was written (only when a signal is new or the file lists
    other fragments than the disk holds)."""
    candidates = cluster_new_signals(signals, writer)
    path = paths.effectiveness_dir / NEW_SIGNALS
    listed = _listed_signals(path)
    written = False
    if signals and (any(s.rel in new_paths for s in signals) or listed != {s.rel for s in signals}):
        written = write_if_changed(path, render_new_signals(candidates), lease)
    return candidates, written
