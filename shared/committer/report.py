"""The outcome of one committer wake: final response text, JSON, audit records."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from shared.committer.audit import AuditRecord
from shared.jsontext import shown
from shared.kernel.paths import KernelPaths
from shared.review.reviewer import LineDecision

NO_NEW_GRADIENT = "NO_NEW_GRADIENT"


class SkipKind(StrEnum):
    """Why a wake committed nothing, grouped by the CLI exit code it maps to."""

    NOTHING = "nothing"  # no allowlisted changes, or every change held back: exit 0
    NOT_A_REPO = "not_a_repo"  # the kernel is not its own git repository: exit 2
    GIT_BUSY = "git_busy"  # index.lock, a merge/rebase, HEAD moved, git failed: exit 3
    LOCK = "lock"  # the kernel lock is held, lost or unreachable: exit 3

    @property
    def exit_code(self) -> int:
        return {"nothing": 0, "not_a_repo": 2}.get(self.value, 3)


@dataclass(frozen=True)
class Hold:
    """A file (and line) a wake held back, for the dry run's "would hold back" lines."""

    file: str
    line: int | None
    reason: str


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
    skip_kind: SkipKind | None = None
    holds: list[Hold] = field(default_factory=list)
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
        if self.dry_run:
            held = [
                f"would hold back {shown(h.file)}"
                + (f":{h.line}" if h.line else "")
                + f" ({h.reason})"
                for h in self.holds
            ]
            return "\n".join([head, *held])
        return "\n".join([head, *(d.log_line() for d in self.rejected)])

    @property
    def why(self) -> str | None:
        """The reason line shown under ``NO_NEW_GRADIENT`` (None after a commit)."""
        if self.outcome == "committed":
            return None
        if self.skipped:
            return f"skipped: {self.skipped}"
        if self.holds:
            return f"nothing committed: {len(self.holds)} held back"
        return None

    @property
    def human(self) -> str:
        """``text`` with the reason as its second line (the CLI's output)."""
        lines = self.text.split("\n")
        if self.why and not self.dry_run:
            lines.insert(1, self.why)
        elif self.dry_run and self.outcome != "committed" and not self.files:
            lines[0] = "Dry run: nothing would be committed" + (
                f" ({self.skipped})" if self.skipped else ""
            )
        return "\n".join(lines)

    @property
    def exit_code(self) -> int:
        """The CLI exit code of this wake (docs/commands.md)."""
        return self.skip_kind.exit_code if self.skip_kind is not None else 0

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
            "skip_kind": self.skip_kind.value if self.skip_kind is not None else None,
            "why": self.why,
            "holds": [{"file": h.file, "line": h.line, "reason": h.reason} for h in self.holds],
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
        # Blobs staged for files held back because they hold a credential: deleted from
        # the object store once the wake is done with its index.
        self.secret_blobs: list[str] = []
        # A commit made for a tick leaves the playlist out when an earlier commit of the
        # same tick carried it (shared.committer.playlist_once).
        self.playlist_once_per_tick = False

    def record(self, decision: str, **fields: Any) -> None:
        if decision == "held":
            self.report.holds.append(
                Hold(str(fields.get("file")), fields.get("line"), str(fields.get("reason")))
            )
        if self.report.dry_run:
            return  # a dry run decides nothing: it writes and reports no audit record
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

    def skip(self, reason: str, kind: SkipKind) -> CommitReport:
        self.report.skipped = reason
        self.report.skip_kind = kind
        self.record("skipped", reason=reason)
        return self.report
