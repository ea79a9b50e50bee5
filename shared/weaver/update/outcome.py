"""What one update run did, gathered as it runs."""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.weaver.results import DecisionRow, UpdateResult


@dataclass
class UpdateReport:
    """What the updater did, gathered as it runs (frozen by :meth:`result`)."""

    status: str = "NO_NEW_GRADIENT:"
    decisions: list[DecisionRow] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    reviews: list[str] = field(default_factory=list)
    topics_written: list[str] = field(default_factory=list)
    changed: bool = False

    def result(self) -> UpdateResult:
        return UpdateResult(
            status=self.status,
            changed=self.changed,
            decisions=tuple(self.decisions),
            effectiveness_read=tuple(self.read),
            reviews=tuple(self.reviews),
            topics_written=tuple(self.topics_written),
        )
