"""Fit the review gates' precedent judge to the tune part of the gate corpus.

    python bench/precedent.py fit      # rewrite shared/review/precedent/model.jsonl
    python bench/precedent.py check    # is the shipped model the one the tune rows give?
    python bench/precedent.py fresh    # round 16 tune rows, judge fitted without them
    python bench/precedent.py round N  # every candidate setting on round N's tune rows

Only ``split == "tune"`` rows are ever read for fitting; the held-out part stays for
``bench/quality.py``. The fit is deterministic, so ``check`` refits and compares bytes.
``fresh`` is how the thresholds were first chosen: the rule gates and a judge fitted on
every other tune row, both scored on the round-16 tune rows that neither had seen;
``round 17`` is how they were re-chosen (``tests/corpora/gates/README.md``).
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


# The settings weighed for the judge: (name, reject at, approve below).
CANDIDATES = (
    ("rules only", None, None),
    ("judge 0.7", 0.7, 0.1),
    ("judge 0.8", 0.8, 0.1),
    ("judge 0.9", 0.9, 0.1),
    ("judge approves only", None, 0.1),
)


def _decide(rejected: bool, p: float, reject_at: float | None, approve_below: float | None) -> bool:
    if not rejected and reject_at is not None and p >= reject_at:
        return True
    if rejected and approve_below is not None and p < approve_below:
        return False
    return rejected


def round_report(name: str, path: Path = CORPUS) -> str:
    """Every candidate on round ``name``'s tune rows, the judge fitted on the other tune rows."""
    repos = set(orjson.loads((path.parent / ROUNDS.name).read_bytes())[name])
    tune = split(load(path), "tune")
    seen = [r for r in tune if r["source"]["repo"] not in repos]
    new = [r for r in tune if r["source"]["repo"] in repos]
    fitted = fit(examples(seen), c=C)
    verdicts = judge(new, rules_only=True)
    probs = [_probability(fitted, v.row) for v in verdicts]
    lines = [f"round-{name} tune rows: {len(new)} (judge fitted on the other {len(seen)})"]
    for label, reject_at, approve_below in CANDIDATES:
        agree = false_rejects = good = 0
        for v, p in zip(verdicts, probs, strict=True):
            rejected = v.decided == "reject"
            if v.row["kind"] == "board":  # the judge reads board lines only
                rejected = _decide(rejected, p, reject_at, approve_below)
            agree += (v.expected == "reject") == rejected
            if v.row["kind"] == "board" and v.expected == "approve":
                good += 1
                false_rejects += rejected
        lines.append(
            f"{label:20} agree {agree}/{len(new)} ({agree / len(new):.3f}), "
            f"false rejects {false_rejects}/{good}"
        )
    return "\n".join(lines)


def fresh_report(path: Path = CORPUS) -> str:
    """Round 16's tune rows, as the settings were first chosen."""
    return round_report("16", path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/precedent.py")
    parser.add_argument("command", choices=("fit", "check", "fresh", "round"))
    parser.add_argument("round", nargs="?", help="with `round`: the collection round to score")
    args = parser.parse_args(argv)
    if args.command == "fresh":
        print(fresh_report())
        return 0
    if args.command == "round":
        if not args.round:
            parser.error("round: name the collection round, e.g. 17")
        print(round_report(args.round))
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
