"""What every review gate is: a rule id and a pure ``check`` returning a Finding."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from shared.language.claims import Claim
from shared.review.allowlist import FileKind

# What a diagnosis's id leaves out: a bracketed detail ("credential (AWS key)") and every
# run of characters that is not a lower-case letter or a digit.
_DETAIL_RE = re.compile(r"\s*\([^)]*\)")
_SLUG_GAP_RE = re.compile(r"[^a-z0-9]+")


def rule_id(gate: str, reason: str) -> str:
    """The stable id of the rule behind ``reason``: ``<gate>.<slug of the diagnosis>``
    (``"status-shape: pending work"`` -> ``status-shape.pending-work``, ``"secret:
    credential (JWT)"`` -> ``secret.credential``). A rule's wording is its id, so
    rewording a diagnosis renames its rule, and the pins that name it fail."""
    diagnosis = reason.removeprefix(f"{gate}:")
    slug = _SLUG_GAP_RE.sub("-", _DETAIL_RE.sub("", diagnosis).lower()).strip("-")
    return f"{gate}.{slug}"


@dataclass(frozen=True)
class Finding:
    """A rejected claim: ``reason`` is ``"<gate>: <diagnosis>"`` (the audit string),
    ``why`` the prose for the decision-log line, ``rule`` the id of the rule that decided
    (derived from ``reason`` by :func:`rule_id` unless given; its record is in
    ``shared.review.gates.rules``) and ``reading`` the name of the reading of the line
    the rule decided on, when the gate read the line more than one way ("as written",
    "as an item under its heading"; empty otherwise)."""

    gate: str
    reason: str
    why: str
    rule: str = ""
    reading: str = ""

    def __post_init__(self) -> None:
        if not self.rule:
            object.__setattr__(self, "rule", rule_id(self.gate, self.reason))


@dataclass(frozen=True)
class Decision:
    """A gate's verdict with how it was reached: ``finding`` (None: pass) and, for a line
    the gate passed only as another reading words it, ``passed`` (that reading's name,
    "without its label") and ``failed`` (the id of the rule the line as written failed),
    so a review can say which reading passed a line; both empty otherwise."""

    finding: Finding | None
    passed: str = ""
    failed: str = ""


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


class Decider(Protocol):
    """A gate that reads a line more than one way: ``decide`` returns its Decision."""

    def __call__(self, claim: Claim, ctx: ReviewContext) -> Decision: ...
