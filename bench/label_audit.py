"""Label consistency of the review-gate corpus: a second careful reader, blind, on tune rows.

    python bench/label_audit.py sample --out BLIND.jsonl [--corpus LINES.jsonl]
    python bench/label_audit.py compare --labels MINE.jsonl [--corpus LINES.jsonl] [--write]
    python bench/label_audit.py report      # the figures of tests/corpora/gates/audit.jsonl

``--dossier`` (on each command) runs the same audit on dossier rows alone, with its own seed
and sample size, into ``audit_dossier.jsonl``: the first audit held only 21 dossier rows.

``sample`` draws a stratified random sample (fixed seed) of the corpus's **tune** rows,
strata = collection rounds 1-13 / 14-15 x corpus decision, proportional allocation, and
writes only ``id``, ``text``, ``kind`` and ``source.path`` in a shuffled order, so the
second reader sees neither decision, gate nor reason (nor which stratum a row is in).
Held-out rows are filtered out before anything else happens and are never written.

``compare`` joins the second reader's labels (``id``, ``decision``, ``gate``, ``reason``
and, once adjudicated, ``verdict`` and ``note``) back to the corpus and prints agreement
on approve/reject and on the gate among agreed rejects, overall and per stratum, each with
a 95% Wilson interval. ``--write`` writes ``tests/corpora/gates/audit.jsonl``, which keeps
the corpus label each row had when it was compared (rows corrected afterwards carry
``"corrected": true``). The sample is drawn from the corpus's labels, so after a label
correction it is only re-drawn from the corpus as it was (the audit of 2026-12-01 used
``git show dfe4f8c:tests/corpora/gates/lines.jsonl``); ``report`` needs only the audit file.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.quality import CORPUS, load, round_repos  # noqa: E402

AUDIT = ROOT / "tests" / "corpora" / "gates" / "audit.jsonl"
SEED = 20261201
SAMPLE_SIZE = 240
# The dossier audit (session of 2026-12-08): dossier rows only, its own seed and file.
DOSSIER_AUDIT = AUDIT.with_name("audit_dossier.jsonl")
DOSSIER_SEED = 20261208
DOSSIER_SIZE = 200
ROUND_GROUPS = ("1-13", "14-15")
# Adjudication of a disagreement against the README's written conventions.
VERDICTS = ("corpus-wrong", "audit-wrong", "ambiguous")


def round_group(row: dict[str, Any], fresh: frozenset[str]) -> str:
    return "14-15" if row["source"]["repo"] in fresh else "1-13"


def tune_rows(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The tune rows only: the held-out part never leaves this function."""
    return [r for r in load(path) if r["split"] == "tune"]


def _allocate(sizes: dict[tuple[str, str], int], total: int) -> dict[tuple[str, str], int]:
    """Proportional allocation with largest remainders (deterministic tie order)."""
    n = sum(sizes.values())
    exact = {k: total * v / n for k, v in sizes.items()}
    alloc = {k: math.floor(x) for k, x in exact.items()}
    rest = total - sum(alloc.values())
    for k in sorted(exact, key=lambda k: (alloc[k] - exact[k], k))[:rest]:
        alloc[k] += 1
    return alloc


def sample(
    rows: Sequence[dict[str, Any]], fresh: frozenset[str], size: int = SAMPLE_SIZE, seed: int = SEED
) -> list[dict[str, Any]]:
    """A stratified random sample of tune rows, shuffled, in corpus-row form."""
    assert all(r["split"] == "tune" for r in rows)
    strata: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        strata.setdefault((round_group(r, fresh), r["decision"]), []).append(r)
    alloc = _allocate({k: len(v) for k, v in strata.items()}, size)
    rng = random.Random(seed)
    picked: list[dict[str, Any]] = []
    for key in sorted(strata):
        picked.extend(rng.sample(strata[key], alloc[key]))
    rng.shuffle(picked)
    return picked


def blind(picked: Sequence[dict[str, Any]], with_section: bool = False) -> list[dict[str, Any]]:
    out = []
    for i, r in enumerate(picked):
        row = {"id": i, "text": r["text"], "kind": r["kind"], "path": r["source"]["path"]}
        if with_section:
            # A dossier line is read under its heading (the gate sees it too).
            row["headings"] = r.get("headings") or []
        out.append(row)
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def _fmt(k: int, n: int) -> str:
    if n == 0:
        return "n/a"
    lo, hi = wilson(k, n)
    pct = 100 * k / n if n else 0.0
    return f"{k}/{n} = {pct:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def kappa(rows: Sequence[dict[str, Any]]) -> float:
    """Cohen's kappa of the two readers on approve/reject (agreement beyond chance)."""
    n = len(rows)
    observed = sum(bool(r["decision_agrees"]) for r in rows) / n
    a = sum(bool(r["audit_decision"] == "approve") for r in rows) / n
    c = sum(bool(r["corpus_decision"] == "approve") for r in rows) / n
    chance = a * c + (1 - a) * (1 - c)
    return (observed - chance) / (1 - chance)


def audit_rows(
    picked: Sequence[dict[str, Any]], labels: dict[int, dict[str, Any]], fresh: frozenset[str]
) -> list[dict[str, Any]]:
    out = []
    for i, r in enumerate(picked):
        lab = labels[i]
        agree = lab["decision"] == r["decision"]
        row: dict[str, Any] = {
            "text": r["text"],
            "kind": r["kind"],
            "source": r["source"],
            "round": round_group(r, fresh),
            "audit_decision": lab["decision"],
            "audit_gate": lab.get("gate"),
            "audit_reason": lab["reason"],
            "corpus_decision": r["decision"],
            "corpus_gate": r["gate"],
            "decision_agrees": agree,
            "gate_agrees": (agree and r["decision"] == "reject" and lab.get("gate") == r["gate"])
            if agree and r["decision"] == "reject"
            else None,
        }
        disagrees = not agree or row["gate_agrees"] is False
        if disagrees:
            row["verdict"] = lab.get("verdict")
            row["note"] = lab.get("note")
        if lab.get("corrected"):
            row["corrected"] = True
        out.append(row)
    return out


def report(rows: Sequence[dict[str, Any]], out: Any = sys.stdout) -> None:
    def part(name: str, sel: Sequence[dict[str, Any]]) -> None:
        k = sum(r["decision_agrees"] for r in sel)
        rej = [r for r in sel if r["gate_agrees"] is not None]
        g = sum(bool(r["gate_agrees"]) for r in rej)
        good = [r for r in sel if r["kind"] == "board" and r["corpus_decision"] == "approve"]
        fr = sum(r["audit_decision"] == "reject" for r in good)
        print(
            f"{name:<28} decision {_fmt(k, len(sel))}; gate among agreed rejects "
            f"{_fmt(g, len(rej))}; audit rejects of corpus-good board lines "
            f"{_fmt(fr, len(good))}",
            file=out,
        )

    part("all", rows)
    print(f"{'':<28} Cohen's kappa on approve/reject {kappa(rows):.3f}", file=out)
    for grp in ROUND_GROUPS:
        part(f"rounds {grp}", [r for r in rows if r["round"] == grp])
    for grp in ROUND_GROUPS:
        for dec in ("approve", "reject"):
            part(
                f"rounds {grp} corpus {dec}",
                [r for r in rows if r["round"] == grp and r["corpus_decision"] == dec],
            )
    for kind in ("board", "dossier"):
        part(f"kind {kind}", [r for r in rows if r["kind"] == kind])
    dis = [r for r in rows if "verdict" in r]
    print(
        f"disagreements: {len(dis)} "
        f"({sum(not r['decision_agrees'] for r in dis)} decision, "
        f"{sum(r['decision_agrees'] for r in dis)} gate only)",
        file=out,
    )
    for grp in ("all", *ROUND_GROUPS):
        sel = [r for r in dis if grp == "all" or r["round"] == grp]
        print(f"  verdicts {grp}: {dict(Counter(r['verdict'] for r in sel))}", file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("--labels", type=Path, required=True)
    c.add_argument("--write", action="store_true")
    for p in (s, c):
        p.add_argument("--corpus", type=Path, default=CORPUS)
        p.add_argument(
            "--dossier",
            action="store_true",
            help=f"the dossier audit: {DOSSIER_SIZE} dossier rows, seed {DOSSIER_SEED},"
            f" written to {DOSSIER_AUDIT.name}",
        )
    r = sub.add_parser("report")
    r.add_argument("--dossier", action="store_true")
    args = ap.parse_args(argv)
    audit_path = DOSSIER_AUDIT if args.dossier else AUDIT
    if args.cmd == "report":
        report(load(audit_path))
        return 0
    fresh = round_repos()
    if args.dossier:
        rows = [r for r in tune_rows(args.corpus) if r["kind"] == "dossier"]
        picked = sample(rows, fresh, DOSSIER_SIZE, DOSSIER_SEED)
    else:
        picked = sample(tune_rows(args.corpus), fresh)
    if args.cmd == "sample":
        blind_rows = blind(picked, with_section=args.dossier)
        args.out.write_bytes(b"".join(orjson.dumps(b) + b"\n" for b in blind_rows))
        print(f"wrote {len(picked)} blind rows to {args.out}")
        return 0
    labels = {int(x["id"]): x for x in load(args.labels)}
    missing = set(range(len(picked))) - set(labels)
    if missing:
        print(f"{args.labels}: no label for ids {sorted(missing)}", file=sys.stderr)
        return 1
    rows = audit_rows(picked, labels, fresh)
    report(rows)
    if args.write:
        audit_path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
        print(f"wrote {audit_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
