"""Repository-grouped cross-validation of the precedent judge on the tune part alone.

    python -m bench.precedent cv [--folds 5] [--c 3] [--rules current|fresh]

The tune repositories are dealt into ``folds`` groups (:func:`repo_folds`: whole
repositories, so no fold shares a house style with another). For each fold the judge is
fitted on the other folds' rows and gives its probability for every row of the fold it
never saw; the gates' verdicts and the judge's second opinion are then tallied for a grid
of thresholds, board and dossier lines apart (they are judged by separate thresholds, so
their grids are independent). No held-out row is read.

Two sources of the gates' verdicts:

* ``current``: the gates as they stand. They were written from these very rows, so they
  agree with them far more than with repositories they never saw (tune board 92.6%
  rules alone, held-out 82.7%): the judge's gains look smaller here than they are.
* ``fresh``: each tune row of rounds 16-31 judged by the gates as committed with that
  round's rows (``FRESH_COMMITS``, before any rule was written from them); rows of earlier
  rounds are fitted on but not scored. Rules and judge meet every scored row for the
  first time, as on the held-out part; these rules are weaker than today's.

A setting is chosen where both sources agree it gains, with the board false-reject rate
well inside issue #30's limit (8%) on both.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from bench.precedent.__main__ import (
    APPROVE_BELOW,
    DOSSIER_REJECT_AT,
    FRESH_COMMITS,
    REJECT_AT,
    examples,
    old_gates,
    probability,
)
from bench.quality import CORPUS, ROUNDS, judge, load, split
from shared.review.gates.second_opinion import NEVER_PASSED, PASSED
from shared.review.precedent.training import fit

# The tune rows of each round from 16 on, judged by the gates committed with them: rounds
# 16-30 as the fresh simulation has them, and round 31 (the dossier round) by the gates of
# its last batch's commit, before any dossier rule was written from it.
FRESH_ROUND_31 = "b925102"

# The thresholds tried: reject at p >= one of REJECT_GRID (None: the judge never rejects),
# approve below p < one of APPROVE_GRID (None: it never approves).
REJECT_GRID: tuple[float | None, ...] = (None, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
APPROVE_GRID: tuple[float | None, ...] = (None, 0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)


@dataclass(frozen=True)
class Setting:
    """When the judge overrules, on board and on dossier lines: reject a line the gates
    pass at p >= ``*_reject_at``, pass a line a gate rejects at p < ``*_approve_below`` when
    the gate is in ``passed`` (None: any gate but ``NEVER_PASSED``); None: never."""

    name: str
    board_reject_at: float | None
    board_approve_below: float | None
    dossier_reject_at: float | None = None
    dossier_approve_below: float | None = None
    passed: frozenset[str] | None = None

    def thresholds(self, board: bool) -> tuple[float | None, float | None]:
        if board:
            return self.board_reject_at, self.board_approve_below
        return self.dossier_reject_at, self.dossier_approve_below


SETTINGS: tuple[Setting, ...] = (
    Setting("rules only", None, None),
    Setting("old: board 0.85 / 0.35", 0.85, 0.35),
    Setting(
        "shipped: board 0.85 / gradient 0.5, dossier 0.85",
        REJECT_AT,
        APPROVE_BELOW,
        DOSSIER_REJECT_AT,
        None,
        PASSED,
    ),
)


@dataclass(frozen=True)
class Judged:
    """One tune row in the cross-validation: its fold, the gate the rules reject it under
    (None: they pass it) and the probability of a judge that never saw its repository."""

    row: dict[str, Any]
    fold: int
    gate: str | None
    p: float

    @property
    def board(self) -> bool:
        return bool(self.row["kind"] == "board")

    @property
    def reject(self) -> bool:
        return bool(self.row["decision"] == "reject")


@dataclass(frozen=True)
class Tally:
    """One setting on one kind of line: agreement, and good lines rejected."""

    lines: int
    agree: int
    good: int
    false_rejects: int

    @property
    def agreement(self) -> float:
        return self.agree / self.lines if self.lines else 0.0

    @property
    def false_reject_rate(self) -> float:
        return self.false_rejects / self.good if self.good else 0.0


def _digest(salt: str, repo: str) -> str:
    return hashlib.sha256(f"{salt}:{repo}".encode()).hexdigest()


def repo_folds(rows: Sequence[dict[str, Any]], folds: int, salt: str = "cv") -> list[int]:
    """The fold of each row: whole repositories, dealt largest first (ties by
    ``sha256(salt:repo)``) to the fold holding the fewest rows so far (ties: the lowest
    fold). Deterministic; no two folds share a repository."""
    if folds < 2:
        raise ValueError("cross-validation needs at least two folds")
    sizes: dict[str, int] = {}
    for r in rows:
        repo = r["source"]["repo"]
        sizes[repo] = sizes.get(repo, 0) + 1
    load_of = [0] * folds
    fold_of: dict[str, int] = {}
    for repo in sorted(sizes, key=lambda x: (-sizes[x], _digest(salt, x))):
        target = min(range(folds), key=lambda f: (load_of[f], f))
        fold_of[repo] = target
        load_of[target] += sizes[repo]
    return [fold_of[r["source"]["repo"]] for r in rows]


def _probabilities(rows: Sequence[dict[str, Any]], fold: Sequence[int], c: float) -> list[float]:
    """Each row's reject probability from a judge fitted on every other fold."""
    out = [0.0] * len(rows)
    for f in sorted(set(fold)):
        seen = [r for r, g in zip(rows, fold, strict=True) if g != f]
        fitted = fit(examples(seen), c=c)
        for i, (r, g) in enumerate(zip(rows, fold, strict=True)):
            if g == f:
                out[i] = probability(fitted, r)
    return out


def current_gates(rows: Sequence[dict[str, Any]]) -> list[str | None]:
    """The gates as they stand, rules alone."""
    return [v.decided_gate for v in judge(rows, rules_only=True)]


def fresh_gates(
    rows: Sequence[dict[str, Any]], rounds_path: Path = ROUNDS
) -> list[tuple[bool, str | None]]:
    """For each row: whether a fresh verdict exists (its round is 16-31) and the gate the
    gates committed with its round reject it under."""
    commits = {**FRESH_COMMITS, "31": FRESH_ROUND_31}
    table = orjson.loads(rounds_path.read_bytes())
    round_of = {repo: name for name, repos in table.items() if name in commits for repo in repos}
    out: list[tuple[bool, str | None]] = [(False, None)] * len(rows)
    for name, commit in commits.items():
        idx = [i for i, r in enumerate(rows) if round_of.get(r["source"]["repo"]) == name]
        if not idx:
            continue
        for i, gate in zip(idx, old_gates(commit, [rows[i] for i in idx]), strict=True):
            out[i] = (True, gate)
    return out


def cross_validate(
    rows: Sequence[dict[str, Any]],
    gates: Sequence[str | None],
    *,
    folds: int = 5,
    c: float = 3.0,
    scored: Sequence[bool] | None = None,
) -> list[Judged]:
    """The scored rows with their fold, the rules' gate and an out-of-fold probability."""
    fold = repo_folds(rows, folds)
    probs = _probabilities(rows, fold, c)
    keep = scored if scored is not None else [True] * len(rows)
    return [
        Judged(r, f, g, p)
        for r, f, g, p, k in zip(rows, fold, gates, probs, keep, strict=True)
        if k
    ]


def decide(
    gate: str | None,
    p: float,
    reject_at: float | None,
    approve_below: float | None,
    passed: frozenset[str] | None = None,
) -> bool:
    """The final verdict: the rules', unless the judge is sure otherwise. A reject is
    passed only under a gate of ``passed`` (None: any), never under ``NEVER_PASSED``."""
    if gate is None:
        return reject_at is not None and p >= reject_at
    if gate in NEVER_PASSED or (passed is not None and gate not in passed):
        return True
    return approve_below is None or p >= approve_below


def tally(
    judged: Iterable[Judged],
    board: bool,
    reject_at: float | None,
    approve_below: float | None,
    passed: frozenset[str] | None = None,
) -> Tally:
    """One setting's figures on the board (``board``) or the dossier lines."""
    lines = agree = good = false_rejects = 0
    for j in judged:
        if j.board is not board:
            continue
        rej = decide(j.gate, j.p, reject_at, approve_below, passed)
        lines += 1
        agree += rej == j.reject
        if not j.reject:
            good += 1
            false_rejects += rej
    return Tally(lines, agree, good, false_rejects)


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def grid_report(
    judged: Sequence[Judged], board: bool, passed: frozenset[str] | None = None
) -> list[str]:
    """Every (reject at, approve below) pair of the grid on one kind of line."""
    kind = "board" if board else "dossier"
    whose = "any gate's reject" if passed is None else ", ".join(sorted(passed)) + " rejects"
    lines = [
        f"{kind} lines, passing {whose}: reject at (rows) / approve below (columns) -> "
        "agreement %, good lines rejected %"
    ]
    for reject_at in REJECT_GRID:
        cells = []
        for approve_below in APPROVE_GRID:
            t = tally(judged, board, reject_at, approve_below, passed)
            agreement, rejected = t.agreement * 100, t.false_reject_rate * 100
            cells.append(f"{_fmt(approve_below):>4} {agreement:5.1f} {rejected:4.1f}")
        lines.append(f"  {_fmt(reject_at):>4} | " + " | ".join(cells))
    return lines


def per_fold(judged: Sequence[Judged], board: bool, setting: Setting) -> list[Tally]:
    """One setting's figures fold by fold."""
    folds = sorted({j.fold for j in judged})
    return [
        tally([j for j in judged if j.fold == f], board, *setting.thresholds(board), setting.passed)
        for f in folds
    ]


def summary(judged: Sequence[Judged], setting: Setting) -> str:
    """One setting in full and fold by fold."""
    b = tally(judged, True, *setting.thresholds(True), setting.passed)
    d = tally(judged, False, *setting.thresholds(False), setting.passed)
    folds_b = " ".join(f"{t.agreement * 100:.1f}" for t in per_fold(judged, True, setting))
    folds_d = " ".join(f"{t.agreement * 100:.1f}" for t in per_fold(judged, False, setting))
    return (
        f"{setting.name}: dossier {d.agree}/{d.lines} ({d.agreement * 100:.1f}%, good "
        f"rejected {d.false_rejects}/{d.good}); board {b.agree}/{b.lines} "
        f"({b.agreement * 100:.1f}%), false rejects {b.false_rejects}/{b.good} "
        f"({b.false_reject_rate * 100:.1f}%); by fold: board [{folds_b}], dossier [{folds_d}]"
    )


def report(judged: Sequence[Judged], settings: Sequence[Setting] = SETTINGS) -> str:
    """The grids (board: any gate's reject passed, and only ``PASSED``'s; dossier), then
    each named setting."""
    n_board = sum(j.board for j in judged)
    out = [f"scored rows: {len(judged)} ({n_board} board, {len(judged) - n_board} dossier)"]
    out += grid_report(judged, True)
    out += grid_report(judged, True, PASSED)
    out += grid_report(judged, False)
    out += [summary(judged, s) for s in settings]
    return "\n".join(out)


def cv_rows(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The tune rows: the only ones the cross-validation reads."""
    return split(load(path), "tune")
