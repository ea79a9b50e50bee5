"""The real-line corpus (tests/corpora/gates): its shape, its fixed split, and the gates'
agreement with it on the held-out part (issue #11 item 6)."""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from typing import Any

import pytest

from bench.quality import (
    AGREEMENT_TARGET,
    CORPUS,
    FALSE_REJECT_TARGET,
    fresh,
    half,
    judge,
    load,
    round_repos,
    score,
    split,
)
from shared.review.gates import GATES

ROWS = load(CORPUS)
KEYS = {"text", "kind", "decision", "gate", "reason", "source", "split", "section", "headings"}


def _expected_split(repo: str) -> str:
    return "heldout" if int(hashlib.sha256(repo.encode()).hexdigest()[:8], 16) % 10 < 3 else "tune"


def test_rows_have_the_schema() -> None:
    for row in ROWS:
        assert set(row) == KEYS, row
        assert isinstance(row["text"], str) and row["text"].strip() == row["text"] != ""
        assert row["kind"] in ("board", "dossier")
        assert row["decision"] in ("approve", "reject")
        assert (row["gate"] is None) == (row["decision"] == "approve"), row
        assert row["gate"] is None or row["gate"] in GATES, row
        assert row["reason"].strip(), row
        assert set(row["source"]) == {"repo", "path"}
        assert row["source"]["repo"].count("/") == 1 and row["source"]["path"], row
        # the heading above the line in its source file, as the reviewer's parser reads it
        section = row["section"]
        assert section is None or (section == section.strip() and not section.startswith("#"))
        # the trail of headings above it, outermost first, ending with the section
        trail = row["headings"]
        assert trail is None or all(isinstance(h, str) and h == h.strip() for h in trail)
        if trail is not None:
            assert section is not None and (trail[-1] if trail else "") == section, row


def test_almost_every_row_knows_its_heading() -> None:
    located = [r for r in ROWS if r["section"] is not None]
    assert len(located) >= 0.99 * len(ROWS)
    assert sum(1 for r in located if r["section"]) >= 0.9 * len(located)


def test_corpus_is_large_varied_and_real() -> None:
    repos = {row["source"]["repo"] for row in ROWS}
    assert len(ROWS) >= 400
    assert len(repos) >= 40
    assert len({(r["text"], r["kind"]) for r in ROWS}) == len(ROWS), "duplicate rows"
    zh = [r for r in ROWS if any("\u4e00" <= ch <= "\u9fff" for ch in r["text"])]
    assert len(zh) >= 40
    gates = Counter(r["gate"] for r in ROWS if r["gate"])
    for gate in ("status-shape", "self-reference", "summoning", "gradient", "inner-outer"):
        assert gates[gate] >= 5, gates
    rejects = sum(r["decision"] == "reject" for r in ROWS)
    assert 0.3 <= rejects / len(ROWS) <= 0.7


def test_split_is_the_fixed_repo_hash_rule() -> None:
    by_repo: dict[str, set[str]] = defaultdict(set)
    for row in ROWS:
        assert row["split"] == _expected_split(row["source"]["repo"]), row["source"]
        by_repo[row["source"]["repo"]].add(row["split"])
    assert all(len(parts) == 1 for parts in by_repo.values())
    held = len(split(ROWS, "heldout")) / len(ROWS)
    assert 0.2 <= held <= 0.4, held


def test_tune_halves_partition_the_tune_part_by_whole_repositories() -> None:
    tune = split(ROWS, "tune")
    a, b = half(tune, "A"), half(tune, "B")
    assert len(a) + len(b) == len(tune)
    repos_a = {r["source"]["repo"] for r in a}
    repos_b = {r["source"]["repo"] for r in b}
    assert repos_a and repos_b and not repos_a & repos_b
    assert 0.35 <= len(a) / len(tune) <= 0.65, len(a)


def test_rounds_file_names_the_fresh_repositories() -> None:
    corpus_repos = {row["source"]["repo"] for row in ROWS}
    new = round_repos()
    assert len(new) >= 40
    assert new <= corpus_repos, sorted(new - corpus_repos)
    rows = fresh(ROWS, new)
    assert len(rows) >= 250
    held = fresh(split(ROWS, "heldout"), new)
    assert held and all(r["source"]["repo"] in new for r in held)
    assert len(held) < len(split(ROWS, "heldout"))


def _heldout_score() -> Any:
    return score(judge(split(ROWS, "heldout")))


# Issue #11's targets, measured on repositories no rule was tuned on. At the look of
# 2026-12-03 13:16 UTC (see tests/corpora/gates/README.md), with the precedent judge on
# top of the rules, both are met: 85.6% of 1,462 lines, and 41 of 663 good board lines
# rejected (6.2%). Plain tests: CI fails the day either slips.
def test_heldout_agreement_meets_the_target() -> None:
    s = _heldout_score()
    assert s.lines >= 100
    assert s.agreement >= AGREEMENT_TARGET, s


def test_heldout_false_rejects_of_good_board_lines_meet_the_target() -> None:
    s = _heldout_score()
    assert s.good_board >= 30
    assert s.false_reject_rate <= FALSE_REJECT_TARGET, s


@pytest.mark.parametrize("part", ["tune", "heldout"])
def test_every_reject_carries_its_gate_and_reason(part: str) -> None:
    for v in judge(split(ROWS, part)):
        if v.decided == "reject":
            assert v.decided_gate in GATES
            assert v.reason and v.reason.startswith(f"{v.decided_gate}: ")


def test_bench_quality_section_reports_the_figures_it_measures() -> None:
    from bench import run as bench_run

    rows = {r["name"]: r for r in bench_run.run(["quality"], bench_run.Scale.tiny())}
    held = _heldout_score()
    agreement = rows["quality.heldout_agreement"]
    assert agreement["value"] == pytest.approx(held.agreement, abs=1e-4)
    assert agreement["target"] == f">= {AGREEMENT_TARGET:g}"
    assert agreement["met"] is (held.agreement >= AGREEMENT_TARGET)
    false_rejects = rows["quality.heldout_false_reject_good_board"]
    assert false_rejects["value"] == pytest.approx(held.false_reject_rate, abs=1e-4)
    assert false_rejects["met"] is (held.false_reject_rate <= FALSE_REJECT_TARGET)
    tune = score(judge(split(ROWS, "tune")))
    assert rows["quality.tune_agreement"]["value"] == pytest.approx(tune.agreement, abs=1e-4)
    assert rows["quality.heldout_lines"]["value"] == held.lines
    new = score(judge(fresh(split(ROWS, "heldout"), round_repos())))
    assert rows["quality.fresh_heldout_lines"]["value"] == new.lines
    assert rows["quality.fresh_heldout_agreement"]["value"] == pytest.approx(
        new.agreement, abs=1e-4
    )
    fresh_rejects = rows["quality.fresh_heldout_false_reject_good_board"]
    assert fresh_rejects["value"] == pytest.approx(new.false_reject_rate, abs=1e-4)
    rules = score(judge(split(ROWS, "heldout"), rules_only=True))
    assert rows["quality.heldout_agreement_rules_only"]["value"] == pytest.approx(
        rules.agreement, abs=1e-4
    )
    assert rows["quality.heldout_false_reject_rules_only"]["value"] == pytest.approx(
        rules.false_reject_rate, abs=1e-4
    )
