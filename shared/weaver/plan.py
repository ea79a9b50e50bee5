"""The pass plan: what one memory-weaver pass scans and settles (JSON round trip)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.weaver.records import SlicePlan, WireModel, decode
from shared.weaver.settle.directed import Route


class _PlanWire(WireModel):
    interval: str | None = None
    source: str | None = None
    scan_gap_item: str | None = None
    directed_item: dict[str, Any] | None = None
    slices: tuple[dict[str, Any], ...] = ()
    full_days: tuple[str, ...] = ()
    board_hash: str = ""
    created: str = ""
    notes: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    board_text: str | None = None
    context: dict[str, Any] | None = None


@dataclass(frozen=True)
class PassPlan:
    """Everything the fan-out needs, decided once under no lock (read-only)."""

    interval: str | None
    source: str | None
    scan_gap_item: str | None
    directed_item: dict[str, Any] | None
    slices: tuple[SlicePlan, ...]
    full_days: list[str]
    board_hash: str
    created: str
    notes: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    # The board and judge context snapshot, so scan workers need no kernel access.
    board_text: str | None = None
    context: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "interval": self.interval,
            "source": self.source,
            "scan_gap_item": self.scan_gap_item,
            "directed_item": self.directed_item,
            "slices": [s.to_json() for s in self.slices],
            "full_days": self.full_days,
            "board_hash": self.board_hash,
            "created": self.created,
            "notes": self.notes,
            "waiting": self.waiting,
            "board_text": self.board_text,
            "context": self.context,
        }

    @classmethod
    def from_json(cls, data: Any) -> PassPlan:
        """Raises: InputError: a malformed plan (naming the field)."""
        w = decode(_PlanWire, data, "pass plan")
        return cls(
            interval=w.interval,
            source=w.source,
            scan_gap_item=w.scan_gap_item,
            directed_item=w.directed_item,
            slices=tuple(SlicePlan.from_json(s) for s in w.slices),
            full_days=list(w.full_days),
            board_hash=w.board_hash,
            created=w.created,
            notes=list(w.notes),
            waiting=list(w.waiting),
            board_text=w.board_text,
            context=w.context,
        )

    def slices_of(self, date: str, role: str) -> list[SlicePlan]:
        """The planned slices of ``date`` scanned for ``role``."""
        return [s for s in self.slices if s.spine.date == date and s.role == role]

    @property
    def route(self) -> Route | None:
        return Route.from_json(self.directed_item) if self.directed_item else None
