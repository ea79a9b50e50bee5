"""What one crystallize run did, gathered as it runs."""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.weaver.results import LineEvidence


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
