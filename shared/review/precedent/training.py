"""Fitting the precedent judge to labelled lines: plain Python, deterministic.

The decision is an L2-regularised logistic regression (reject against approve, each
class weighted by its inverse frequency so the rarer side is not drowned), fitted by
L-BFGS; the gate is the labelled gate whose mean reject line is nearest. No random
state anywhere: the same rows give the same model, byte for byte once rounded.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared.review.precedent.features import heading_runs, letter_runs, readable, vector, word_runs

_MEMORY = 10  # L-BFGS history
_MAX_STEPS = 300
_TOLERANCE = 1e-5


@dataclass(frozen=True)
class Example:
    """One labelled line: its text, whether it sits in a dossier, its gate (None: approve)
    and the heading it sits under."""

    text: str
    dossier: bool
    gate: str | None
    heading: str = ""


@dataclass(frozen=True)
class Fitted:
    """What training produced: rarity per feature, decision weights, gate centroids."""

    idf: dict[str, float]
    weights: dict[str, float]
    bias: float
    centroids: dict[str, dict[str, float]]
    rows: int


def rarity(examples: Sequence[Example], min_lines: int = 2) -> dict[str, float]:
    """Smoothed inverse line frequency of every run seen in at least ``min_lines`` lines."""
    seen: Counter[str] = Counter()
    for ex in examples:
        text = readable(ex.text)
        seen.update(set(letter_runs(text)) | set(word_runs(text)) | set(heading_runs(ex.heading)))
    n = len(examples)
    return {
        f: math.log((1 + n) / (1 + df)) + 1.0 for f, df in sorted(seen.items()) if df >= min_lines
    }


def fit(examples: Sequence[Example], c: float = 1.0) -> Fitted:
    """The judge for ``examples``: decision weights and one centroid per gate."""
    idf = rarity(examples)
    vectors = [vector(ex.text, ex.dossier, idf, ex.heading) for ex in examples]
    labels = [1 if ex.gate is not None else 0 for ex in examples]
    weights, bias = _logistic(vectors, labels, c)
    return Fitted(idf, weights, bias, _centroids(vectors, examples), len(examples))


def _centroids(
    vectors: Sequence[dict[str, float]], examples: Sequence[Example]
) -> dict[str, dict[str, float]]:
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for vec, ex in zip(vectors, examples, strict=True):
        if ex.gate is None:
            continue
        acc = sums[ex.gate]
        for f, v in vec.items():
            acc[f] += v
    out = {}
    for gate, acc in sorted(sums.items()):
        norm = math.sqrt(sum(v * v for v in acc.values())) or 1.0
        out[gate] = {f: v / norm for f, v in sorted(acc.items())}
    return out


def _logistic(
    vectors: Sequence[dict[str, float]], labels: Sequence[int], c: float
) -> tuple[dict[str, float], float]:
    names = sorted({f for vec in vectors for f in vec})
    index = {f: i for i, f in enumerate(names)}
    rows = [([index[f] for f in vec], list(vec.values())) for vec in vectors]
    signs = [1.0 if y else -1.0 for y in labels]
    pos = sum(labels)
    n = len(labels)
    # Balanced classes: each side weighs as much as the other, whatever its size.
    balance = {1.0: n / (2.0 * max(pos, 1)), -1.0: n / (2.0 * max(n - pos, 1))}
    sample = [c * balance[s] for s in signs]
    dim = len(names) + 1  # the last coordinate is the bias, not regularised

    def loss_and_grad(theta: list[float]) -> tuple[float, list[float]]:
        grad = [*theta[:-1], 0.0]
        loss = 0.5 * sum(t * t for t in theta[:-1])
        bias = theta[-1]
        for (idx, val), s, w in zip(rows, signs, sample, strict=True):
            z = bias + sum(theta[i] * v for i, v in zip(idx, val, strict=True))
            m = s * z
            # log(1 + e^-m) and its slope, stable for large |m|
            if m > 0:
                e = math.exp(-m)
                loss += w * math.log1p(e)
                slope = -s * e / (1.0 + e)
            else:
                e = math.exp(m)
                loss += w * (-m + math.log1p(e))
                slope = -s / (1.0 + e)
            slope *= w
            for i, v in zip(idx, val, strict=True):
                grad[i] += slope * v
            grad[-1] += slope
        return loss, grad

    theta = _lbfgs(loss_and_grad, [0.0] * dim)
    return {f: theta[i] for f, i in index.items()}, theta[-1]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


_Objective = Callable[[list[float]], tuple[float, list[float]]]


def _lbfgs(fn: _Objective, theta: list[float]) -> list[float]:
    """Minimise a smooth convex ``fn(theta) -> (value, gradient)`` (two-loop L-BFGS)."""
    value, grad = fn(theta)
    history: list[tuple[list[float], list[float], float]] = []
    for _ in range(_MAX_STEPS):
        if math.sqrt(_dot(grad, grad)) < _TOLERANCE * max(1.0, abs(value)):
            break
        q = list(grad)
        alphas = []
        for s, y, rho in reversed(history):
            a = rho * _dot(s, q)
            alphas.append(a)
            q = [qi - a * yi for qi, yi in zip(q, y, strict=True)]
        if history:
            s, y, _ = history[-1]
            gamma = _dot(s, y) / _dot(y, y)
            q = [gamma * qi for qi in q]
        for (s, y, rho), a in zip(history, reversed(alphas), strict=True):
            b = rho * _dot(y, q)
            q = [qi + (a - b) * si for qi, si in zip(q, s, strict=True)]
        direction = [-qi for qi in q]
        slope = _dot(grad, direction)
        if slope >= 0:  # not a descent direction: fall back to steepest descent
            direction, slope, history = [-g for g in grad], -_dot(grad, grad), []
        step = 1.0 if history else 1.0 / max(1.0, math.sqrt(_dot(grad, grad)))
        while True:
            trial = [t + step * d for t, d in zip(theta, direction, strict=True)]
            new_value, new_grad = fn(trial)
            if new_value <= value + 1e-4 * step * slope or step < 1e-12:
                break
            step *= 0.5
        s_vec = [a - b for a, b in zip(trial, theta, strict=True)]
        y_vec = [a - b for a, b in zip(new_grad, grad, strict=True)]
        sy = _dot(s_vec, y_vec)
        if sy > 1e-12:
            history.append((s_vec, y_vec, 1.0 / sy))
            del history[:-_MEMORY]
        converged = abs(value - new_value) < 1e-9 * max(1.0, abs(value))
        theta, value, grad = trial, new_value, new_grad
        if converged:
            break
    return theta
