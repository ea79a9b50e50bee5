"""The fitted precedent judge as shipped: one JSON-lines file, read at first use.

Line 1 is the header (rows fitted, regularisation, bias, the two thresholds, the gates
in column order and the digest of the training rows); every further line is
``[feature, rarity, weight, [centroid value per gate]]``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import orjson

from shared.errors import ConfigError
from shared.review.precedent.features import vector
from shared.review.precedent.training import Fitted

MODEL_PATH = Path(__file__).with_name("model.jsonl")
_DIGITS = 6


@dataclass(frozen=True)
class Opinion:
    """What the judge thinks of one line: the reject probability, and what it rests on."""

    reject: float  # probability that a careful reader rejects the line
    vec: dict[str, float]  # the line's features
    weights: Mapping[str, float]  # the model's decision weights

    @property
    def parts(self) -> dict[str, float]:
        """Each feature's push towards reject (+) or approve (-); asked for only when a
        decision is explained, so not computed for every line."""
        weights = self.weights
        return {f: v * weights[f] for f, v in self.vec.items() if f in weights}

    def cues(self, count: int = 3) -> tuple[str, ...]:
        """The features that pushed hardest towards the decision, as a reader would quote."""
        sign = 1.0 if self.reject >= 0.5 else -1.0
        parts = self.parts
        ranked = sorted(parts, key=lambda f: (-sign * parts[f], f))
        return tuple(_readable(f) for f in ranked[:count] if sign * parts[f] > 0)


@dataclass(frozen=True)
class Model(Fitted):
    """What training produced, with the thresholds to act on and the training digest."""

    reject_at: float
    approve_below: float
    digest: str

    def opinion(self, text: str, dossier: bool, heading: str = "") -> Opinion:
        vec = vector(text, dossier, self.idf, heading)
        weight = self.weights.get
        z = self.bias + sum(v * weight(f, 0.0) for f, v in vec.items())
        reject = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
        return Opinion(reject, vec, self.weights)

    def closeness(self, opinion: Opinion, gate: str) -> float:
        """Cosine of the line to the mean labelled reject of ``gate`` (0 for no such gate)."""
        centroid = self.centroids.get(gate, {})
        return sum(v * centroid.get(f, 0.0) for f, v in opinion.vec.items())


def _readable(feature: str) -> str:
    """``c: ru`` (a letter run), ``w:run tests`` (words) and ``h:status`` (a heading word)
    as the reader would quote them."""
    text = feature[2:].strip() or feature[2:]
    return f"heading: {text}" if feature.startswith("h:") else text


def dump(fitted: Fitted, *, c: float, reject_at: float, approve_below: float, digest: str) -> bytes:
    """The model file for ``fitted``: sorted, rounded, reproducible byte for byte."""
    gates = sorted(fitted.centroids)
    header = {
        "rows": fitted.rows,
        "c": c,
        "bias": round(fitted.bias, _DIGITS),
        "reject_at": reject_at,
        "approve_below": approve_below,
        "gates": gates,
        "digest": digest,
    }
    lines = [orjson.dumps(header)]
    for f in sorted(fitted.idf):
        cen = [round(fitted.centroids[g].get(f, 0.0), _DIGITS) for g in gates]
        row = [f, round(fitted.idf[f], _DIGITS), round(fitted.weights.get(f, 0.0), _DIGITS), cen]
        lines.append(orjson.dumps(row))
    return b"\n".join(lines) + b"\n"


def parse(lines: Iterable[bytes], source: str) -> Model:
    """A model from its file's lines; a malformed file is a ConfigError naming the line."""
    it = iter(enumerate(lines, 1))
    try:
        _, first = next(it)
        head = orjson.loads(first)
        gates = list(head["gates"])
        idf: dict[str, float] = {}
        weights: dict[str, float] = {}
        centroids: dict[str, dict[str, float]] = {g: {} for g in gates}
        for number, line in it:
            if not line.strip():
                continue
            try:
                feature, rarity, weight, cen = orjson.loads(line)
                idf[feature] = float(rarity)
                if weight:
                    weights[feature] = float(weight)
                for gate, value in zip(gates, cen, strict=True):
                    if value:
                        centroids[gate][feature] = float(value)
            except (ValueError, TypeError) as exc:
                raise ConfigError(f"{source}:{number}: malformed precedent feature: {exc}") from exc
        return Model(
            idf,
            weights,
            float(head["bias"]),
            centroids,
            int(head["rows"]),
            float(head["reject_at"]),
            float(head["approve_below"]),
            str(head["digest"]),
        )
    except StopIteration:
        raise ConfigError(f"{source}:1: empty precedent model") from None
    except (KeyError, ValueError, TypeError) as exc:
        raise ConfigError(f"{source}:1: malformed precedent header: {exc}") from exc


@functools.cache
def shipped() -> Model:
    """The model file beside this module, parsed once per process."""
    try:
        data = MODEL_PATH.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{MODEL_PATH}: precedent model unreadable: {exc}") from exc
    return parse(data.splitlines(), str(MODEL_PATH))
