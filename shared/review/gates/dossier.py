"""dossier: the lighter review of entity and topic dossiers.

Dossiers may hold supporting facts, examples and provenance, but a line is rejected
when it carries internal runtime state (inbox items, locks, offsets, session keys),
a stale repair instruction (TODO, "fix this link", "needs merging"), a location pinned to
line numbers, a proposed fix, a guess, an impression offered as evidence or a benefit
phrase with nothing behind it (``DOSSIER_RULES``), an instruction
shaped like a broadcast gradient that lacks its direction, or its trigger when the
line does not name the entity either (outside Condition/Procedure-style sections,
where the section supplies the trigger; under a heading naming a domain the trigger may
be implicit in it, as on the board), or an
unsupported claim: an absolute or speculative assertion with neither a modal tag
(``[observation]``, ``[inference]`` ...) nor provenance (a pointer or a path).
"""

from __future__ import annotations

import re

from shared.language import lexicon
from shared.language.claims import (
    LABELLED_CODE_RE,
    MODAL_TAG_RE,
    Claim,
    find_trigger,
    labelled_setting,
    strip_label,
    words,
)
from shared.language.claims.vocabulary import ARTEFACT, IMPERATIVE
from shared.language.lexicon.script import CJK_RE
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.predicates import MISSING_TRIGGER, gradient_test
from shared.review.gates.rules import RULES

RULE_ID = "dossier"

# The runtime's state directory (var/...) is internal state in any language.
_INTERNAL_STATE = lexicon.matcher("internal_state", prefilter=True, neutral=r"\bvar/[\w./-]+")
_REPAIR = lexicon.matcher("repair_note", prefilter=True)
_ABSOLUTE = lexicon.matcher("absolute", prefilter=True, neutral="100%")
# A link or a dated citation is provenance in any language.
_PROVENANCE = lexicon.matcher("provenance", neutral=r"https?://|\(\s*\d{4}-\d{2}-\d{2}\s*\)")
_STEP_SECTION = lexicon.matcher("step_section")
_GENERIC_SECTION = lexicon.matcher("generic_section")
_ENTITY_REF = lexicon.matcher("entity_ref")
_INSTRUCTION_LEAD = lexicon.matcher("instruction_lead")
# "is a production-quality, modern Rust implementation", "早期干预价值明确": praise of
# the thing itself is a benefit claim.
_BENEFIT_CLAIM = lexicon.matcher("benefit_claim", prefilter=True)
# "This pattern improves testability", "SQLite handles concurrent users effectively": a
# design quality claimed for the thing with nothing that shows it.
_QUALITY_CLAIM = lexicon.matcher("quality_claim", prefilter=True)
# "Performance requirements", "Accessibility standards": a heading-like noun phrase with
# no content.
_PLACEHOLDER_NOUN = lexicon.matcher("placeholder_noun")
# "API endpoints enforce appropriate permission checks", "Natural language processing for
# pattern detection": a fit with no measure, a capability with nothing that does it named;
# a code span, a pointer, a path or a figure would say which.
_UNSPECIFIED_FIT = lexicon.matcher("unspecified_fit", prefilter=True)
_CAPABILITY = lexicon.matcher("capability_bullet")
_QUALITY_BULLET = lexicon.matcher("quality_bullet")
_BENEFIT_LABEL = lexicon.matcher("benefit_label")
_FIGURE_RE = re.compile(r"\d")
# "p95 dropped from 180 ms to 40 ms": a measured figure shows the quality praised.
_MEASUREMENT = lexicon.matcher("measurement")
_LEAD = " \t*_>#-–—•·"
# "Build output goes to …": the verb of a noun compound's subject
_FINITE_VERB = lexicon.words("compound_subject_verb", spaced=True)


def _finding(rule: str, shape: str = "") -> Finding:
    """The finding of rule ``<gate>.<rule>``, reached by ``shape`` (its record's words)."""
    return RULES[f"{RULE_ID}.{rule}"].finding(shape)


# ------------------------------------------------------------ dossier lines (issue #30)
# Each reading is one rule of the labelling guide's Dossier bullet: its id the finding's
# rule (``dossier.<slug>``), its words a lexicon concept, its examples (both ways, both
# languages) the pins in tests/review/pins/dossier.jsonl.
# "`orchestrator.py:244-249`", "(app/main.py:251)": a source file and a line, in any language
_LINE_PIN = lexicon.matcher(
    "line_pin",
    neutral=r"\b[\w/.-]+\.(?:py|pyi|js|jsx|mjs|ts|tsx|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|"
    r"php|mq4|mq5|groovy|scala|vue|svelte|sh|sql|lua|dart|ex|exs)`?\)?:\d+(?:-\d+)?\b",
)
_PROPOSED_FIX = lexicon.matcher("proposed_fix", prefilter=True)
_SPECULATION = lexicon.matcher("speculation", prefilter=True)
_IMPRESSION = lexicon.matcher("impression", prefilter=True)
_BENEFIT_PHRASE = lexicon.matcher("benefit_phrase", prefilter=True)
_UNSPACED_STOPS = lexicon.chars("punct:stop", spaced=False)
# The dossier readings in the order they are tried, by their ids' slugs (their words are
# their records in ``shared.review.gates.rules``)
DOSSIER_RULES: tuple[str, ...] = (
    "line-pinned-step",
    "proposed-fix",
    "speculation",
    "impression",
    "unsupported-claim",
)


def _dossier_rule(claim: Claim, supported: bool) -> str | None:
    """The id of the first dossier reading that rejects the line, or None. A modal tag, a
    pointer or provenance supports a guess, an impression or a benefit; a measured figure
    an impression or a benefit; a code span names what a benefit is incidental to."""
    text = claim.lower
    if _LINE_PIN.found(text):
        return "line-pinned-step"
    if _PROPOSED_FIX.found(text):
        return "proposed-fix"
    if supported:
        return None
    if _SPECULATION.found(text):
        return "speculation"
    if _MEASUREMENT.found(text):
        return None
    if _IMPRESSION.found(text):
        return "impression"
    # "Used in `lib/src/phy` for maximum performance": a benefit incidental to a fact the
    # line names in code
    if _BENEFIT_PHRASE.found(text) and "`" not in claim.raw:
        return "unsupported-claim"
    return None


def _praised_unshown(claim: Claim) -> bool:
    """A sentence that praises its subject, or claims a design quality for it, with no
    provenance of its own: a link in the sentence that names the thing ("… for the
    [OpenAlex API](https://…). It focuses on providing a powerful, … efficient way …")
    is no evidence for the next one's praise. A quality claim about a thing a code span
    names ("Indexes on `user_id` improve performance of …") is a concrete fact."""
    praise = _BENEFIT_CLAIM.found(claim.lower)
    if not praise and not _QUALITY_CLAIM.found(claim.lower):
        return False
    text = claim.raw
    for stop in _UNSPACED_STOPS:  # a full stop that needs no space is read as ". "
        text = text.replace(stop, ". ")
    for raw in text.split(". "):
        s = raw.lower()
        if _PROVENANCE.found(s) or _MEASUREMENT.found(s):
            continue
        if _BENEFIT_CLAIM.found(s) or ("`" not in raw and _QUALITY_CLAIM.found(s)):
            return True
    return False


def _instruction_shaped(claim: Claim) -> bool:
    """An ``[instruction]`` tag, or an untagged line led by an imperative or a modal.
    Lines tagged as observation / inference / hypothesis are statements, not orders."""
    if "[instruction]" in claim.tags:
        return True
    if claim.tags:
        return False
    if LABELLED_CODE_RE.match(claim.raw) or labelled_setting(claim):
        return False  # "Install: `uv sync`", "启动后端服务：`go run ./service`": a recorded command
    lead = claim.lower.lstrip(_LEAD)
    # The first word of the line, not the first Latin word of a line in another script.
    ws = [] if CJK_RE.match(lead) else words(lead)[:3]
    first = ws[0] if ws else ""
    # "Build output goes to `dist/`", "Test files live in `tests/`": a verb's form as the
    # first word of a noun compound, whose own verb follows it
    if len(ws) == 3 and ws[2] in _FINITE_VERB:
        return False
    return first in IMPERATIVE or _INSTRUCTION_LEAD.found(lead)


def _anchored(claim: Claim) -> bool:
    """Inside a dossier the entity itself is the trigger when the instruction names it:
    a pointer or path, a pronoun for the entity, or a proper noun after the first word."""
    if claim.has_pointer or claim.has_details:
        return True
    if _ENTITY_REF.found(claim.lower):
        return True
    return any(w[:1].isupper() for w in claim.text.split()[1:])


# "Development server", "Required system libraries", "Auto-update configuration": a
# heading-like name of a part of the setup, with nothing about it ("Docker deployment"
# names the tool, "Node 20 runtime" its version)
_SETUP_NOUN_RE = re.compile(lexicon.source("setup_noun_name"))


def _bare_setup_noun(raw: str) -> bool:
    found = _SETUP_NOUN_RE.match(raw.strip())
    if found is None:
        return False
    return not any(w in ARTEFACT for w in words(found["mods"].lower()))


def _situated(claim: Claim) -> bool:
    """The line names a concrete situation of its own (an explicit trigger)."""
    found = find_trigger(claim)
    return found is not None and found[1]


def check(claim: Claim, ctx: ReviewContext) -> Finding | None:
    """Reject a dossier line that fails the dossier rules (see module docstring)."""
    text = claim.lower
    raw = claim.raw.lower()
    if _INTERNAL_STATE.found(raw):
        return _finding("internal-runtime-state")
    if _REPAIR.found(raw):
        return _finding("stale-repair-instruction")
    tagged = bool(MODAL_TAG_RE.search(claim.raw))
    supported = tagged or claim.has_pointer or claim.has_details or _PROVENANCE.found(text)
    rule = _dossier_rule(claim, supported)
    if rule is not None:
        return _finding(rule)
    conditional = any(t.startswith("[conditional") for t in claim.tags)
    if _instruction_shaped(claim) and not conditional and not _STEP_SECTION.found(ctx.section):
        # under a heading that names a domain ("## Code Style", "## JWT Implementation")
        # the situation is implicit in it, as it is on the board; a generic heading
        # ("## Notes") names none
        domain = bool(ctx.section) and _GENERIC_SECTION.match(ctx.section) is None
        found = gradient_test(claim, require_activation=False, implicit_domain=domain)
        if found is MISSING_TRIGGER and _anchored(claim):
            found = None
        if found is not None:
            return found
    if _PLACEHOLDER_NOUN.match(claim.raw) or _bare_setup_noun(claim.raw):
        return _finding("unsupported-claim", "placeholder")
    if not (tagged or claim.has_pointer or claim.has_details) and _praised_unshown(claim):
        return _finding("unsupported-claim", "praise")
    concrete = supported or "`" in claim.raw or _FIGURE_RE.search(claim.raw) is not None
    if not concrete and _BENEFIT_LABEL.match(claim.text):
        return _finding("unsupported-claim", "benefit label")
    # "**API Quality:** Excellent REST API, well documented": a field whose value is praise
    if not concrete and (
        _QUALITY_BULLET.match(claim.raw) or _QUALITY_BULLET.match(strip_label(claim.raw))
    ):
        return _finding("unsupported-claim", "quality")
    if not concrete and (_UNSPECIFIED_FIT.found(text) or _CAPABILITY.match(claim.text)):
        return _finding("unsupported-claim", "fit")
    # "`load_dotenv` uses `override=True`, so `.env` values always win": an absolute about
    # named code states how it behaves; the code shown is what supports it
    # "**How to apply:** When invoking the CLI, always …": a rule with a situation of its
    # own says when the absolute holds
    if (
        not concrete
        and _ABSOLUTE.found(text)
        and not _instruction_shaped(claim)
        and not _situated(claim)
    ):
        return _finding("unsupported-claim", "absolute")
    return None
