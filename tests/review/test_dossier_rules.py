"""The dossier rules (issue #30): each rule's examples, both ways and in both languages.

``tests/review/pins/dossier.jsonl`` holds one invented line per row (``text``, ``kind``,
``section``, ``expected``, ``rule``): a reject must be rejected by exactly that rule (the
finding's reason is its id), an approve must pass every gate although it sits near that
rule's shape. Real lines are measured by ``bench/quality.py``; these pin what each rule
means, so a change that drifts a rule fails here first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.language.lexicon.script import CJK_RE
from shared.review.allowlist import FileKind
from shared.review.gates import dossier, status_shape
from shared.review.gates.base import ReviewContext
from shared.review.gates.registry import review_rules

PINS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (Path(__file__).parent / "pins" / "dossier.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]
# Every dossier rule, as the reason its finding carries.
RULE_IDS = (
    {f"{status_shape.RULE_ID}: {rule}" for rule in status_shape.DOSSIER_RULES}
    | {f"{dossier.RULE_ID}: {rule}" for rule in dossier.DOSSIER_RULES}
    | {"self-reference: memory-maintenance line"}
)


def _context(pin: dict[str, Any]) -> ReviewContext:
    kind = FileKind.TOPIC if pin["kind"] == "topic" else FileKind.DOSSIER
    section = pin["section"]
    return ReviewContext("memory/topics/x.md", kind, section, (section,) if section else ())


@pytest.mark.parametrize("pin", PINS, ids=[f"{p['expected']}-{p['text'][:40]}" for p in PINS])
def test_dossier_pin(pin: dict[str, Any]) -> None:
    finding = review_rules(pin["text"], _context(pin))
    if pin["expected"] == "reject":
        assert finding is not None and finding.reason == pin["rule"], finding
    else:
        assert finding is None, finding


def test_every_dossier_rule_has_examples_both_ways_in_both_languages() -> None:
    assert {p["rule"] for p in PINS} == RULE_IDS
    for rule in RULE_IDS:
        for expected in ("reject", "approve"):
            texts = [p["text"] for p in PINS if p["rule"] == rule and p["expected"] == expected]
            assert any(CJK_RE.search(t) for t in texts), (rule, expected, "Chinese")
            assert any(not CJK_RE.search(t) for t in texts), (rule, expected, "English")


def test_every_dossier_rule_says_why() -> None:
    for rules in (status_shape.DOSSIER_RULES, dossier.DOSSIER_RULES):
        for rule, why in rules.items():
            assert rule == rule.strip() and why.startswith("the line ") and not why.endswith(".")
