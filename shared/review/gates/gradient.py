"""gradient: a broadcast line needs a trigger, a direction and an activation.

* trigger — a recognisable situation: "when/if/before/after/whenever/once ...",
  a leading scope ("With <Person>, ...", "For deploy questions, ..."), or
  每当/当/如果/遇到/...时; generic situations ("when answering questions", "if
  needed") do not count. On the board the situation may be implicit in the line's
  own domain when its direction acts on a concrete artefact ("Prefer pnpm over npm
  for installs", "Use parameterized SQL queries only"); the test is structural
  (``lexicon.domain_concrete``): a code span, path or identifier; an artefact word
  (English or Chinese); a product or tool name; a labelled value ("Package manager:
  yarn", "主要语言：中文") or a line of short settings ("**Indent**: 4 spaces.",
  "**Linter:** ruff | **Tests:** pytest"); a "use/prefer X for/over Y" choice; a verbless convention
  ("Tabs for indentation"); a numeric limit; or an imperative acting on a thing rather
  than on a quality, an abstraction or a person ("Write clean code", "简单优先",
  "请询问我" name none);
* direction — a clause, other than the trigger, led by an imperative verb or a modal
  of obligation (should/must/always/never ...; 应该/先/要/不要/直接 ...);
* activation — a ``[[slug]]`` pointer, a ``Details: <path>``, or a self-contained
  action: a concrete verb with an object, not a vague one ("be careful", "use
  judgment"), not hedged ("where appropriate", "合理使用"), not only a quality of a bare
  artefact ("Write descriptive commit messages") and not an unnamed procedure ("follow
  the usual checklist").
"""

from __future__ import annotations

from shared.language.claims import (
    Claim,
    direction_clauses,
    domain_concrete,
    find_trigger,
    is_vague,
    normative_clauses,
    object_follows,
    unnamed_skill,
)
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "gradient"

MISSING_TRIGGER = Finding(
    RULE_ID,
    f"{RULE_ID}: missing concrete trigger",
    "the line names no recognizable situation that would activate it in the next session",
)
NO_DIRECTION = Finding(
    RULE_ID,
    f"{RULE_ID}: no action direction",
    "the line gives no concrete direction for the next action",
)
NO_ACTIVATION = Finding(
    RULE_ID,
    f"{RULE_ID}: missing skill or pointer activation",
    "the line's action is neither self-contained nor backed by a [[slug]] or Details: pointer",
)


def judge(
    claim: Claim, *, require_activation: bool = True, implicit_domain: bool = True
) -> Finding | None:
    """The three-part gradient test on one claim; None when it passes.

    With ``implicit_domain`` a line without a concrete explicit trigger still has one
    when its direction acts on a concrete artefact: the situation is implicit in the
    line's own domain ("Prefer pnpm over npm for installs").
    """
    found = find_trigger(claim)
    trig = None if found is None else found[0]
    directions = direction_clauses(claim, trig)
    if implicit_domain and not directions:
        directions = normative_clauses(claim)
    concrete = found is not None and found[1]
    if not concrete and not (implicit_domain and directions and domain_concrete(claim, directions)):
        return MISSING_TRIGGER
    if not directions:
        return NO_DIRECTION
    if not require_activation or claim.has_pointer or claim.has_details:
        return None
    if unnamed_skill(claim, trig):
        return NO_ACTIVATION
    last, cue = directions[-1]
    if last == len(claim.clauses) - 1 and object_follows(claim.raw, claim.clauses[last], cue):
        return None  # "Before committing, run:": the object is the list below
    if all(is_vague(claim.clauses[idx], cue) for idx, cue in directions):
        return NO_ACTIVATION
    return None


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject a board line that fails the gradient test (see module docstring)."""
    return judge(claim)
