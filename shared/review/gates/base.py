"""What every review gate is: a rule id and a pure ``check`` returning a Finding."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from shared.language.claims import Claim
from shared.review.allowlist import FileKind


@dataclass(frozen=True)
class Finding:
    """A rejected claim: ``reason`` is ``"<gate>: <diagnosis>"`` (the audit string),
    ``why`` the prose for the decision-log line."""

    gate: str
    reason: str
    why: str


@dataclass(frozen=True)
class ReviewContext:
    """Where the claim sits: repo-relative path, file kind, nearest heading and the trail
    of headings above it (outermost first; its last is ``section``).

    Gates must not depend on ``path``: verdicts are memoised per (text, kind, section,
    headings).
    """

    path: str
    kind: FileKind
    section: str = ""
    headings: tuple[str, ...] = ()

    @property
    def trail(self) -> tuple[str, ...]:
        """The headings above the claim, outermost first (the nearest alone when only it is
        known)."""
        return self.headings or ((self.section,) if self.section else ())


class Gate(Protocol):
    """A review gate: ``check`` returns a Finding to reject, None to pass."""

    def __call__(self, claim: Claim, ctx: ReviewContext) -> Finding | None: ...
