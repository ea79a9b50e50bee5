"""The precedent-judge experiment: would a judge fitted to labelled lines help the gates?

    python -m bench.precedent round 16   # the candidate settings on round 16's tune rows
    python -m bench.precedent round 17   # ... and on round 17's, which decided

A logistic regression over letter runs and words (``features``, ``training``), fitted to
every tune row outside the named collection round, gives each board line of that round a
reject probability; each candidate setting lets it overrule the written gates when it is
sure. Only tune rows are read. The rule that decided whether the judge ships was written
before round 17 was scored (``tests/corpora/gates/README.md``): it did not ship, because
every setting that gained agreement on round 17 also added a false reject.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.precedent.features import vector  # noqa: E402
from bench.precedent.training import Example, Fitted, fit  # noqa: E402
from bench.quality import CORPUS, ROUNDS, judge, load, split  # noqa: E402

C = 3.0  # inverse regularisation strength, chosen on round 16
# The settings weighed for the judge: (name, reject at, approve below).
CANDIDATES: tuple[tuple[str, float | None, float | None], ...] = (
    ("rules only", None, None),
    ("judge 0.7", 0.7, 0.1),
    ("judge 0.8", 0.8, 0.1),
    ("judge 0.9", 0.9, 0.1),
    ("judge approves only", None, 0.1),
)


def examples(rows: Sequence[dict[str, Any]]) -> list[Example]:
    return [
        Example(r["text"], r["kind"] == "dossier", r["gate"] if r["decision"] == "reject" else None)
        for r in rows
    ]


def probability(fitted: Fitted, row: dict[str, Any]) -> float:
    """The fitted judge's probability that a careful reader rejects ``row``."""
    vec = vector(row["text"], row["kind"] == "dossier", fitted.idf)
    z = fitted.bias + sum(fitted.weights.get(f, 0.0) * v for f, v in vec.items())
    return 1.0 / (1.0 + math.exp(-z))


def decide(rejected: bool, p: float, reject_at: float | None, approve_below: float | None) -> bool:
    """The final verdict on a board line: the gates', unless the judge is sure otherwise."""
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
    verdicts = judge(new)
    probs = [probability(fitted, v.row) for v in verdicts]
    lines = [f"round-{name} tune rows: {len(new)} (judge fitted on the other {len(seen)})"]
    for label, reject_at, approve_below in CANDIDATES:
        agree = false_rejects = good = 0
        for v, p in zip(verdicts, probs, strict=True):
            rejected = v.decided == "reject"
            if v.row["kind"] == "board":  # the judge reads board lines only
                rejected = decide(rejected, p, reject_at, approve_below)
            agree += (v.expected == "reject") == rejected
            if v.row["kind"] == "board" and v.expected == "approve":
                good += 1
                false_rejects += rejected
        lines.append(
            f"{label:20} agree {agree}/{len(new)} ({agree / len(new):.3f}), "
            f"false rejects {false_rejects}/{good}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.precedent")
    parser.add_argument("command", choices=("round",))
    parser.add_argument("round", help="the collection round to score, e.g. 17")
    args = parser.parse_args(argv)
    print(round_report(args.round))
    return 0


if __name__ == "__main__":
    sys.exit(main())
