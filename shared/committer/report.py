"""The outcome of one committer wake: final response text, JSON, audit records."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from shared.audit import AuditRecord
from shared.committer.review import LineDecision
from shared.kernel import KernelPaths

NO_NEW_GRADIENT = "NO_NEW_GRADIENT"


@dataclass
class CommitReport:
    """The outcome of one wake. ``text`` is the committer's exact final response."""

    outcome: str = "no_new_gradient"  # committed | no_new_gradient | dry_run
    commit: str | None = None
    short: str | None = None
    files: list[str] = field(default_factory=list)
    summary: str = ""
    subject: str | None = None
    message: str | None = None
    rejected: list[LineDecision] = field(default_factory=list)
    records: list[AuditRecord] = field(default_factory=list)
    skipped: str | None = None
    warnings: list[str] = field(default_factory=list)
    dry_run: bool = False
    duration_ms: int = 0

    @property
    def text(self) -> str:
        if self.outcome == "committed":
            head = f"Committed: {self.short} ({len(self.files)} files). {self.summary}."
        elif self.outcome == "dry_run" and self.files:
            head = f"Dry run: would commit {len(self.files)} files. {self.summary}."
        else:
            head = NO_NEW_GRADIENT
        return "\n".join([head, *(d.log_line() for d in self.rejected)])

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "text": self.text,
            "commit": self.commit,
            "short": self.short,
            "files": self.files,
            "summary": self.summary,
            "subject": self.subject,
            "rejected": [d.to_json() for d in self.rejected],
            "skipped": self.skipped,
            "warnings": self.warnings,
            "dry_run": self.dry_run,
            "duration_ms": self.duration_ms,
            "records": [r.to_json() for r in self.records],
        }


class Wake:
    """Collects the report and audit records of one wake."""

    def __init__(self, paths: KernelPaths, tick: int | None, dry_run: bool) -> None:
        self.paths = paths
        self.tick = tick
        self.fence: int | None = None
        self.report = CommitReport(
            dry_run=dry_run, outcome="dry_run" if dry_run else "no_new_gradient"
        )
        self.started = time.monotonic()

    def record(self, decision: str, **fields: Any) -> None:
        self.report.records.append(
            AuditRecord(
                decision=decision,
                tick=self.tick,
                fence=self.fence,
                kernel=os.path.abspath(self.paths.kernel),
                dry_run=self.report.dry_run,
                **fields,
            )
        )

    def skip(self, reason: str) -> CommitReport:
        self.report.skipped = reason
        self.record("skipped", reason=reason)
        return self.report
