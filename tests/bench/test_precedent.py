"""The precedent-judge experiment: features, a deterministic fit, the candidate report."""

from __future__ import annotations

import orjson
import pytest

from bench.precedent.__main__ import CANDIDATES, decide, examples, probability, round_report
from bench.precedent.features import letter_runs, readable, vector, word_runs
from bench.precedent.training import Example, fit, rarity
from bench.quality import CORPUS, ROUNDS, load


def test_letter_runs_read_chinese_and_english_alike() -> None:
    zh = letter_runs("提交前运行测试")
    assert zh["c:测试"] == 1 and zh["c: 提交前"] == 1 and zh["c:试 "] == 1
    en = letter_runs("Run tests")
    assert en["c: ru"] == 1 and en["c:sts "] == 1 and "c:n t" not in en  # not across words
    assert word_runs("Run the tests")["w:the tests"] == 1


def test_kernel_structure_is_not_read() -> None:
    line = "[observation] When asked, answer first [[groove-answers]] Details: memory/topics/a.md"
    text = readable(line)
    assert "observation" not in text and "groove" not in text and "memory/topics" not in text
    assert "When asked, answer first" in text
    idf = {"w:groove": 1.0, "w:answer": 1.0}
    assert set(vector(line, False, idf)) == {"w:answer"}


def test_rarity_keeps_runs_seen_in_two_lines_and_weights_rare_ones_higher() -> None:
    idf = rarity([Example("run tests", False, None), Example("run lint", False, None)])
    assert "w:tests" not in idf  # one line only
    assert idf["c: r"] == pytest.approx(1.0)  # in every line: the floor


def _toy() -> list[Example]:
    good = [f"Before each {w} run the {w} suite with pytest" for w in ("push", "merge", "tag")]
    bad = [f"Embrace {w} and be excellent always" for w in ("quality", "clarity", "care")]
    return [Example(t, False, None) for t in good] + [Example(t, False, "gradient") for t in bad]


def test_fit_is_deterministic_and_separates_what_it_was_shown() -> None:
    a, b = fit(_toy(), c=3.0), fit(_toy(), c=3.0)
    assert a == b
    assert set(a.centroids) == {"gradient"}
    slogan = {"text": "Embrace excellence and be excellent", "kind": "board"}
    rule = {"text": "Before each release run the suite with pytest", "kind": "board"}
    assert probability(a, slogan) > 0.5 > probability(a, rule)


def test_the_judge_overrules_only_when_sure() -> None:
    assert decide(False, 0.75, 0.7, 0.1) is True
    assert decide(False, 0.65, 0.7, 0.1) is False
    assert decide(True, 0.05, 0.7, 0.1) is False
    assert decide(True, 0.5, 0.7, 0.1) is True
    assert decide(False, 0.99, None, 0.1) is False  # approves only


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
    assert len(examples(tune)) == len(tune)
