"""The records the writing stages pass on: crystallize's result, update's result, and
the two together as settle receives them.

Like the slice plans and scan results of :mod:`shared.weaver.records`, each travels
through Celery as JSON of the same shape as before (Flower and ``subcon weave --json``
show it unchanged), is decoded once at the task boundary, and a malformed message is
one :class:`~shared.errors.InputError` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from shared.spine.reader import ReadStats
from shared.weaver.judging.vocabulary import LineAction, Trajectory
from shared.weaver.records import WireModel, decode


class _LineEvidenceWire(WireModel):
    ref: str
    effectiveness: str
    new: int
    prior: int
    trajectory: Trajectory


@dataclass(frozen=True, slots=True)
class LineEvidence:
    """One board line's evidence after a crystallize run: its effectiveness file, the
    fragments this run wrote for it (``new``) and those already on disk (``prior``)."""

    ref: str
    effectiveness: str
    new: int
    prior: int
    trajectory: Trajectory

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "effectiveness": self.effectiveness,
            "new": self.new,
            "prior": self.prior,
            "trajectory": self.trajectory,
        }


class _JudgementWire(WireModel):
    fragment: str
    reason: str


@dataclass(frozen=True, slots=True)
class Judgement:
    """Why a fragment was made (``fragment`` is ``<date>/<source event id>``)."""

    fragment: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"fragment": self.fragment, "reason": self.reason}


class _CrystallizeWire(WireModel):
    status: str
    fragments_new: tuple[str, ...]
    fragments_prior: tuple[str, ...]
    per_line: dict[str, _LineEvidenceWire]
    effectiveness_written: tuple[str, ...]
    effectiveness_deleted: tuple[str, ...]
    new_signals_written: bool
    entities_written: tuple[str, ...]
    node_create: tuple[str, ...]
    malformed: tuple[str, ...]
    bootstrapped: tuple[str, ...]
    external_events: int
    stats: dict[str, Any]
    covered: tuple[str, ...]
    deferred: int
    missing_slices: tuple[str, ...]
    judgements: tuple[_JudgementWire, ...]
    judgements_total: int


@dataclass(frozen=True, slots=True)
class CrystallizeResult:
    """What the crystallize stage did: the files it wrote, each line's evidence, what
    the scan read, the days it marked covered, and why each fragment was made (the
    first few hundred reasons; ``judgements_total`` counts them all)."""

    status: str
    fragments_new: tuple[str, ...]
    fragments_prior: tuple[str, ...]
    per_line: dict[str, LineEvidence]
    effectiveness_written: tuple[str, ...]
    effectiveness_deleted: tuple[str, ...]
    new_signals_written: bool
    entities_written: tuple[str, ...]
    node_create: tuple[str, ...]
    malformed: tuple[str, ...]
    bootstrapped: tuple[str, ...]
    external_events: int
    stats: ReadStats
    covered: tuple[str, ...]
    deferred: int
    missing_slices: tuple[str, ...]
    judgements: tuple[Judgement, ...]
    judgements_total: int

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "fragments_new": list(self.fragments_new),
            "fragments_prior": list(self.fragments_prior),
            "per_line": {m: v.to_json() for m, v in self.per_line.items()},
            "effectiveness_written": list(self.effectiveness_written),
            "effectiveness_deleted": list(self.effectiveness_deleted),
            "new_signals_written": self.new_signals_written,
            "entities_written": list(self.entities_written),
            "node_create": list(self.node_create),
            "malformed": list(self.malformed),
            "bootstrapped": list(self.bootstrapped),
            "external_events": self.external_events,
            "stats": self.stats.to_json(),
            "covered": list(self.covered),
            "deferred": self.deferred,
            "missing_slices": list(self.missing_slices),
            "judgements": [j.to_json() for j in self.judgements],
            "judgements_total": self.judgements_total,
        }

    @classmethod
    def from_json(cls, data: Any) -> CrystallizeResult:
        """Raises: InputError: a malformed result (naming the field)."""
        w = decode(_CrystallizeWire, data, "crystallize result")
        return cls(
            status=w.status,
            fragments_new=w.fragments_new,
            fragments_prior=w.fragments_prior,
            per_line={m: LineEvidence(**v.model_dump()) for m, v in w.per_line.items()},
            effectiveness_written=w.effectiveness_written,
            effectiveness_deleted=w.effectiveness_deleted,
            new_signals_written=w.new_signals_written,
            entities_written=w.entities_written,
            node_create=w.node_create,
            malformed=w.malformed,
            bootstrapped=w.bootstrapped,
            external_events=w.external_events,
            stats=ReadStats.from_json(w.stats),
            covered=w.covered,
            deferred=w.deferred,
            missing_slices=w.missing_slices,
            judgements=tuple(Judgement(j.fragment, j.reason) for j in w.judgements),
            judgements_total=w.judgements_total,
        )


class _DecisionWire(WireModel):
    ref: str
    action: LineAction
    reason: str
    marker: str | None = None
    cls: str | None = Field(default=None, alias="class")
    evidence: str | None = None
    fragments: tuple[str, ...] = ()
    summary: str | None = None


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """The updater's decision on one board line (``ref`` ``"new"`` for an added line,
    ``"none"`` for the new-signals file), as the report shows it.

    ``evidence`` is None for a line whose effectiveness file could not be read: the
    row then carries only the reason. ``summary`` names an edit's evidence and
    fragments (None for a kept line)."""

    ref: str
    action: LineAction
    reason: str
    marker: str | None = None
    cls: str | None = None
    evidence: str | None = None
    fragments: tuple[str, ...] = ()
    summary: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.evidence is None:
            return {"ref": self.ref, "action": self.action, "reason": self.reason}
        out: dict[str, Any] = {
            "ref": self.ref,
            "marker": self.marker,
            "action": self.action,
            "reason": self.reason,
            "class": self.cls,
            "evidence": self.evidence,
            "fragments": list(self.fragments),
        }
        if self.summary is not None:
            out["summary"] = self.summary
        return out


class _UpdateWire(WireModel):
    status: str
    changed: bool
    decisions: tuple[_DecisionWire, ...]
    effectiveness_read: tuple[str, ...]
    reviews: tuple[str, ...]
    topics_written: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """What the update stage did to ``memory/CLAUDE.md``: a decision per line, the
    effectiveness files it read, the reviews it posted and the topic dossiers a
    removed line moved to."""

    status: str
    changed: bool
    decisions: tuple[DecisionRow, ...]
    effectiveness_read: tuple[str, ...]
    reviews: tuple[str, ...]
    topics_written: tuple[str, ...]

    @property
    def edits(self) -> list[DecisionRow]:
        """The decisions that changed a line (every one but a keep)."""
        return [d for d in self.decisions if d.action is not LineAction.KEEP]

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "changed": self.changed,
            "decisions": [d.to_json() for d in self.decisions],
            "effectiveness_read": list(self.effectiveness_read),
            "reviews": list(self.reviews),
            "topics_written": list(self.topics_written),
        }

    @classmethod
    def from_json(cls, data: Any) -> UpdateResult:
        """Raises: InputError: a malformed result (naming the field)."""
        w = decode(_UpdateWire, data, "update result")
        return cls(
            status=w.status,
            changed=w.changed,
            decisions=tuple(DecisionRow(**d.model_dump()) for d in w.decisions),
            effectiveness_read=w.effectiveness_read,
            reviews=w.reviews,
            topics_written=w.topics_written,
        )


class _StagesWire(WireModel):
    crystallized: dict[str, Any]
    updated: dict[str, Any]


@dataclass(frozen=True, slots=True)
class StageResults:
    """Both writing stages' results: settle needs them, and a chain passes only the
    previous task's result on, so the update task returns the pair."""

    crystallized: CrystallizeResult
    updated: UpdateResult

    def to_json(self) -> dict[str, Any]:
        return {"crystallized": self.crystallized.to_json(), "updated": self.updated.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> StageResults:
        """Raises: InputError: a malformed message (naming the field)."""
        w = decode(_StagesWire, data, "stage results")
        return cls(CrystallizeResult.from_json(w.crystallized), UpdateResult.from_json(w.updated))
