"""The dossier rules (issue #30): each rule's examples, both ways and in both languages.

The examples are pins of kind ``dossier`` or ``topic`` in the files of their gates
(``tests/review/pins/status-shape.jsonl``, ``dossier.jsonl``, ``self-reference.jsonl``;
each row checked by ``tests/review/test_pins.py``): a reject names the rule that must
reject it, an approve the rule whose shape it sits near (``near``) and must pass every
gate. Real lines are measured by ``bench/quality.py``; these pin what each rule means,
so a change that drifts a rule fails first at its row, and a rule with no example of a
kind or a language fails here.
"""

from __future__ import annotations

from shared.language.lexicon.script import CJK_RE
from shared.review.allowlist import FileKind
from shared.review.gates import dossier, self_reference, status_shape
from shared.review.gates.rules import RULES
from tests.review.pinfile import PINS

# Every dossier rule, by the id its finding carries.
RULE_IDS = (
    {f"{status_shape.RULE_ID}.{rule}" for rule in status_shape.DOSSIER_RULES}
    | {f"{dossier.RULE_ID}.{rule}" for rule in dossier.DOSSIER_RULES}
    | {f"{self_reference.RULE_ID}.memory-maintenance-line"}
)
DOSSIER_PINS = [p for p in PINS if p.kind in (FileKind.DOSSIER, FileKind.TOPIC)]


def test_every_dossier_rule_has_examples_both_ways_in_both_languages() -> None:
    for rule in sorted(RULE_IDS):
        for expected in ("reject", "approve"):
            texts = [
                p.text
                for p in DOSSIER_PINS
                if p.expected == expected and (p.rule if expected == "reject" else p.near) == rule
            ]
            assert any(CJK_RE.search(t) for t in texts), (rule, expected, "Chinese")
            assert any(not CJK_RE.search(t) for t in texts), (rule, expected, "English")


def test_every_dossier_rule_says_why() -> None:
    for rule in sorted(RULE_IDS):
        for _shape, why in RULES[rule].whys:
            assert why.startswith("the line ") and not why.endswith("."), rule
