"""The precedent-judge experiments: the candidate report and the fresh simulation's parts."""

from __future__ import annotations

import subprocess

import orjson
import pytest

from bench.precedent.__main__ import (
    CANDIDATES,
    FRESH_COMMITS,
    decide,
    examples,
    old_gates,
    round_report,
)
from bench.quality import CORPUS, ROOT, ROUNDS, load


def test_the_judge_overrules_only_when_sure() -> None:
    assert decide(False, 0.75, 0.7, 0.1) is True
    assert decide(False, 0.65, 0.7, 0.1) is False
    assert decide(True, 0.05, 0.7, 0.1) is False
    assert decide(True, 0.5, 0.7, 0.1) is True
    assert decide(False, 0.99, None, 0.1) is False  # approves only


def test_examples_carry_the_heading_and_the_labelled_gate() -> None:
    row = {
        "text": "Keep it tidy",
        "kind": "board",
        "decision": "reject",
        "gate": "gradient",
        "section": "Style",
    }
    (ex,) = examples([row])
    assert (ex.text, ex.dossier, ex.gate, ex.heading) == (
        "Keep it tidy",
        False,
        "gradient",
        "Style",
    )
    (ex,) = examples([{**row, "decision": "approve", "gate": None, "section": None}])
    assert ex.gate is None and ex.heading == ""


@pytest.mark.slow  # one refit of the judge per candidate setting
def test_round_report_scores_every_candidate_on_that_rounds_tune_rows_only() -> None:
    rounds = orjson.loads(ROUNDS.read_bytes())
    repos = set(rounds["17"])
    rows = [r for r in load(CORPUS) if r["source"]["repo"] in repos]
    tune = [r for r in rows if r["split"] == "tune"]
    assert tune and len(tune) < len(rows)  # round 17 has held-out rows too
    report = round_report("17").splitlines()
    assert report[0] == (
        f"round-17 tune rows: {len(tune)} (judge fitted on the other "
        f"{sum(1 for r in load(CORPUS) if r['split'] == 'tune') - len(tune)})"
    )
    assert [line.split("  ")[0] for line in report[1:]] == [c[0] for c in CANDIDATES]
    assert all(f"/{len(tune)} " in line for line in report[1:])


def test_old_gates_are_the_gates_of_that_commit() -> None:
    # The gates as committed with round 30's rows, run from that commit's own files.
    commit = FRESH_COMMITS["30"]
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", commit], check=False)
    if known.returncode:
        pytest.skip(f"{commit} is not in this clone's history")
    rows = [
        {"text": "Keep it tidy.", "kind": "board"},
        {"text": "Before each commit, run `make lint`.", "kind": "board"},
        {"text": "Embrace excellence.", "kind": "board"},
    ]
    assert old_gates(commit, rows) == ["gradient", None, "gradient"]
