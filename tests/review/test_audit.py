"""The label audits (tests/corpora/gates/audit.jsonl and audit_dossier.jsonl) stay honest: their
rows are the corpus's tune rows, every disagreement is adjudicated, and a row an audit corrected
is corrected in the corpus."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bench.label_audit import (
    AUDIT,
    DOSSIER_AUDIT,
    DOSSIER_SIZE,
    SAMPLE_SIZE,
    VERDICTS,
    kappa,
    wilson,
)
from bench.quality import CORPUS, load

ROWS = load(CORPUS)
AUDITED = load(AUDIT)
DOSSIER_AUDITED = load(DOSSIER_AUDIT)
BOTH = pytest.mark.parametrize(
    ("audited", "size"),
    [(AUDITED, SAMPLE_SIZE), (DOSSIER_AUDITED, DOSSIER_SIZE)],
    ids=["all", "dossier"],
)
BY_KEY = {(r["text"], r["kind"], r["source"]["repo"], r["source"]["path"]): r for r in ROWS}


def _key(a: dict[str, Any]) -> tuple[str, str, str, str]:
    return (a["text"], a["kind"], a["source"]["repo"], a["source"]["path"])


@BOTH
def test_every_audited_row_is_a_tune_row_of_the_corpus(
    audited: list[dict[str, Any]], size: int
) -> None:
    assert len(audited) == size
    assert len({_key(a) for a in audited}) == len(audited), "an audited row appears twice"
    for a in audited:
        row = BY_KEY.get(_key(a))
        assert row is not None, f"audited row not in the corpus: {a['text']!r}"
        assert row["split"] == "tune", f"audited row is not a tune row: {a['text']!r}"


@BOTH
def test_recorded_corpus_labels_match_the_corpus_except_corrections(
    audited: list[dict[str, Any]], size: int
) -> None:
    for a in audited:
        row = BY_KEY[_key(a)]
        if a.get("corrected"):
            # A correction adopts the audit's label and must be adjudicated as corpus-wrong.
            assert a["verdict"] == "corpus-wrong", a["text"]
            assert (row["decision"], row["gate"]) == (a["audit_decision"], a["audit_gate"])
        else:
            assert (row["decision"], row["gate"]) == (a["corpus_decision"], a["corpus_gate"])


@BOTH
def test_every_disagreement_is_adjudicated_and_agreements_are_not(
    audited: list[dict[str, Any]], size: int
) -> None:
    for a in audited:
        assert a["decision_agrees"] == (a["audit_decision"] == a["corpus_decision"])
        assert (a["audit_gate"] is None) == (a["audit_decision"] == "approve"), a["text"]
        assert a["audit_reason"].strip()
        differs = a["audit_decision"] != a["corpus_decision"] or a["audit_gate"] != a["corpus_gate"]
        if differs:
            assert a["verdict"] in VERDICTS and a["note"].strip(), a["text"]
        else:
            assert "verdict" not in a, a["text"]


def test_the_sample_covers_both_round_groups_and_both_decisions() -> None:
    strata = Counter((a["round"], a["corpus_decision"]) for a in AUDITED)
    assert set(strata) == {(g, d) for g in ("1-13", "14-15") for d in ("approve", "reject")}
    assert min(strata.values()) >= 30


def test_the_dossier_sample_is_dossier_rows_of_both_decisions() -> None:
    assert {a["kind"] for a in DOSSIER_AUDITED} == {"dossier"}
    decisions = Counter(a["corpus_decision"] for a in DOSSIER_AUDITED)
    assert decisions["reject"] >= 50 and decisions["approve"] >= 100


def test_wilson_and_kappa() -> None:
    lo, hi = wilson(233, 240)
    assert 0.940 < lo < 0.942 and 0.985 < hi < 0.987
    assert wilson(0, 0) == (0.0, 1.0)
    same = [
        {"decision_agrees": True, "audit_decision": d, "corpus_decision": d}
        for d in ("approve", "reject") * 5
    ]
    assert kappa(same) == 1.0
