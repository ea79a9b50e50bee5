"""The gate registry: rule id -> gate, the gate set of each file kind, and the review
that runs a set over one line.

Each gate is a module with ``RULE_ID`` and a pure ``check(claim, ctx) -> Finding | None``.
Adding a gate means adding one module and one registry line here. Gate sets (first
rejecting gate wins, so the more specific diagnosis comes first):

* board (``memory/CLAUDE.md``): status-shape, inner-outer, self-reference, summoning,
  gradient;
* dossiers (``memory/entities/**``, ``memory/topics/**``): status-shape (its dossier
  rules: run state, pending work, recaps, not dated provenance), inner-outer, dossier,
  self-reference;
* partition prompts and config descriptors: status-shape (run state only). Prompts
  are *about* the memory system and internal kinds, so self-reference and
  inner-outer would reject their whole purpose; a prompt still must not carry run
  logs;
* playlist: none but the secret gate (its format is code-owned and validated by its
  parser).

Every set starts with ``secret``: a line holding a credential is rejected in any
allowlisted file, and its value is never quoted.

On board lines (and on entity dossiers, were the model to name a dossier threshold; the
shipped one names none) the precedent judge (``second_opinion``, fitted to labelled real
lines) has the last word where it is sure; ``review_rules`` is the written gates alone.
"""

from __future__ import annotations

import functools

from shared.language.claims import analyse
from shared.review.allowlist import FileKind
from shared.review.gates import (
    dossier,
    gradient,
    inner_outer,
    secret,
    self_reference,
    status_shape,
    summoning,
)
from shared.review.gates.base import Decider, Decision, Finding, Gate, ReviewContext
from shared.review.gates.second_opinion import Ruling, second_opinion
from shared.review.precedent.model import shipped

GATES: dict[str, Gate] = {
    secret.RULE_ID: secret.check,
    status_shape.RULE_ID: status_shape.check,
    inner_outer.RULE_ID: inner_outer.check,
    self_reference.RULE_ID: self_reference.check,
    summoning.RULE_ID: summoning.check,
    gradient.RULE_ID: gradient.check,
    dossier.RULE_ID: dossier.check,
}

# Gates that read a line more than one way say which reading passed it.
DECIDERS: dict[str, Decider] = {gradient.RULE_ID: gradient.decide}

# The secret gate comes first in every set: a credential is the one reject no other
# diagnosis may hide, and the precedent judge never passes it.
_DOSSIER_SET = ("secret", "status-shape", "inner-outer", "dossier", "self-reference")
GATE_SETS: dict[FileKind, tuple[str, ...]] = {
    FileKind.BOARD: (
        "secret",
        "status-shape",
        "inner-outer",
        "self-reference",
        "summoning",
        "gradient",
    ),
    FileKind.DOSSIER: _DOSSIER_SET,
    FileKind.TOPIC: _DOSSIER_SET,
    FileKind.PROMPT: ("secret", "status-shape"),
    FileKind.CONFIG: ("secret", "status-shape"),
    FileKind.PLAYLIST: ("secret",),
}


def review_claim(text: str, ctx: ReviewContext) -> Finding | None:
    """Run the gate set of ``ctx.kind`` over one logical line; the first finding wins,
    and the precedent judge has the last word where it is sure (``second_opinion``)."""
    return review_ruling(text, ctx).finding


def review_ruling(text: str, ctx: ReviewContext) -> Ruling:
    """The final verdict on one logical line, with the rule finding the precedent judge
    overruled, if it did.

    Gates are pure functions of (text, kind, section, headings), so verdicts are memoised:
    dossiers and boards repeat many lines across files and wakes.
    """
    return _ruling_cached(text, ctx.kind, ctx.section, ctx.headings)


def review_rules(text: str, ctx: ReviewContext) -> Finding | None:
    """The written rules' verdict alone, before the precedent judge's second opinion."""
    return _rules_cached(text, ctx.kind, ctx.section, ctx.headings).finding


def review_decision(text: str, ctx: ReviewContext) -> Decision:
    """The written rules' verdict with the reading that passed the line, when a gate
    passed it only as another reading words it (see :class:`Decision`)."""
    return _rules_cached(text, ctx.kind, ctx.section, ctx.headings)


@functools.lru_cache(maxsize=65536)
def _ruling_cached(text: str, kind: FileKind, section: str, headings: tuple[str, ...]) -> Ruling:
    finding = _rules_cached(text, kind, section, headings).finding
    return second_opinion(text, kind, section, GATE_SETS[kind], finding, shipped())


@functools.lru_cache(maxsize=65536)
def _rules_cached(text: str, kind: FileKind, section: str, headings: tuple[str, ...]) -> Decision:
    claim = analyse(text)
    ctx = ReviewContext("", kind, section, headings)
    passed = Decision(None)
    for rule_id in GATE_SETS[kind]:
        decider = DECIDERS.get(rule_id)
        decision = decider(claim, ctx) if decider else Decision(GATES[rule_id](claim, ctx))
        if decision.finding is not None:
            return decision
        if decision.passed:
            passed = decision
    return passed
