"""Fit the review gates' precedent judge to the tune part of the gate corpus.

    python bench/precedent.py fit      # rewrite shared/review/precedent/model.jsonl
    python bench/precedent.py check    # is the shipped model the one the tune rows give?
    python bench/precedent.py fresh    # round 16 tune rows, judge fitted without them

Only ``split == "tune"`` rows are ever read for fitting; the held-out part stays for
``bench/quality.py``. The fit is deterministic, so ``check`` refits and compares bytes.
``fresh`` is how the thresholds were chosen: the rule gates and a judge fitted on every
other tune row, both scored on the round-16 tune rows that neither had seen.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.quality import CORPUS, ROUNDS, judge, load, split  # noqa: E402
from shared.review.precedent.features import vector  # noqa: E402
from shared.review.precedent.model import MODEL_PATH, dump  # noqa: E402
from shared.review.precedent.training import Example, Fitted, fit  # noqa: E402

C = 3.0
REJECT_AT = 0.7
APPROVE_BELOW = 0.1


def examples(rows: Sequence[dict[str, Any]]) -> list[Example]:
    return [
        Example(r["text"], r["kind"] == "dossier", r["gate"] if r["decision"] == "reject" else None)
        for r in rows
    ]


def digest(rows: Sequence[dict[str, Any]]) -> str:
    """Names the training rows: text, kind and label of each, in corpus order."""
    h = hashlib.sha256()
    for r in rows:
        h.update(orjson.dumps([r["text"], r["kind"], r["decision"], r["gate"]]) + b"\n")
    return h.hexdigest()


def model_bytes(path: Path = CORPUS) -> bytes:
    tune = split(load(path), "tune")
    fitted = fit(examples(tune), c=C)
    return dump(fitted, c=C, reject_at=REJECT_AT, approve_below=APPROVE_BELOW, digest=digest(tune))


def _probability(fitted: Fitted, row: dict[str, Any]) -> float:
    vec = vector(row["text"], row["kind"] == "dossier", fitted.idf)
    z = fitted.bias + sum(fitted.weights.get(f, 0.0) * v for f, v in vec.items())
    return 1.0 / (1.0 + math.exp(-z))


def fresh_report(path: Path = CORPUS) -> str:
    """Rules alone against rules plus a judge fitted without round 16, on round 16's tune rows."""
    repos = set(orjson.loads((path.parent / ROUNDS.name).read_bytes())["16"])
    tune = split(load(path), "tune")
    seen = [r for r in tune if r["source"]["repo"] not in repos]
    new = [r for r in tune if r["source"]["repo"] in repos]
    fitted = fit(examples(seen), c=C)
    out = []
    for v in judge(new, rules_only=True):
        p = _probability(fitted, v.row)
        rejected = v.decided == "reject"
        if v.row["kind"] != "board":
            pass  # the judge reads board lines only
        elif not rejected and p >= REJECT_AT:
            rejected = True
        elif rejected and p < APPROVE_BELOW:
            rejected = False
        out.append((v, rejected))
    rules = sum(v.agrees for v, _ in out)
    both = sum((v.expected == "reject") == rejected for v, rejected in out)
    good = [(v, rej) for v, rej in out if v.row["kind"] == "board" and v.expected == "approve"]
    return (
        f"round-16 tune rows: {len(new)} (judge fitted on the other {len(seen)} tune rows)\n"
        f"rules alone: {rules} agree ({rules / len(new):.3f}), "
        f"false rejects {sum(v.decided == 'reject' for v, _ in good)}/{len(good)}\n"
        f"rules + judge: {both} agree ({both / len(new):.3f}), "
        f"false rejects {sum(rej for _, rej in good)}/{len(good)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/precedent.py")
    parser.add_argument("command", choices=("fit", "check", "fresh"))
    args = parser.parse_args(argv)
    if args.command == "fresh":
        print(fresh_report())
        return 0
    data = model_bytes()
    if args.command == "fit":
        MODEL_PATH.write_bytes(data)
        print(f"wrote {MODEL_PATH.relative_to(ROOT)} ({len(data):,} bytes)")
        return 0
    same = MODEL_PATH.exists() and MODEL_PATH.read_bytes() == data
    print("shipped model matches the tune rows" if same else "shipped model is stale: refit")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
