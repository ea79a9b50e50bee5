"""The fitted precedent judge as shipped: one JSON-lines file, read at first use.

Line 1 is the header (rows fitted, regularisation, bias, the board's two thresholds, the
dossier reject threshold (null: dossier lines are not judged), the gates in column order
and the digest of the training rows); every further line is
``[feature, rarity, weight, [centroid value per gate]]``.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections import Counter
from collections.abc import ItemsView, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import orjson

from shared.errors import ConfigError
from shared.review.precedent.features import (
    DOSSIER,
    heading_runs,
    letter_runs_of,
    readable,
    word_runs,
)
from shared.review.precedent.training import Fitted

MODEL_PATH = Path(__file__).with_name("model.jsonl")
_DIGITS = 6


@dataclass(frozen=True)
class Opinion:
    """What the judge thinks of one line: the reject probability, and what it rests on."""

    reject: float  # probability that a careful reader rejects the line
    vec: Mapping[str, float]  # the line's features
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
    dossier_reject_at: float | None = None  # None: dossier lines keep the rules' verdict

    def opinion(self, text: str, dossier: bool, heading: str = "") -> Opinion:
        """The judge's opinion of ``text`` under ``heading``: the same vector and
        probability as :func:`~shared.review.precedent.features.vector` and a dot product
        with the weights give, computed by :class:`_Scorer` and kept per readable line."""
        return self._scorer.opinion(readable(text), dossier, heading)

    def number_features(self) -> None:
        """Number the features now rather than at the first line judged (the shipped
        model does it as it is read)."""
        self._scorer  # noqa: B018 - building the cached scorer is the point

    @functools.cached_property
    def _scorer(self) -> _Scorer:
        # built at the first opinion at the latest: a model is not changed once it judges
        return _Scorer(self)

    def closeness(self, opinion: Opinion, gate: str) -> float:
        """Cosine of the line to the mean labelled reject of ``gate`` (0 for no such gate)."""
        centroid = self.centroids.get(gate, {})
        return sum(v * centroid.get(f, 0.0) for f, v in opinion.vec.items())


# Each cache is dropped whole when full. A judged line's vector is about 15 KB, so
# lines are kept by the board's worth; a word's or a heading's numbers are small.
_LINES = 1024
_CACHED = 65536


class _Scorer:
    """A model's features numbered once, so that a line is scored by list indexing.

    The judge reads every line of a board, and a line has a couple of hundred letter
    runs: scoring one run by run through string-keyed dicts was most of a review's time.
    Here each distinct word's known runs become feature numbers once, each distinct
    heading is weighed once, and each distinct readable line (a line without its
    pointers and modal tags) is judged once. The arithmetic is
    :func:`~shared.review.precedent.features.vector`'s and :meth:`Model.opinion`'s own,
    operation for operation and in the same order, so every value is bit-identical;
    ``tests/review/test_precedent_scorer.py`` checks it against them on every corpus line.
    """

    def __init__(self, model: Model) -> None:
        names = list(model.idf)
        self._model = model
        self._names = names
        self._number = dict(zip(names, range(len(names)), strict=True))
        self._idf = list(model.idf.values())
        self._weight = list(map(model.weights.get, names, itertools.repeat(0.0)))
        self._dossier_weight = model.weights.get(DOSSIER, 0.0)
        self._words: dict[str, tuple[int, ...]] = {}
        self._headings: dict[str, tuple[list[int], list[float]]] = {}
        self._opinions: dict[tuple[str, bool, str], Opinion] = {}

    def opinion(self, text: str, dossier: bool, heading: str) -> Opinion:
        key = (text, dossier, heading)
        found = self._opinions.get(key)
        if found is None:
            if len(self._opinions) >= _LINES:
                self._opinions.clear()
            found = self._opinions[key] = self._judge(text, dossier, heading)
        return found

    def _judge(self, text: str, dossier: bool, heading: str) -> Opinion:
        runs: list[int] = []
        for word in text.lower().split():
            runs += self._runs(word)
        ids, values = self._weigh(Counter(runs))
        more_ids, more = self._weigh(self._numbered(word_runs(text)))
        ids += more_ids
        values += more
        if heading:
            more_ids, more = self._heading(heading)
            ids += more_ids
            values += more
        weights = map(self._weight.__getitem__, ids)
        products = list(map(operator.mul, values, weights))
        if dossier:
            products.append(1.0 * self._dossier_weight)
        model = self._model
        z = model.bias + sum(products)
        reject = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
        return Opinion(reject, _Vector(self._names, ids, values, dossier), model.weights)

    def _runs(self, word: str) -> tuple[int, ...]:
        found = self._words.get(word)
        if found is None:
            if len(self._words) >= _CACHED:
                self._words.clear()
            number = self._number.get
            found = tuple(i for f in letter_runs_of(word) if (i := number(f)) is not None)
            self._words[word] = found
        return found

    def _heading(self, heading: str) -> tuple[list[int], list[float]]:
        found = self._headings.get(heading)
        if found is None:
            if len(self._headings) >= _CACHED:
                self._headings.clear()
            found = self._headings[heading] = self._weigh(self._numbered(heading_runs(heading)))
        return list(found[0]), list(found[1])

    def _numbered(self, counts: Counter[str]) -> dict[int, int]:
        """The known features of ``counts`` by number, in its order (unknown dropped)."""
        number = self._number.get
        return {i: n for f, n in counts.items() if (i := number(f)) is not None}

    def _weigh(self, counts: Mapping[int, int]) -> tuple[list[int], list[float]]:
        """:func:`~shared.review.precedent.features.weigh` over feature numbers."""
        ids = list(counts)
        rarity = self._idf
        log = math.log
        raw = [rarity[i] if n == 1 else (1.0 + log(n)) * rarity[i] for i, n in counts.items()]
        norm = math.sqrt(sum(map(operator.mul, raw, raw)))
        if not norm:
            return [], []
        return ids, list(map(operator.truediv, raw, itertools.repeat(norm)))


class _Vector(Mapping[str, float]):
    """A judged line's features by name, made into a dict only when asked: only a line
    whose decision is explained (a sure reject, its nearest gate and cues) needs them."""

    __slots__ = ("_built", "_dossier", "_ids", "_names", "_values")

    def __init__(self, names: list[str], ids: list[int], values: list[float], dossier: bool):
        self._names, self._ids, self._values, self._dossier = names, ids, values, dossier
        self._built: dict[str, float] | None = None

    def _dict(self) -> dict[str, float]:
        if self._built is None:
            built = dict(zip(map(self._names.__getitem__, self._ids), self._values, strict=True))
            if self._dossier:
                built[DOSSIER] = 1.0
            self._built = built
        return self._built

    def __getitem__(self, feature: str) -> float:
        return self._dict()[feature]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._ids) + self._dossier

    def items(self) -> ItemsView[str, float]:
        return self._dict().items()


def _readable(feature: str) -> str:
    """``c: ru`` (a letter run), ``w:run tests`` (words) and ``h:status`` (a heading word)
    as the reader would quote them."""
    text = feature[2:].strip() or feature[2:]
    return f"heading: {text}" if feature.startswith("h:") else text


def dump(
    fitted: Fitted,
    *,
    c: float,
    reject_at: float,
    approve_below: float,
    digest: str,
    dossier_reject_at: float | None = None,
) -> bytes:
    """The model file for ``fitted``: sorted, rounded, reproducible byte for byte."""
    gates = sorted(fitted.centroids)
    header = {
        "rows": fitted.rows,
        "c": c,
        "bias": round(fitted.bias, _DIGITS),
        "reject_at": reject_at,
        "approve_below": approve_below,
        "dossier_reject_at": dossier_reject_at,
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
            None if head.get("dossier_reject_at") is None else float(head["dossier_reject_at"]),
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
    model = parse(data.splitlines(), str(MODEL_PATH))
    model.number_features()
    return model
