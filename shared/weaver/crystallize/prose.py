"""Dossier and effectiveness prose: the rule-based :class:`DossierWriter`.

The crystallizer decides *which* fragments back an entity or a line; the writer
turns them into the sentences a reader sees, with modal tags, so another writer (a
model) can be plugged in without touching the crystallizer.
"""

from __future__ import annotations

import re

from shared.formats.effectiveness import Sample
from shared.language.text import one_line
from shared.weaver.crystallize.store import StoredFragment
from shared.weaver.judging.interfaces import DossierWriter
from shared.weaver.judging.verdicts import Signal, Trajectory

_QUOTE_RE = re.compile(r'said: "(.*)"\.?$')
_WANTED_RE = re.compile(r'^Wanted behaviour: "(.*)"\.$')


def quote_of(sf: StoredFragment) -> str:
    """The quoted external text of a fragment's first evidence bullet (or the bullet)."""
    for item in sf.fragment.evidence:
        match = _QUOTE_RE.search(item)
        if match:
            return match.group(1)
    return sf.fragment.evidence[0] if sf.fragment.evidence else ""


def wanted_of(sf: StoredFragment) -> str | None:
    """The ``Wanted behaviour:`` a WEAKENING fragment's note records, if any."""
    for note in sf.fragment.notes:
        match = _WANTED_RE.match(note.strip())
        if match:
            return match.group(1)
    return None


class RuleDossierWriter:
    """Deterministic default prose."""

    def entity_sections(self, slug: str, fragments: list[StoredFragment]) -> dict[str, list[str]]:
        ordered = sorted(fragments, key=lambda s: (s.fragment.source_ts, s.rel))
        seen: set[str] = set()
        now: list[str] = []
        stance: list[str] = []
        for sf in reversed(ordered):
            quote = one_line(quote_of(sf), 160)
            if not quote or quote in seen:
                continue
            seen.add(quote)
            if sf.fragment.signal in {Signal.INSTRUCTION, Signal.PREFERENCE}:
                stance.append(f'[instruction] "{quote}" ({sf.rel})')
            elif len(now) < 5:
                now.append(f'[observation] "{quote}" ({sf.rel})')
        weakening = [s for s in ordered if s.fragment.trajectory == Trajectory.WEAKENING]
        open_vars = [
            f"[conditional: next turn about [[{slug}]]] check the correction in {s.rel} still holds"
            for s in weakening[-2:]
        ]
        first, last = ordered[0].fragment.source_ts[:10], ordered[-1].fragment.source_ts[:10]
        stance.append(
            f"[inference] The agent meets [[{slug}]] in recurring external turns; the "
            "instructions above are its standing prior for this entity."
            if any(s.startswith("[instruction]") for s in stance)
            else f"[inference] The agent meets [[{slug}]] in recurring external turns."
        )
        trend = [f"[observation] Present in external evidence from {first} to {last}."]
        return {
            "What it is now": now,
            "Relationship / stance": stance,
            "Open variables": open_vars,
            "Trend": trend,
        }

    def sample_why(self, sf: StoredFragment) -> str:
        note = sf.fragment.notes[0] if sf.fragment.notes else ""
        return one_line(f"{sf.fragment.trajectory}: {note}", 200)


def make_sample(sf: StoredFragment, writer: DossierWriter) -> Sample:
    """A representative sample row for ``sf`` with the writer's reason."""
    return Sample(sf.rel, writer.sample_why(sf))
