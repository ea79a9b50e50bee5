"""What a judge is: the records it reads and answers with, and the three Protocols.

A judge set (:class:`JudgeSet`) bundles one implementation of each seam under a name
and a version; the pair (:attr:`JudgeSet.key`) goes into every slice-reuse check and
every fragment's ``judge:`` key, so a verdict is never replayed for another judge.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.formats.board import Board, BoardLine
from shared.formats.effectiveness import Effectiveness
from shared.settings import Settings
from shared.weaver.crystallize.store import StoredFragment
from shared.weaver.judging.verdicts import (
    Activation,
    LineAction,
    Signal,
    Trajectory,
    WeakeningKind,
)
from shared.weaver.scan.turns import Turn


@dataclass(frozen=True)
class JudgeContext:
    """What the judge knows besides the events: existing dossier slugs and the
    lines/markers a directed item named."""

    dossiers: frozenset[str] = frozenset()
    entities: frozenset[str] = frozenset()
    directed_markers: frozenset[str] = frozenset()
    directed_lines: frozenset[int] = frozenset()
    dossier_cues: dict[str, frozenset[str]] = field(default_factory=dict)
    # Per dossier slug, the rule files it cites (scan/rulefiles.py).
    rule_files: dict[str, frozenset[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "dossiers": sorted(self.dossiers),
            "entities": sorted(self.entities),
            "directed_markers": sorted(self.directed_markers),
            "directed_lines": sorted(self.directed_lines),
            "dossier_cues": {k: sorted(v) for k, v in sorted(self.dossier_cues.items())},
            "rule_files": {k: sorted(v) for k, v in sorted(self.rule_files.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JudgeContext:
        return cls(
            dossiers=frozenset(data.get("dossiers", ())),
            entities=frozenset(data.get("entities", ())),
            directed_markers=frozenset(data.get("directed_markers", ())),
            directed_lines=frozenset(int(x) for x in data.get("directed_lines", ())),
            dossier_cues={k: frozenset(v) for k, v in data.get("dossier_cues", {}).items()},
            rule_files={k: frozenset(v) for k, v in data.get("rule_files", {}).items()},
        )

    def signature(self) -> str:
        """A digest of everything in the context, to tell whether two match."""
        parts = [
            sorted(self.dossiers),
            sorted(self.entities),
            sorted(self.directed_markers),
            sorted(self.directed_lines),
            sorted((k, sorted(v)) for k, v in self.dossier_cues.items()),
        ]
        if self.rule_files:  # absent: the same digest as before rule files were read
            parts.append(sorted((k, sorted(v)) for k, v in self.rule_files.items()))
        return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision about one turn: a line trajectory, or a NEW_SIGNAL (line None)."""

    line: BoardLine | None
    trajectory: Trajectory
    activation: Activation
    signal: Signal
    reason: str
    evidence: tuple[str, ...]
    notes: tuple[str, ...]
    root_cause: str | None = None
    supersedes: str | None = None
    entities: tuple[str, ...] = field(default=())
    source_turn: Turn | None = None
    kind: WeakeningKind | None = None  # WEAKENING only


@dataclass
class SessionMemory:
    """The judge's view of a session's previous turn, and of the corrections the user
    made in the last turns (which a later "never mind" can still take back)."""

    turn: Turn | None = None
    lines: tuple[BoardLine, ...] = ()
    trajectories: tuple[str, ...] = ()
    # (id of the correcting turn, the line it weakened, turns since), newest last.
    corrections: tuple[tuple[str, BoardLine, int], ...] = ()


class EventJudge(Protocol):
    """Judges one turn against the board (the scanner's seam)."""

    def judge(
        self, turn: Turn, previous: SessionMemory, board: Board, ctx: JudgeContext
    ) -> list[Judgement]:
        """Return zero or more judgements, each with its reason."""


@dataclass(frozen=True)
class LineDecision:
    """keep | rewrite | remove | repair, the new text for rewrite/repair, and why."""

    action: LineAction
    reason: str
    new_text: str | None = None
    review: bool = False
    cls: str | None = None  # the evidence class that decided it, when one did


class LineJudge(Protocol):
    """Decides what happens to one board line given its effectiveness snapshot
    (the updater's seam)."""

    def decide(
        self, line: BoardLine, eff: Effectiveness | None, settings: Settings
    ) -> LineDecision:
        """keep / rewrite / remove for ``line`` from its snapshot ``eff``, with a reason."""


class DossierWriter(Protocol):
    """Writes dossier section bullets and sample reasons from fragments (the
    crystallizer's seam)."""

    def entity_sections(self, slug: str, fragments: list[StoredFragment]) -> dict[str, list[str]]:
        """Bullets per canonical section heading."""

    def sample_why(self, sf: StoredFragment) -> str:
        """One short reason a fragment was chosen as a representative sample."""


@dataclass(frozen=True)
class JudgeSet:
    """One implementation of every judging seam, under a name and a version.

    Bump ``version`` whenever the implementation may answer differently: recorded
    verdicts of another version are then re-judged rather than replayed.
    """

    name: str
    version: str
    event: Callable[[], EventJudge]
    line: Callable[[], LineJudge]
    dossier: Callable[[], DossierWriter]

    @property
    def key(self) -> str:
        """``name/version``: the provenance a fragment records and caches compare."""
        return f"{self.name}/{self.version}"
