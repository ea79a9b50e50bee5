"""The rule catalog: one frozen record per review rule, the one place its words live.

A rule is what one finding id names (``<gate>.<slug>``, :func:`base.rule_id`): its gate,
its diagnosis (the audit string is ``"<gate>: <diagnosis>"``), the decision-log ``why``
(and, where one rule is reached by several shapes, the ``why`` of each shape), what it
reads (the lexicon concepts and predicates it asks for by name, never a regex), the
languages its examples cover and its examples. The gates build every finding from here
(``RULES[id].finding(...)``), so rewording a rule is an edit of its record, and a rule a
gate writes with no record fails ``tests/review/test_rules.py``.

The examples are the pins (``tests/review/pins/<gate>.jsonl``, :func:`examples`): a
reject row naming the rule, and an approve row whose ``near`` is the rule (a line of the
rule's shape it must pass). Every written rule has examples both ways in each language it
declares; the precedent judge's rules (``fitted``) are examples of the labelled corpus
instead, which the judge was fitted to.

To add a rule: its record here, its predicate in its gate (``RULES[id].finding()``), its
words in the lexicon, its examples in its gate's pins (docs/development.md).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from shared.language.lexicon.script import CJK_RE
from shared.review.gates.base import Finding, rule_id

# The languages an example can be in (a line holding a CJK character is ``zh``).
LANGUAGES = ("en", "zh")
BOTH = LANGUAGES
# The examples of a checkout; an installed package ships no tests, and has none.
PINS_DIR = Path(__file__).resolve().parents[3] / "tests" / "review" / "pins"


@dataclass(frozen=True)
class Rule:
    """One review rule. ``whys`` are ``(shape, why)`` pairs, the first the rule's own:
    the shape a gate names picks the decision-log prose of the way the rule was reached.
    ``matches`` names what the rule reads: a lexicon concept (``current_state``) or a
    predicate as ``<module>.<name>`` (``predicates.gradient_test``)."""

    gate: str
    diagnosis: str
    whys: tuple[tuple[str, str], ...]
    matches: tuple[str, ...]
    languages: tuple[str, ...] = BOTH
    fitted: bool = False  # the precedent judge's: examples are the labelled corpus
    slug: str = ""  # the id's slug, when not the diagnosis's

    @functools.cached_property
    def id(self) -> str:
        return f"{self.gate}.{self.slug}" if self.slug else rule_id(self.gate, self.reason)

    @functools.cached_property
    def _findings(self) -> dict[str, Finding]:
        """The finding of each shape, made once (a finding is immutable)."""
        return {shape: Finding(self.gate, self.reason, why, self.id) for shape, why in self.whys}

    @property
    def reason(self) -> str:
        """The audit string (a finding may add a bracketed detail: ``secret: credential
        (JWT)``)."""
        return f"{self.gate}: {self.diagnosis}"

    @property
    def why(self) -> str:
        return self.whys[0][1]

    @property
    def shapes(self) -> tuple[str, ...]:
        """The names of the shapes with a ``why`` of their own (the rule's own is "")."""
        return tuple(name for name, _ in self.whys)

    def why_of(self, shape: str) -> str:
        for name, why in self.whys:
            if name == shape:
                return why
        raise KeyError(f"{self.id} has no shape {shape!r}")

    def finding(self, shape: str = "", *, detail: str = "", **fields: object) -> Finding:
        """The finding of this rule, reached by ``shape`` (the rule's own ``why`` when
        empty); ``detail`` is added to the reason in brackets and, with ``fields``, fills
        the ``why``'s ``{detail}`` / ``{field}`` slots."""
        if not (detail or fields):
            if not shape:
                return self._findings[self.whys[0][0]]
            if shape in self._findings:
                return self._findings[shape]
            raise KeyError(f"{self.id} has no shape {shape!r}")
        why = (self.why_of(shape) if shape else self.why).format(detail=detail, **fields)
        reason = f"{self.reason} ({detail})" if detail else self.reason
        return Finding(self.gate, reason, why, self.id)


def _rules(*records: Rule) -> Mapping[str, Rule]:
    out: dict[str, Rule] = {}
    for record in records:
        if record.id in out:
            raise ValueError(f"rule {record.id} is recorded twice")
        out[record.id] = record
    return MappingProxyType(out)


def _one(why: str) -> tuple[tuple[str, str], ...]:
    return (("", why),)


PRECEDENT = "precedent"
_PRECEDENT_WHY = (
    "the precedent judge, fitted to {rows} labelled real memory lines, puts this line with "
    "rejected ones (p={p:.2f}), nearest the {gate} rejects; strongest cues: {cues}"
)
# The gates the precedent judge may reject a line under (``second_opinion``): the board's
# and, for dossier and topic lines, the dossier gate.
_JUDGED_GATES = (
    "status-shape",
    "inner-outer",
    "self-reference",
    "summoning",
    "gradient",
    "dossier",
)

RULES: Mapping[str, Rule] = _rules(
    # ---------------------------------------------------------------- secret
    Rule(
        "secret",
        "credential",
        _one(
            "the line holds a credential ({detail}); memory never keeps one, and its value "
            "is not quoted here"
        ),
        ("redaction.redact",),
    ),
    # ---------------------------------------------------------------- status-shape
    Rule(
        "status-shape",
        "run state",
        _one("the line reports tick, queue or run state rather than future behavior"),
        ("run_state",),
    ),
    Rule(
        "status-shape",
        "work item",
        (
            ("checkbox", "the line is a to-do or done item rather than durable behavior"),
            (
                "status section",
                "the line is an entry of a section recording the state of the work (its "
                "heading), not durable behavior",
            ),
            (
                "dossier",
                "the line is an entry of a section recording the state of the work (its "
                "heading), not a fact",
            ),
        ),
        ("status_section", "work_section", "standing_fact", "status_shape._status_entry"),
    ),
    Rule(
        "status-shape",
        "event recap",
        (
            ("", "the line records an event recap rather than a future-facing trigger"),
            (
                "dated section",
                "the line is an entry of a dated record (its heading opens with a date) and "
                "directs nothing of its own",
            ),
        ),
        (
            "recap_marker",
            "dated_lead",
            "changelog",
            "change_lead",
            "change_in_effect",
            "narrative_verb",
            "past_verb",
            "past_marker",
            "time_anchor",
            "status_shape._dated_entry",
        ),
    ),
    Rule(
        "status-shape",
        "current state",
        (
            (
                "",
                "the line reports present state or open deliberation rather than future behavior",
            ),
            ("measured", "the line reads out a present measurement or version, not behavior"),
            ("state reached", "the line reports a state reached, not future behavior"),
        ),
        (
            "current_state",
            "version_label",
            "state_reached",
            "status_word",
            "open_proposal",
            "open_question",
            "open_contingency",
        ),
    ),
    Rule(
        "status-shape",
        "dated summary",
        _one("the line records a date or a bookkeeping field, not future behavior"),
        ("field_label", "date"),
    ),
    Rule(
        "status-shape",
        "plan",
        (
            ("", "the line records planned or one-off work, not behavior"),
            ("hint", "the line records planned work, not behavior"),
            ("dossier", "the line records planned or undecided work, not a fact"),
        ),
        ("plan_marker", "plan_hint", "plan_step", "open_choice"),
    ),
    Rule(
        "status-shape",
        "occurrence count",
        _one("the line tallies occurrences rather than directing behavior"),
        ("occurrence_count",),
    ),
    Rule(
        "status-shape",
        "pending work",
        _one("the line records work still to do, not a fact"),
        ("pending_work",),
    ),
    Rule(
        "status-shape",
        "open deliberation",
        _one("the line records a choice still open, not a fact"),
        ("deliberation", "open_contingency", "open_question"),
    ),
    Rule(
        "status-shape",
        "update stamp",
        _one("the line stamps when the file was written, not a fact of the entity"),
        ("update_stamp",),
    ),
    Rule(
        "status-shape",
        "work state",
        _one("the line reports where the work stands now, not a fact"),
        ("status_field", "work_state", "state_reached", "status_word"),
    ),
    Rule(
        "status-shape",
        "progress tally",
        _one("the line reads a count off the work as it stands, not a fact"),
        ("progress_tally", "version_label", "limit_mark"),
    ),
    Rule(
        "status-shape",
        "change-log recap",
        _one("the line reports a change made, not a fact"),
        ("change_recap", "settled_label", "setup_value"),
    ),
    Rule(
        "status-shape",
        "incident report",
        _one("the line reports what went wrong once, not a fact"),
        ("incident_field", "incident_story", "recap_marker"),
    ),
    # ---------------------------------------------------------------- inner-outer
    Rule(
        "inner-outer",
        "internal source only",
        (
            ("", "the line rests only on internal runtime output, not on an external signal"),
            (
                "cadence",
                "the line is a rule of the runtime's own heartbeat cadence, not of an "
                "external interaction",
            ),
        ),
        (
            "internal_source",
            "external_ground",
            "heartbeat",
            "schedule",
            "sweep_target",
            "check_lead",
            "notify_routine",
            "inner_outer._cadence_rule",
            "inner_outer._cadence_section",
        ),
    ),
    # ---------------------------------------------------------------- self-reference
    Rule(
        "self-reference",
        "memory-maintenance line",
        _one(
            "the line describes memory maintenance rather than behavior in an external interaction"
        ),
        (
            "memory_artefact",
            "memory_section",
            "upkeep_section",
            "follow_own_rules",
            "self_edit",
            "purpose_label",
            "record_lead",
            "knowledge_kind",
            "record_verb",
            "ranking",
            "file_anaphor",
            "predicates.memory_maintenance",
            "self_reference._project_code",
        ),
    ),
    # ---------------------------------------------------------------- summoning
    Rule(
        "summoning",
        "ghost of maintenance history",
        _one("the negated rule points back at a past incident instead of a live trigger"),
        ("negation", "ghost"),
    ),
    Rule(
        "summoning",
        "no recognizable trigger",
        _one("the negated rule names no situation in which the drift would happen"),
        ("negation", "prohibition_form", "claims.trigger_clause", "summoning._replacements"),
    ),
    Rule(
        "summoning",
        "no replacement action",
        _one("the negated rule forbids a behavior without saying what to do instead"),
        ("negation", "prohibition_form", "replacement", "summoning._replacements"),
    ),
    # ---------------------------------------------------------------- gradient
    Rule(
        "gradient",
        "missing concrete trigger",
        _one("the line names no recognizable situation that would activate it in the next session"),
        ("claims.find_trigger", "claims.domain_concrete", "predicates.gradient_test"),
    ),
    Rule(
        "gradient",
        "no action direction",
        _one("the line gives no concrete direction for the next action"),
        (
            "claims.direction_clauses",
            "claims.normative_clauses",
            "persona",
            "description_lead",
            "goal_label",
        ),
    ),
    Rule(
        "gradient",
        "missing skill or pointer activation",
        _one(
            "the line's action is neither self-contained nor backed by a [[slug]] or Details: "
            "pointer"
        ),
        ("claims.is_vague", "claims.unnamed_skill", "list_opener", "predicates.gradient_test"),
    ),
    Rule(
        "gradient",
        "generic maxim",
        _one(
            "the line states a maxim any assistant could be told, with nothing of this "
            "project's to act on"
        ),
        ("generic_maxim", "gradient._generic_maxim"),
    ),
    # ---------------------------------------------------------------- dossier
    Rule(
        "dossier",
        "internal runtime state",
        _one("the line records internal runtime state rather than the entity's world"),
        ("internal_state",),
    ),
    Rule(
        "dossier",
        "stale repair instruction",
        _one("the line is a repair instruction for the memory files, not a durable fact"),
        ("repair_note",),
    ),
    Rule(
        "dossier",
        "line-pinned step",
        _one("the line pins a repair or a location to line numbers, stale at the next edit"),
        ("line_pin",),
    ),
    Rule(
        "dossier",
        "proposed fix",
        _one("the line proposes a fix or an improvement, not a fact"),
        ("proposed_fix",),
    ),
    Rule(
        "dossier",
        "speculation",
        _one("the line guesses, with no modal tag or provenance"),
        ("speculation", "provenance"),
    ),
    Rule(
        "dossier",
        "impression",
        _one("the line offers an impression as evidence, with nothing measured"),
        ("impression", "measurement", "provenance"),
    ),
    Rule(
        "dossier",
        "unsupported claim",
        (
            ("", "the line claims a benefit and shows nothing of it"),
            ("placeholder", "the line is a heading-like placeholder with no content"),
            ("praise", "the line praises its subject with no evidence or provenance"),
            ("benefit label", "the line is filed as a benefit and shows nothing of it"),
            ("quality", "the line names a quality and shows nothing that has it"),
            ("fit", "the line claims a fit or a capability and says nothing of which"),
            (
                "absolute",
                "the line asserts an absolute or speculative claim with no modal tag or provenance",
            ),
        ),
        (
            "benefit_phrase",
            "benefit_claim",
            "quality_claim",
            "placeholder_noun",
            "benefit_label",
            "quality_bullet",
            "unspecified_fit",
            "capability_bullet",
            "absolute",
            "provenance",
            "measurement",
            "dossier._situated",
        ),
    ),
    # ---------------------------------------------------------------- the precedent judge
    *(
        Rule(
            gate,
            f"reads like labelled {gate} rejects",
            _one(_PRECEDENT_WHY),
            ("precedent.model",),
            languages=(),
            fitted=True,
            slug=PRECEDENT,
        )
        for gate in _JUDGED_GATES
    ),
)


def rule(gate: str, diagnosis: str) -> Rule:
    """The record of ``gate``'s rule ``diagnosis`` (KeyError: not catalogued)."""
    return RULES[rule_id(gate, f"{gate}: {diagnosis}")]


def precedent(gate: str) -> Rule:
    """The precedent judge's rule of rejecting a line under ``gate``."""
    return RULES[f"{gate}.{PRECEDENT}"]


@dataclass(frozen=True)
class Example:
    """One pin: a line the rule decides (``reject``) or must pass (``approve``)."""

    text: str
    kind: str
    section: str
    expected: str
    where: str  # "<gate>.jsonl:<line>"
    headings: tuple[str, ...] = ()

    @property
    def language(self) -> str:
        return "zh" if CJK_RE.search(self.text) else "en"


@dataclass(frozen=True)
class Examples:
    reject: tuple[Example, ...] = ()
    approve: tuple[Example, ...] = ()

    def languages(self, expected: str) -> set[str]:
        return {e.language for e in (self.reject if expected == "reject" else self.approve)}


def _pin_rows(pins: Path) -> Iterable[tuple[str, dict[str, object]]]:
    for path in sorted(pins.glob("*.jsonl")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if line.strip():
                yield f"{path.name}:{number}", json.loads(line)


@functools.cache
def examples(pins: Path = PINS_DIR) -> Mapping[str, Examples]:
    """Each rule's examples: the reject pins naming it and the approve pins ``near`` it
    (empty when ``pins`` is absent, as in an installed package)."""
    rejects: dict[str, list[Example]] = {}
    approves: dict[str, list[Example]] = {}
    if pins.is_dir():
        for where, row in _pin_rows(pins):
            expected = str(row["expected"])
            named = row.get("rule") if expected == "reject" else row.get("near")
            if not named:
                continue
            headings = row.get("headings") or ()
            assert isinstance(headings, (list, tuple))
            example = Example(
                str(row["text"]),
                str(row["kind"]),
                str(row["section"]),
                expected,
                where,
                tuple(map(str, headings)),
            )
            (rejects if expected == "reject" else approves).setdefault(str(named), []).append(
                example
            )
    return MappingProxyType(
        {
            rid: Examples(tuple(rejects.get(rid, ())), tuple(approves.get(rid, ())))
            for rid in sorted(set(RULES) | set(rejects) | set(approves))
        }
    )
