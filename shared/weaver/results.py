"""The records the writing stages pass on: crystallize's result, update's result, and
the two together as settle receives them.

Each is a frozen pydantic model: it travels through Celery as JSON of the same shape
as before (Flower and ``subcon weave --json`` show it unchanged), is decoded once at
the task boundary, and a malformed message is one :class:`~shared.errors.InputError`
naming the field. These are built once per pass, so pydantic's cost does not matter
here; the scan's per-turn records stay plain (see :mod:`shared.weaver.scan.turns`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Self

from pydantic import (
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from shared.spine.reader import ReadStats
from shared.weaver.judging.verdicts import LineAction, Trajectory
from shared.weaver.records import WireModel, decode


class StageRecord(WireModel):
    """A stage result: ``to_json`` is the message, ``from_json`` decodes one."""

    model_config = ConfigDict(populate_by_name=True)

    # What a malformed message is called in its InputError.
    what: ClassVar[str] = "stage record"

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Raises: InputError: a malformed message (naming the field)."""
        return decode(cls, data, cls.what)


def _read_stats(value: Any) -> ReadStats:
    # pydantic reports a ValueError as a validation error naming the field; anything
    # else (a TypeError from a non-mapping) would escape as a crash.
    if isinstance(value, ReadStats):
        return value
    if not isinstance(value, Mapping):
        raise ValueError("read counters must be an object")
    try:
        return ReadStats.from_json(dict(value))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad read counters: {exc}") from None


# The read counters are the spine reader's own (mutable, merged per slice) record.
Stats = Annotated[ReadStats, PlainValidator(_read_stats), PlainSerializer(ReadStats.to_json)]


class LineEvidence(StageRecord):
    """One board line's evidence after a crystallize run: its effectiveness file, the
    fragments this run wrote for it (``new``) and those already on disk (``prior``)."""

    ref: str
    effectiveness: str
    new: int
    prior: int
    trajectory: Trajectory


class Judgement(StageRecord):
    """Why a fragment was made (``fragment`` is ``<date>/<source event id>``)."""

    fragment: str
    reason: str


class CrystallizeResult(StageRecord):
    """What the crystallize stage did: the files it wrote, each line's evidence, what
    the scan read, the days it marked covered, and why each fragment was made (the
    first few hundred reasons; ``judgements_total`` counts them all)."""

    what: ClassVar[str] = "crystallize result"

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
    stats: Stats
    covered: tuple[str, ...]
    deferred: int
    missing_slices: tuple[str, ...]
    judgements: tuple[Judgement, ...]
    judgements_total: int


class DecisionRow(StageRecord):
    """The updater's decision on one board line (``ref`` ``"new"`` for an added line,
    ``"none"`` for the new-signals file), as the report shows it.

    ``evidence`` is None for a line whose effectiveness file could not be read: the
    row then carries only the reason. ``summary`` names an edit's evidence and
    fragments (None for a kept line)."""

    ref: str
    marker: str | None = None
    action: LineAction
    reason: str
    cls: str | None = Field(default=None, alias="class")
    evidence: str | None = None
    fragments: tuple[str, ...] = ()
    summary: str | None = None

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if self.evidence is None:
            return {"ref": out["ref"], "action": out["action"], "reason": out["reason"]}
        if self.summary is None:
            del out["summary"]
        return out


class UpdateResult(StageRecord):
    """What the update stage did to ``memory/CLAUDE.md``: a decision per line, the
    effectiveness files it read, the reviews it posted and the topic dossiers a
    removed line moved to."""

    what: ClassVar[str] = "update result"

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


class StageResults(StageRecord):
    """Both writing stages' results: settle needs them, and a chain passes only the
    previous task's result on, so the update task returns the pair."""

    what: ClassVar[str] = "stage results"

    crystallized: CrystallizeResult
    updated: UpdateResult

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Raises: InputError: a malformed message, named by the stage whose part it is."""
        parts = decode(_Parts, data, cls.what)
        return cls(
            crystallized=CrystallizeResult.from_json(parts.crystallized),
            updated=UpdateResult.from_json(parts.updated),
        )


class _Parts(WireModel):
    crystallized: dict[str, Any]
    updated: dict[str, Any]
