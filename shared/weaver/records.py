"""The records the weaver stages pass: slice plans and scan results.

Each travels through Celery as JSON of the same shape as before (Flower shows it
unchanged) and is decoded once, at the task boundary, by :func:`decode`: pydantic
checks the message's shape, and a malformed one is a single :class:`InputError`
naming the field. Inside, the stages read typed, frozen records.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from shared.errors import InputError
from shared.spine.reader import ReadStats
from shared.spine.slices import SpineSlice
from shared.weaver.scan.turns import Turn

W = TypeVar("W", bound=BaseModel)

# turn key -> {"prev": the previous-turn state assumed, "judgements": [...]}
Record = dict[str, dict[str, Any]]


class SliceRole(StrEnum):
    """Why a slice is scanned: the scan-gap (or operator) interval, or a directed item."""

    GAP = "gap"
    DIRECTED = "directed"


def decode(model: type[W], data: Any, what: str) -> W:
    """``data`` validated as ``model``.

    Raises:
        InputError: ``what`` is malformed (naming the first bad field).
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(message)"
        raise InputError(None, None, f"bad {what}: field {where}: {err['msg']}") from None


class WireModel(BaseModel):
    # Unknown keys are kept out, not refused: a newer planner may add fields.
    model_config = ConfigDict(extra="ignore", frozen=True)


class _SliceWire(WireModel):
    date: str
    bands: tuple[tuple[int, int], ...] = ()
    after_ts: str | None = None
    until_ts: str | None = None
    byte_start: int
    byte_end: int
    part: int = 1
    parts: int = 1
    first_line: int = 1
    file_size: int = 0
    role: SliceRole | None = None


@dataclass(frozen=True, slots=True)
class SlicePlan:
    """One planned slice and why it is scanned."""

    spine: SpineSlice
    role: SliceRole | None

    @property
    def key(self) -> tuple[str, int, int, str]:
        """What matches a scan result to its planned slice."""
        s = self.spine
        return (s.date, s.byte_start, s.byte_end, self.role or "")

    def to_json(self) -> dict[str, Any]:
        out = self.spine.to_json()
        if self.role is not None:
            out["role"] = self.role
        return out

    @classmethod
    def from_json(cls, data: Any) -> SlicePlan:
        """Raises: InputError: a malformed slice (naming the field)."""
        w = decode(_SliceWire, data, "slice")
        spine = SpineSlice(
            w.date,
            tuple(w.bands),
            w.after_ts,
            w.until_ts,
            w.byte_start,
            w.byte_end,
            w.part,
            w.parts,
            w.first_line,
            w.file_size,
        )
        return cls(spine, w.role)


class _SummaryWire(WireModel):
    date: str
    name: str
    trajectory: str
    ref: str
    reason: str


@dataclass(frozen=True, slots=True)
class FragmentSummary:
    """One fragment a slice's scan made, as the operator sees it in the result."""

    date: str
    name: str
    trajectory: str
    ref: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {
            "date": self.date,
            "name": self.name,
            "trajectory": self.trajectory,
            "ref": self.ref,
            "reason": self.reason,
        }


class _ResultWire(WireModel):
    slice: dict[str, Any]
    turns: list[dict[str, Any]]
    stats: dict[str, Any]
    last_event_id: str | None
    last_ts: str | None
    board_hash: str
    context: str
    judge: str | None = None  # absent in results of a scan worker before judges had names
    fragments: list[_SummaryWire]
    judged: dict[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What one scan task returns: its turns (thin where not needed again), read
    counts, the newest judged event, what the verdicts assumed (board, context,
    judge) and the verdicts themselves."""

    slice: SlicePlan
    turns: list[Turn]
    stats: ReadStats
    last_event_id: str | None
    last_ts: str | None
    board_hash: str
    context: str
    judge: str | None
    fragments: tuple[FragmentSummary, ...]
    judged: Record

    def to_json(self) -> dict[str, Any]:
        return {
            "slice": self.slice.to_json(),
            "turns": self.turns,
            "stats": self.stats.to_json(),
            "last_event_id": self.last_event_id,
            "last_ts": self.last_ts,
            "board_hash": self.board_hash,
            "context": self.context,
            "judge": self.judge,
            "fragments": [f.to_json() for f in self.fragments],
            "judged": self.judged,
        }

    @classmethod
    def from_json(cls, data: Any) -> ScanResult:
        """Raises: InputError: a malformed result (naming the field)."""
        w = decode(_ResultWire, data, "scan result")
        return cls(
            slice=SlicePlan.from_json(w.slice),
            # The turns are our own scan's, checked as a list of objects only: validating
            # every field of thousands of turns would cost more than the stage they feed.
            turns=cast("list[Turn]", w.turns),
            stats=ReadStats.from_json(w.stats),
            last_event_id=w.last_event_id,
            last_ts=w.last_ts,
            board_hash=w.board_hash,
            context=w.context,
            judge=w.judge,
            fragments=tuple(FragmentSummary(**f.model_dump()) for f in w.fragments),
            judged=w.judged,
        )
