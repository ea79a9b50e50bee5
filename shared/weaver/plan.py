"""The pass plan: what one memory-weaver pass scans and settles (JSON round trip)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.weaver.settle.directed import Route


@dataclass(frozen=True)
class PassPlan:
    """Everything the fan-out needs, decided once under no lock (read-only)."""

    interval: str | None
    source: str | None
    scan_gap_item: str | None
    directed_item: dict[str, Any] | None
    slices: list[dict[str, Any]]
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
            "slices": self.slices,
            "full_days": self.full_days,
            "board_hash": self.board_hash,
            "created": self.created,
            "notes": self.notes,
            "waiting": self.waiting,
            "board_text": self.board_text,
            "context": self.context,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PassPlan:
        return cls(
            interval=data.get("interval"),
            source=data.get("source"),
            scan_gap_item=data.get("scan_gap_item"),
            directed_item=data.get("directed_item"),
            slices=list(data.get("slices", [])),
            full_days=list(data.get("full_days", [])),
            board_hash=str(data.get("board_hash", "")),
            created=str(data.get("created", "")),
            notes=list(data.get("notes", [])),
            waiting=list(data.get("waiting", [])),
            board_text=data.get("board_text"),
            context=data.get("context"),
        )

    @property
    def route(self) -> Route | None:
        return Route.from_json(self.directed_item) if self.directed_item else None
