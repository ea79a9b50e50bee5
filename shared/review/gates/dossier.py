"""dossier: the lighter review of entity and topic dossiers.

Dossiers may hold supporting facts, examples and provenance, but a line is rejected
when it carries internal runtime state (inbox items, locks, offsets, session keys),
a stale repair instruction (TODO, "fix this link", "needs merging"), an instruction
shaped like a broadcast gradient that lacks its direction, or its trigger when the
line does not name the entity either (outside Condition/Procedure-style sections,
where the section supplies the trigger), or an
unsupported claim: an absolute or speculative assertion with neither a modal tag
(``[observation]``, ``[inference]`` ...) nor provenance (a pointer or a path).
"""

from __future__ import annotations

from shared.language import lexicon
from shared.language.claims import MODAL_TAG_RE, Claim, words
from shared.review.gates import gradient
from shared.review.gates.base import Finding, ReviewContext

RULE_ID = "dossier"
_IMPERATIVE = lexicon.words("imperative", spaced=True)

# The runtime's state directory (var/...) is internal state in any language.
_INTERNAL_STATE = lexicon.matcher("internal_state", prefilter=True, neutral=r"\bvar/[\w./-]+")
_REPAIR = lexicon.matcher("repair_note", prefilter=True)
_ABSOLUTE = lexicon.matcher("absolute", prefilter=True, neutral="100%")
# A link or a dated citation is provenance in any language.
_PROVENANCE = lexicon.matcher("provenance", neutral=r"https?://|\(\s*\d{4}-\d{2}-\d{2}\s*\)")
_STEP_SECTION = lexicon.matcher("step_section")
_ENTITY_REF = lexicon.matcher("entity_ref")
_INSTRUCTION_LEAD = lexicon.matcher("instruction_lead")


def _finding(reason: str, why: str) -> Finding:
    return Finding(RULE_ID, f"{RULE_ID}: {reason}", why)


def _instruction_shaped(claim: Claim) -> bool:
    """An ``[instruction]`` tag, or an untagged line led by an imperative or a modal.
    Lines tagged as observation / inference / hypothesis are statements, not orders."""
    if "[instruction]" in claim.tags:
        return True
    if claim.tags:
        return False
    first = next(iter(words(claim.lower)), "")
    return first in _IMPERATIVE or _INSTRUCTION_LEAD.found(claim.lower)


def _anchored(claim: Claim) -> bool:
    """Inside a dossier the entity itself is the trigger when the instruction names it:
    a pointer or path, a pronoun for the entity, or a proper noun after the first word."""
    if claim.has_pointer or claim.has_details:
        return True
    if _ENTITY_REF.found(claim.lower):
        return True
    return any(w[:1].isupper() for w in claim.text.split()[1:])


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject a dossier line that fails the dossier rules (see module docstring)."""
    text = claim.lower
    raw = claim.raw.lower()
    if _INTERNAL_STATE.found(raw):
        return _finding(
            "internal runtime state",
            "the line records internal runtime state rather than the entity's world",
        )
    if _REPAIR.found(raw):
        return _finding(
            "stale repair instruction",
            "the line is a repair instruction for the memory files, not a durable fact",
        )
    conditional = any(t.startswith("[conditional") for t in claim.tags)
    if _instruction_shaped(claim) and not conditional and not _STEP_SECTION.found(ctx.section):
        found = gradient.judge(claim, require_activation=False, implicit_domain=False)
        if found is gradient.MISSING_TRIGGER and _anchored(claim):
            found = None
        if found is not None:
            return found
    tagged = bool(MODAL_TAG_RE.search(claim.raw))
    supported = tagged or claim.has_pointer or claim.has_details or _PROVENANCE.found(text)
    if not supported and _ABSOLUTE.found(text) and not _instruction_shaped(claim):
        return _finding(
            "unsupported claim",
            "the line asserts an absolute or speculative claim with no modal tag or provenance",
        )
    return None
