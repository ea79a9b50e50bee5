"""The rule catalog (``shared/review/gates/rules.py``) against what the gates write.

Fails when a gate writes a rule with no record, when a record is never written, when a
finding's words are not its record's, when a record names a concept or a predicate that
does not exist or that its gate does not read, and when a written rule lacks an example
(a pin) either way in a language it declares, or a pin names a rule with no record.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from functools import cache
from pathlib import Path

import pytest

from shared.language import lexicon
from shared.review.allowlist import FileKind
from shared.review.gates import gradient, summoning
from shared.review.gates.base import Finding, ReviewContext, rule_id
from shared.review.gates.registry import GATE_SETS, GATES, review_rules, review_ruling
from shared.review.gates.rules import LANGUAGES, PINS_DIR, RULES, examples
from shared.review.gates.second_opinion import JUDGED
from shared.review.precedent.model import shipped
from tests.review.gatescan import gate_sources, written_rule_ids
from tests.review.pinfile import DIR, PINS

GATES_DIR = Path(gradient.__file__).parent
CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "gates" / "lines.jsonl"
WRITTEN = {rid: rule for rid, rule in RULES.items() if not rule.fitted}
# Modules the catalog names predicates of (``<module>.<name>``).
PREDICATE_MODULES = {
    "predicates": "shared.review.gates.predicates",
    "claims": "shared.language.claims",
    "redaction": "shared.importing.redaction",
    "precedent": "shared.review.precedent",
    **{path.stem: f"shared.review.gates.{path.stem}" for path in GATES_DIR.glob("*.py")},
}
# Where a gate's concepts are asked for: its module, the shared predicates, the claims layer.
SHARED_SOURCES = (
    GATES_DIR / "predicates.py",
    *sorted((GATES_DIR.parent.parent / "language" / "claims").glob("*.py")),
)


def test_every_rule_a_gate_writes_is_catalogued_and_every_record_is_written() -> None:
    written = written_rule_ids()
    assert len(written) >= 30, written  # the scan still reads every gate module
    assert sorted(written - set(WRITTEN)) == [], "add a record to shared/review/gates/rules.py"
    assert sorted(set(WRITTEN) - written) == [], "a record no gate writes"


def test_no_gate_writes_a_finding_of_its_own_words() -> None:
    """Every finding is built by a record (``RULES[id].finding()``): no gate module
    constructs ``Finding(...)`` or writes a ``"<gate>: <diagnosis>"`` reason itself."""
    found = []
    for stem, source in gate_sources().items():
        if stem in ("base", "rules"):
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Finding":
                found.append(f"{stem}.py:{node.lineno}")
        found += [f"{stem}.py: {m}" for m in re.findall(r'f"\{[A-Z_]*RULE[A-Z_]*\}: ', source)]
    assert found == []


def test_records_are_well_formed() -> None:
    for rid, rule in RULES.items():
        assert rid == rule.id and rid.startswith(f"{rule.gate}."), rid
        assert rule.gate in GATES, rid
        assert rule.reason == f"{rule.gate}: {rule.diagnosis}", rid
        shapes = rule.shapes
        assert len(set(shapes)) == len(shapes) and "" not in shapes[1:], rid
        for _shape, why in rule.whys:
            assert why.startswith("the ") and not why.endswith("."), rid
        assert set(rule.languages) <= set(LANGUAGES), rid
        if not rule.fitted:
            assert rule.matches and rule.languages, rid
            assert rid == rule_id(rule.gate, rule.reason), rid  # the id is the diagnosis's


def test_a_record_makes_its_findings() -> None:
    rule = RULES["dossier.unsupported-claim"]
    assert rule.finding() is rule.finding()  # made once: a finding is immutable
    assert rule.finding() == Finding("dossier", "dossier: unsupported claim", rule.why, rule.id)
    assert rule.finding("placeholder").why == rule.why_of("placeholder") != rule.why
    with pytest.raises(KeyError):
        rule.finding("no such shape")
    secret = RULES["secret.credential"].finding(detail="JWT")
    assert secret.reason == "secret: credential (JWT)" and secret.rule == "secret.credential"
    assert "(JWT)" in secret.why and "{" not in secret.why


@cache
def _read_by(gate_module: str) -> str:
    sources = [GATES_DIR / f"{gate_module}.py", *SHARED_SOURCES]
    return "\n".join(p.read_text("utf-8") for p in sources)


def _concept_exists(name: str) -> bool:
    return any(name in lang.concepts for lang in lexicon.LANGUAGES)


@pytest.mark.parametrize("rid", sorted(RULES))
def test_what_a_rule_matches_exists_and_its_gate_reads_it(rid: str) -> None:
    """Each name in ``matches`` is a lexicon concept the gate (or a predicate it shares)
    asks for by name, or ``<module>.<name>`` of a predicate that exists."""
    rule = RULES[rid]
    module = rule.gate.replace("-", "_")
    for name in rule.matches:
        if "." in name:
            where, attr = name.split(".", 1)
            assert where in PREDICATE_MODULES, (rid, name)
            assert hasattr(importlib.import_module(PREDICATE_MODULES[where]), attr), (rid, name)
            continue
        assert _concept_exists(name), (rid, name, "no such lexicon concept")
        assert f'"{name}"' in _read_by(module) or f"'{name}'" in _read_by(module), (
            rid,
            name,
            "not read by its gate",
        )


def test_the_precedent_judge_rejects_only_under_catalogued_rules() -> None:
    judged = {g for kind in JUDGED for g in GATE_SETS[kind] if g in shipped().centroids}
    assert "dossier" in judged and "gradient" in judged
    for gate in judged:
        rule = RULES[f"{gate}.precedent"]
        assert rule.fitted and rule.gate == gate


# ------------------------------------------------------------ the findings, dynamically
def _rows() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [p.row for p in PINS]
    with CORPUS.open(encoding="utf-8") as f:
        rows += [row for line in f if (row := json.loads(line)).get("split") == "tune"]
    return rows


def _catalogued(finding: Finding) -> None:
    rule = RULES.get(finding.rule)
    assert rule is not None, f"{finding.rule} ({finding.reason}) has no record"
    assert finding.gate == rule.gate
    assert finding.reason == rule.reason or finding.reason.startswith(rule.reason + " ("), finding
    if "{" not in "".join(why for _, why in rule.whys):
        assert finding.why in {why for _, why in rule.whys}, finding


def test_every_finding_on_the_pins_and_the_tune_corpus_is_catalogued() -> None:
    seen: set[str] = set()
    for row in _rows():
        kind = FileKind(str(row["kind"]))
        headings = row.get("headings") or ()
        assert isinstance(headings, list | tuple)
        ctx = ReviewContext("", kind, str(row.get("section") or ""), tuple(map(str, headings)))
        text = str(row["text"])
        ruling = review_ruling(text, ctx)
        for finding in (review_rules(text, ctx), ruling.finding, ruling.overruled):
            if finding is not None:
                _catalogued(finding)
                seen.add(finding.rule)
    assert any(RULES[r].fitted for r in seen) and any(not RULES[r].fitted for r in seen)


# ------------------------------------------------------------ the examples (the pins)
def test_the_examples_are_the_pins() -> None:
    assert PINS_DIR == DIR
    found = examples()
    for pin in PINS:
        named = pin.rule if pin.expected == "reject" else pin.near
        if named is None:
            continue
        assert named in WRITTEN, f"{pin.where}: {named} has no record"
        mine = found[named].reject if pin.expected == "reject" else found[named].approve
        assert any(e.where == pin.where for e in mine), pin.where


@pytest.mark.parametrize("rid", sorted(WRITTEN))
def test_every_rule_has_examples_both_ways_in_each_language_it_declares(rid: str) -> None:
    mine = examples()[rid]
    for expected in ("reject", "approve"):
        missing = set(WRITTEN[rid].languages) - mine.languages(expected)
        key = "rule" if expected == "reject" else "near"
        assert not missing, (
            f"{rid}: no {expected} example in {sorted(missing)}: add a row to "
            f"tests/review/pins/{WRITTEN[rid].gate}.jsonl ({key} = {rid})"
        )


# ------------------------------------------------------------ readings
def test_a_gate_that_reads_the_line_more_than_one_way_names_the_reading_it_decided_on() -> None:
    board = ReviewContext("", FileKind.BOARD)
    # a closing note tried away, the line is still rejected as written
    tried = review_rules("`legacyParse` (not stable)", board)
    assert tried is not None and tried.rule == "gradient.missing-concrete-trigger"
    assert tried.reading == gradient.AS_WRITTEN
    # one reading, nothing tried: no reading to name
    plain = review_rules("用户喜欢简洁的回答。", board)
    assert plain is not None and plain.reading == ""
    # an item under a heading of what not to do is read as the prohibition it is
    under = review_rules("把订单金额存成浮点数。", ReviewContext("", FileKind.BOARD, "禁止事项"))
    assert under is not None and under.rule == "summoning.no-recognizable-trigger"
    assert under.reading == summoning.UNDER_HEADING
