"""The real-line corpus (tests/corpora/gates): its shape, its fixed split, and the bench
that scores it.

The held-out part is scored by the bench (``python bench/run.py --only quality``, issue #11
item 6's targets), never by a test run: no test here compares a decision on a held-out row
with its label, so nobody sees a held-out figure while writing rules (issue #32)."""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import orjson
import pytest

from bench.quality import (
    AGREEMENT_TARGET,
    BOARD_AGREEMENT_TARGET,
    CORPUS,
    DOSSIER_AGREEMENT_TARGET,
    FALSE_REJECT_TARGET,
    FRESH_ROUNDS,
    bench_quality,
    fresh,
    half,
    judge,
    load,
    of_kind,
    round_repos,
    score,
    split,
)
from shared.review.gates.registry import GATES

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


@pytest.mark.parametrize("part", ["tune", "heldout"])
def test_every_reject_carries_its_gate_and_reason(part: str) -> None:
    for v in judge(split(ROWS, part)):
        if v.decided == "reject":
            assert v.decided_gate in GATES
            assert v.reason and v.reason.startswith(f"{v.decided_gate}: ")


def _row(
    text: str, decision: str, gate: str | None, repo: str, part: str, kind: str = "board"
) -> dict[str, Any]:
    return {
        "text": text,
        "kind": kind,
        "decision": decision,
        "gate": gate,
        "reason": "why",
        "source": {"repo": repo, "path": "CLAUDE.md"},
        "split": part,
        "section": "Workflow",
        "headings": ["Workflow"],
    }


def test_bench_quality_section_reports_the_figures_it_measures(tmp_path: Path) -> None:
    # A small corpus of the real shape, so the bench's wiring is checked without scoring
    # the real held-out part: two held-out repositories (one of them fresh), one tune;
    # board and dossier lines on both sides.
    rows = [
        _row("Before each commit, run `make lint`.", "approve", None, "a/held", "heldout"),
        _row("Embrace excellence.", "approve", None, "a/held", "heldout"),
        _row("Keep it tidy.", "reject", "gradient", "b/fresh", "heldout"),
        _row("Before each release, run `make test`.", "approve", None, "b/fresh", "heldout"),
        _row("Fixed the login bug.", "reject", "status-shape", "a/held", "heldout", "dossier"),
        _row("Embrace excellence always.", "reject", "gradient", "c/tune", "tune"),
        _row("The API listens on port 8080.", "approve", None, "c/tune", "tune", "dossier"),
    ]
    corpus = tmp_path / "lines.jsonl"
    corpus.write_bytes(b"\n".join(orjson.dumps(r) for r in rows) + b"\n")
    rounds: dict[str, list[str]] = {name: [] for name in FRESH_ROUNDS}
    rounds[FRESH_ROUNDS[-1]] = ["b/fresh"]
    (tmp_path / "rounds.json").write_bytes(orjson.dumps(rounds))

    got = {r["name"]: r for r in bench_quality(corpus, out=None)}

    held_v, tune_v = judge(rows[:5]), judge(rows[5:])
    held, tune = score(held_v), score(tune_v)
    new, rules = score(judge(rows[2:4])), score(judge(rows[:5], rules_only=True))
    assert held.lines == 5 and held.good_board == 3 and new.lines == 2
    hd, hb = score(of_kind(held_v, "dossier")), score(of_kind(held_v, "board"))
    td, tb = score(of_kind(tune_v, "dossier")), score(of_kind(tune_v, "board"))
    assert (hd.lines, hb.lines, td.lines, tb.lines) == (1, 4, 1, 1)
    expected = {
        "quality.heldout_lines": held.lines,
        "quality.heldout_agreement": held.agreement,
        "quality.heldout_false_reject_good_board": held.false_reject_rate,
        "quality.heldout_same_gate": held.gate_agreement,
        "quality.heldout_dossier_lines": hd.lines,
        "quality.heldout_dossier_agreement": hd.agreement,
        "quality.heldout_board_lines": hb.lines,
        "quality.heldout_board_agreement": hb.agreement,
        "quality.heldout_agreement_rules_only": rules.agreement,
        "quality.heldout_false_reject_rules_only": rules.false_reject_rate,
        "quality.fresh_heldout_lines": new.lines,
        "quality.fresh_heldout_agreement": new.agreement,
        "quality.fresh_heldout_false_reject_good_board": new.false_reject_rate,
        "quality.tune_lines": tune.lines,
        "quality.tune_agreement": tune.agreement,
        "quality.tune_false_reject_good_board": tune.false_reject_rate,
        "quality.tune_dossier_agreement": td.agreement,
        "quality.tune_board_agreement": tb.agreement,
    }
    assert {name: r["value"] for name, r in got.items()} == pytest.approx(expected)
    agreement = got["quality.heldout_agreement"]
    assert agreement["target"] == f">= {AGREEMENT_TARGET:g}"
    assert agreement["met"] is (held.agreement >= AGREEMENT_TARGET)
    false_rejects = got["quality.heldout_false_reject_good_board"]
    assert false_rejects["target"] == f"<= {FALSE_REJECT_TARGET:g}"
    assert false_rejects["met"] is (held.false_reject_rate <= FALSE_REJECT_TARGET)
    dossier, board = (
        got["quality.heldout_dossier_agreement"],
        got["quality.heldout_board_agreement"],
    )
    assert dossier["target"] == f">= {DOSSIER_AGREEMENT_TARGET:g}"
    assert dossier["met"] is (hd.agreement >= DOSSIER_AGREEMENT_TARGET)
    assert board["target"] == f">= {BOARD_AGREEMENT_TARGET:g}"
    assert board["met"] is (hb.agreement >= BOARD_AGREEMENT_TARGET)
    targeted = {n for n, r in got.items() if r["target"] is not None}
    assert targeted == {
        "quality.heldout_agreement",
        "quality.heldout_false_reject_good_board",
        "quality.heldout_dossier_agreement",
        "quality.heldout_board_agreement",
    }


def test_the_runner_reports_the_quality_section_with_the_held_out_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The runner's quality section is the gates' rows and the real-session rows; stubbed
    # here, since running them would score the real held-out parts.
    from bench import quality, real_sessions
    from bench import run as bench_run

    monkeypatch.setattr(
        quality, "bench_quality", lambda: [{"name": "quality.heldout_agreement", "value": 1}]
    )
    monkeypatch.setattr(
        real_sessions,
        "bench_real_sessions",
        lambda: [{"name": "real_sessions.heldout.agreement", "value": 1}],
    )
    rows = bench_run.run(["quality"], bench_run.Scale.tiny())
    assert [r["name"] for r in rows] == [
        "quality.heldout_agreement",
        "real_sessions.heldout.agreement",
        "quality.section_time",
    ]
