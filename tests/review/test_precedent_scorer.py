"""The precedent judge's fast scorer gives, bit for bit, what the plain definition gives:
:func:`vector` and a dot product with the weights, as the model was fitted and tuned."""

from __future__ import annotations

import math

import orjson

from bench.quality import CORPUS
from shared.review.precedent.features import vector
from shared.review.precedent.model import Model, Opinion, shipped


def _plain(model: Model, text: str, dossier: bool, heading: str) -> Opinion:
    vec = vector(text, dossier, model.idf, heading)
    weight = model.weights.get
    z = model.bias + sum(v * weight(f, 0.0) for f, v in vec.items())
    reject = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
    return Opinion(reject, vec, model.weights)


def test_every_corpus_line_scores_exactly_as_the_plain_definition() -> None:
    model = shipped()
    rows = [orjson.loads(x) for x in CORPUS.read_bytes().splitlines() if x.strip()]
    extra = [
        ("- Runs run run: RUN the tests [[lesson-1]] `docs/x.md`", "Rules and rules"),
        ("", ""),
        ("[observation] 用户 用户 喜欢 简洁", "用户信息"),
    ]
    cases = [(str(r["text"]), str(r.get("section") or "")) for r in rows] + extra
    for dossier in (False, True):
        for text, heading in cases:
            got = model.opinion(text, dossier, heading)
            want = _plain(model, text, dossier, heading)
            assert got.reject == want.reject, text
            assert list(got.vec.items()) == list(want.vec.items()), text
            # a second reading (from the scorer's caches) is the same opinion
            assert model.opinion(text, dossier, heading) == want
