"""The precedent judge: fit the shipped model, and measure it on lines it never saw.

    python -m bench.precedent fit        # refit shared/review/precedent/model.jsonl (tune rows)
    python -m bench.precedent round 17   # the candidate settings on one round's tune rows
    python -m bench.precedent fresh      # the fresh simulation that decided the shipped setting
    python -m bench.precedent cv --folds 5 [--rules current|fresh]  # repository-grouped CV

The judge (``shared/review/precedent``) is a logistic regression over letter runs, words
and heading words. ``fit`` fits it on every **tune** row of the corpus and writes the
model the gates read; no held-out row is ever read here. ``round`` and ``fresh`` fit it
again without the rows they score. ``fresh`` imitates the held-out part: for each
collection round it takes the gates as committed when that round's rows were committed
(before any rule was written from them, ``git archive`` of that commit into a temporary
folder), judges that round's tune rows with them, and fits the judge on every tune row
outside that round, so rules and judge both meet those repositories for the first time.
The rule that decided the shipped setting on it is in ``tests/corpora/gates/README.md``.
``cv`` (``bench/precedent/cv.py``) cross-validates the judge on the tune part, folded by
repository, for a grid of thresholds on board and dossier lines.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.quality import CORPUS, ROUNDS, judge, load, split  # noqa: E402
from shared.review.gates.second_opinion import NEVER_PASSED, PASSED  # noqa: E402
from shared.review.precedent.features import vector  # noqa: E402
from shared.review.precedent.model import MODEL_PATH, dump  # noqa: E402
from shared.review.precedent.training import Example, Fitted, fit  # noqa: E402

C = 3.0  # inverse regularisation strength
# The shipped setting, decided on the repository-grouped cross-validation (``cv``; see
# tests/corpora/gates/README.md): board lines the gates pass are rejected at p >= 0.85 and
# gradient rejects passed below p < 0.5 (``second_opinion.PASSED``). Dossier lines keep
# the rules' verdict: at p >= 0.85 the judge (fitted on memory-bank prose) rejected the
# kernel's own dossier records, the lines subcon's crystallizer writes ("[observation]
# Present in external evidence from … to …", "[conditional: next turn about [[x]]] check
# the correction in … still holds"), so the committer would hold back its own output.
REJECT_AT = 0.85
APPROVE_BELOW = 0.5
DOSSIER_REJECT_AT: float | None = None
# The settings weighed for the judge: (name, reject at, approve below).
CANDIDATES: tuple[tuple[str, float | None, float | None], ...] = (
    ("rules only", None, None),
    ("judge 0.7", 0.7, 0.1),
    ("judge 0.8", 0.8, 0.1),
    ("judge 0.9", 0.9, 0.1),
    ("judge approves only", None, 0.1),
    ("judge 0.85 / 0.35", 0.85, 0.35),
    ("shipped 0.85 / 0.5", REJECT_AT, APPROVE_BELOW),
)
# Each round's rows were committed before any rule was written from them: the gates of
# that commit never saw the round.
FRESH_COMMITS: dict[str, str] = {
    "16": "56c6d63",
    "17": "b91de4e",
    "18": "5dc0518",
    "19": "fc42b3e",
    "20": "7544d9a",
    "21": "f59166f",
    "22": "f59166f",
    "23": "5d22fb2",
    "24": "3645d25",
    "25": "c98b5ff",
    "26": "b6cadb8",
    "27": "450b040",
    "28": "7781668",
    "29": "7978dbb",
    "30": "71a28eb",
}
# Run inside an old commit's files: its own gates on the rows given on stdin.
_OLD_GATES = """
import sys, orjson
sys.path.insert(0, sys.argv[1])
from bench.quality import judge
rows = orjson.loads(sys.stdin.buffer.read())
sys.stdout.buffer.write(orjson.dumps([v.decided_gate for v in judge(rows)]))
"""


def examples(rows: Sequence[dict[str, Any]]) -> list[Example]:
    return [
        Example(
            r["text"],
            r["kind"] == "dossier",
            r["gate"] if r["decision"] == "reject" else None,
            r.get("section") or "",
        )
        for r in rows
    ]


def probability(fitted: Fitted, row: dict[str, Any]) -> float:
    """The fitted judge's probability that a careful reader rejects ``row``."""
    vec = vector(row["text"], row["kind"] == "dossier", fitted.idf, row.get("section") or "")
    z = fitted.bias + sum(fitted.weights.get(f, 0.0) * v for f, v in vec.items())
    return 1.0 / (1.0 + math.exp(-z))


def decide(rejected: bool, p: float, reject_at: float | None, approve_below: float | None) -> bool:
    """The final verdict on a board line: the gates', unless the judge is sure otherwise."""
    if not rejected and reject_at is not None and p >= reject_at:
        return True
    if rejected and approve_below is not None and p < approve_below:
        return False
    return rejected


def digest(rows: Sequence[dict[str, Any]]) -> str:
    """What the model was fitted on, so a stale model file is caught."""
    h = hashlib.sha256()
    for ex in examples(rows):
        h.update(orjson.dumps([ex.text, ex.dossier, ex.gate, ex.heading]) + b"\n")
    return h.hexdigest()


def model_bytes(path: Path = CORPUS) -> bytes:
    """The model file fitted on every tune row of the corpus at ``path``."""
    tune = split(load(path), "tune")
    fitted = fit(examples(tune), c=C)
    return dump(
        fitted,
        c=C,
        reject_at=REJECT_AT,
        approve_below=APPROVE_BELOW,
        dossier_reject_at=DOSSIER_REJECT_AT,
        digest=digest(tune),
    )


def _tally(
    rows: Sequence[dict[str, Any]],
    gates: Sequence[str | None],
    probs: Sequence[float],
    reject_at: float | None,
    approve_below: float | None,
) -> tuple[int, int, int]:
    """Agreement, false rejects and good board lines of one setting on board lines (and
    the shipped setting on dossier lines), given each row's rule gate (None: the rules
    pass it). Only ``PASSED`` gates' rejects are passed, never ``NEVER_PASSED`` ones."""
    agree = false_rejects = good = 0
    for row, gate, p in zip(rows, gates, probs, strict=True):
        rej = gate is not None
        if row["kind"] == "board":
            below = None if gate in NEVER_PASSED or gate not in PASSED else approve_below
            rej = decide(rej, p, reject_at, below)
        elif reject_at is not None:  # the judge only adds rejects to dossier lines
            rej = decide(rej, p, DOSSIER_REJECT_AT, None)
        agree += (row["decision"] == "reject") == rej
        if row["kind"] == "board" and row["decision"] == "approve":
            good += 1
            false_rejects += rej
    return agree, false_rejects, good


def _round_rows(name: str, path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Round ``name``'s tune rows, and every other tune row."""
    repos = set(orjson.loads((path.parent / ROUNDS.name).read_bytes())[name])
    tune = split(load(path), "tune")
    return (
        [r for r in tune if r["source"]["repo"] in repos],
        [r for r in tune if r["source"]["repo"] not in repos],
    )


def round_report(name: str, path: Path = CORPUS) -> str:
    """Every candidate on round ``name``'s tune rows, the judge fitted on the other tune rows."""
    new, seen = _round_rows(name, path)
    fitted = fit(examples(seen), c=C)
    rejected = [v.decided_gate for v in judge(new, rules_only=True)]
    probs = [probability(fitted, r) for r in new]
    lines = [f"round-{name} tune rows: {len(new)} (judge fitted on the other {len(seen)})"]
    for label, reject_at, approve_below in CANDIDATES:
        agree, false_rejects, good = _tally(new, rejected, probs, reject_at, approve_below)
        lines.append(
            f"{label:20} agree {agree}/{len(new)} ({agree / len(new):.3f}), "
            f"false rejects {false_rejects}/{good}"
        )
    return "\n".join(lines)


def old_gates(commit: str, rows: Sequence[dict[str, Any]]) -> list[str | None]:
    """The gate that rejects each row as committed at ``commit`` (None: passed)."""
    with tempfile.TemporaryDirectory(prefix="subcon-precedent-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "shared", "bench"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        out = subprocess.run(
            [sys.executable, "-c", _OLD_GATES, tmp],
            input=orjson.dumps(list(rows)),
            check=True,
            capture_output=True,
            cwd=tmp,
        ).stdout
    return [gate if isinstance(gate, str) else None for gate in orjson.loads(out)]


def fresh_report(path: Path = CORPUS, rounds: Sequence[str] = tuple(FRESH_COMMITS)) -> str:
    """Rules only against rules + judge (the shipped setting), each round scored with the
    gates that had not seen it and a judge fitted without it."""
    lines = []
    total = [0, 0, 0, 0, 0]  # rows, rules agree, rules false rejects, judge agree, judge false
    good_total = 0
    for name in rounds:
        new, seen = _round_rows(name, path)
        rejected = old_gates(FRESH_COMMITS[name], new)
        fitted = fit(examples(seen), c=C)
        probs = [probability(fitted, r) for r in new]
        a0, f0, good = _tally(new, rejected, probs, None, None)
        a1, f1, _ = _tally(new, rejected, probs, REJECT_AT, APPROVE_BELOW)
        for i, v in enumerate((len(new), a0, f0, a1, f1)):
            total[i] += v
        good_total += good
        lines.append(
            f"round {name} ({FRESH_COMMITS[name]}): {len(new)} rows; rules {a0}, "
            f"false rejects {f0}/{good}; rules + judge {a1}, false rejects {f1}/{good}"
        )
    n, a0, f0, a1, f1 = total
    lines.append(
        f"all: {n} rows; rules {a0} ({a0 / n:.3f}), false rejects {f0}/{good_total} "
        f"({f0 / good_total:.3f}); rules + judge {a1} ({a1 / n:.3f}), false rejects "
        f"{f1}/{good_total} ({f1 / good_total:.3f})"
    )
    return "\n".join(lines)


def cv_report(folds: int, c: float, rules: str) -> str:
    """``cv``: the tune rows folded by repository, the judge fitted without each fold."""
    from bench.precedent import cv

    rows = cv.cv_rows()
    if rules == "fresh":
        fresh = cv.fresh_gates(rows)
        judged = cv.cross_validate(
            rows, [g for _, g in fresh], folds=folds, c=c, scored=[s for s, _ in fresh]
        )
    else:
        judged = cv.cross_validate(rows, cv.current_gates(rows), folds=folds, c=c)
    head = f"cv: {folds} folds by repository, C = {c:g}, {rules} gates"
    return head + "\n" + cv.report(judged, cv.SETTINGS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.precedent")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("fit", help=f"refit {MODEL_PATH.name} from the tune rows")
    one = sub.add_parser("round", help="the candidate settings on one round's tune rows")
    one.add_argument("round", help="the collection round to score, e.g. 17")
    many = sub.add_parser("fresh", help="the fresh simulation, rounds 16-30")
    many.add_argument("rounds", nargs="*", help="only these rounds")
    folded = sub.add_parser("cv", help="repository-grouped cross-validation on the tune part")
    folded.add_argument("--folds", type=int, default=5, help="folds (whole repositories)")
    folded.add_argument("--c", type=float, default=C, help="inverse regularisation strength")
    folded.add_argument(
        "--rules",
        choices=("current", "fresh"),
        default="current",
        help="the gates as they stand, or each round's rows judged by the gates committed "
        "with them (rounds 16-31 scored)",
    )
    args = parser.parse_args(argv)
    if args.command == "fit":
        MODEL_PATH.write_bytes(model_bytes())
        print(f"wrote {MODEL_PATH}")
    elif args.command == "round":
        print(round_report(args.round))
    elif args.command == "cv":
        print(cv_report(args.folds, args.c, args.rules))
    else:
        print(fresh_report(rounds=tuple(args.rounds) or tuple(FRESH_COMMITS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
