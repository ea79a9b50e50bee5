"""Every gate's pins (``tests/review/pins/<gate>.jsonl``, see ``tests/review/pinfile.py``):
each row's line is decided by the written rules (``review_rules``, no precedent judge) as
the row says, a reject by exactly the rule it names.

Invented lines, never corpus rows: real lines are measured by ``bench/quality.py``; these
pin what each rule means, with the near misses that must keep their decision, so a change
that drifts a rule fails here first, at the row that names it. Cases are named
``<gate>.jsonl:<line>``: ``pytest tests/review/test_pins.py -k gradient`` runs one gate's.
"""

from __future__ import annotations

from collections import Counter

import pytest

from shared.language.lexicon.script import CJK_RE
from shared.review.allowlist import FileKind
from shared.review.gates.registry import GATES, review_rules
from tests.review.gatescan import written_rule_ids
from tests.review.pinfile import KEYS, OPTIONAL, PINS, Pin, pin_files

# 1,497 pin checks lived in test_gates.py's round-named lists, labelled_lines.jsonl and
# pins/dossier.jsonl before they became one file per gate (13 of them exact repeats); a
# file lost or cut short fails here.
MINIMUM = 1508


@pytest.mark.parametrize("pin", PINS, ids=[f"{p.where}-{p.rule or 'approve'}" for p in PINS])
def test_pin(pin: Pin) -> None:
    finding = review_rules(pin.text, pin.context)
    got = ("reject", finding.rule) if finding else ("approve", None)
    assert got == (pin.expected, pin.rule), (
        f"{pin.where}: {pin.text!r} under {pin.context.trail or 'no heading'} "
        f"({pin.kind.value}): want {pin.expected} {pin.rule or ''}, got "
        + (f"`{finding.reason}` ({finding.why})" if finding else "approve")
    )
    if finding is not None:
        assert finding.reason.startswith(finding.gate + ": "), finding
        assert finding.rule.startswith(finding.gate + "."), finding
        assert finding.why and not finding.why.endswith("."), finding


def test_every_gate_has_its_pin_file_and_no_file_names_another() -> None:
    assert {p.stem for p in pin_files()} == set(GATES)


def test_rows_are_well_formed() -> None:
    for pin in PINS:
        row = pin.row
        assert set(KEYS) <= set(row) <= set(KEYS) | set(OPTIONAL), pin.where
        assert row["expected"] in ("approve", "reject"), pin.where
        assert FileKind(str(row["kind"])), pin.where
        # a reject sits in its rule's gate's file; an approve names no rule, only the one
        # it sits near, of the same gate
        if pin.expected == "reject":
            assert pin.rule and pin.rule.split(".")[0] == pin.gate, pin.where
            assert pin.near is None, pin.where
        else:
            assert pin.rule is None, pin.where
            assert pin.near is None or pin.near.split(".")[0] == pin.gate, pin.where
        headings = row.get("headings")
        if headings is not None:
            assert isinstance(headings, list) and headings[-1] == row["section"], pin.where


def test_no_line_is_pinned_twice() -> None:
    seen = Counter((p.text, p.kind, p.context.section, p.context.headings) for p in PINS)
    assert [key for key, n in seen.items() if n > 1] == []


def test_the_pins_are_many() -> None:
    assert len(PINS) >= MINIMUM


@pytest.mark.parametrize("gate", sorted(GATES))
def test_each_gate_is_pinned_both_ways_in_both_languages(gate: str) -> None:
    for expected in ("reject", "approve"):
        texts = [p.text for p in PINS if p.gate == gate and p.expected == expected]
        assert any(CJK_RE.search(t) for t in texts), (gate, expected, "Chinese")
        assert any(not CJK_RE.search(t) for t in texts), (gate, expected, "English")


def _written_rules() -> dict[str, set[str]]:
    """Every rule id the gate modules can write, by gate (the precedent judge's
    ``<gate>.precedent`` aside: the pins are the written rules alone)."""
    out: dict[str, set[str]] = {gate: set() for gate in GATES}
    for rule in written_rule_ids():
        out[rule.split(".")[0]].add(rule)
    return out


def test_every_rule_the_gates_write_has_a_reject_pin() -> None:
    written = _written_rules()
    assert all(written.values()), written  # the scan still reads every gate module
    pinned = {p.rule for p in PINS if p.rule}
    missing = sorted(set().union(*written.values()) - pinned)
    assert missing == [], f"no reject pin for {missing}: add rows to tests/review/pins/"
    assert pinned <= set().union(*written.values())
