"""The precedent judge's repository-grouped cross-validation: the fold split and the tally."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from bench.precedent.cv import Judged, decide, repo_folds, tally


def _rows() -> list[dict[str, Any]]:
    rows = []
    for n in range(40):
        repo = f"owner{n % 7}/repo{n}"
        for line in range(1 + n % 5):
            rows.append({"text": f"line {line}", "source": {"repo": repo, "path": "CLAUDE.md"}})
    return rows


def test_folds_never_share_a_repository() -> None:
    rows = _rows()
    fold = repo_folds(rows, 5)
    seen: dict[str, set[int]] = defaultdict(set)
    for row, f in zip(rows, fold, strict=True):
        seen[row["source"]["repo"]].add(f)
    assert all(len(folds) == 1 for folds in seen.values())
    assert set(fold) == set(range(5))


def test_folds_are_deterministic_and_balanced() -> None:
    rows = _rows()
    fold = repo_folds(rows, 5)
    assert fold == repo_folds(list(rows), 5)
    # the order the rows come in does not move a repository to another fold
    back = repo_folds(rows[::-1], 5)[::-1]
    assert back == fold
    sizes = [fold.count(f) for f in range(5)]
    assert max(sizes) - min(sizes) <= 5  # at most one repository's rows apart


def test_one_fold_is_refused() -> None:
    with pytest.raises(ValueError, match="two folds"):
        repo_folds(_rows(), 1)


def test_the_tally_overrules_only_when_sure_and_never_passes_an_internal_source() -> None:
    assert decide(None, 0.9, 0.85, 0.35) is True
    assert decide(None, 0.8, 0.85, 0.35) is False
    assert decide("gradient", 0.2, 0.85, 0.35) is False
    assert decide("inner-outer", 0.0, 0.85, 0.35) is True
    assert decide("gradient", 0.2, None, None) is True

    def row(kind: str, decision: str) -> dict[str, Any]:
        return {"kind": kind, "decision": decision, "source": {"repo": "a/b"}}

    judged = [
        Judged(row("board", "approve"), 0, "gradient", 0.1),  # approved over the rule
        Judged(row("board", "reject"), 0, None, 0.95),  # rejected by the judge
        Judged(row("board", "approve"), 1, None, 0.9),  # a false reject by the judge
        Judged(row("dossier", "reject"), 1, None, 0.99),  # dossier: another kind
    ]
    board = tally(judged, True, 0.85, 0.35)
    assert (board.lines, board.agree, board.good, board.false_rejects) == (3, 2, 2, 1)
    assert tally(judged, False, None, None).agree == 0
    assert tally(judged, False, 0.9, None).agree == 1
