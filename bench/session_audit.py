"""Label consistency of the real-session corpus: a second careful reader, blind, on tune sessions.

    python bench/session_audit.py sample --out DIR [--size N]
    python bench/session_audit.py compare --labels SECOND.jsonl [--write]
    python bench/session_audit.py report   # tests/corpora/real_sessions/audit.jsonl

``sample`` draws a stratified random sample (fixed seed) of the **tune** sessions, strata =
the label's category, proportional allocation, and copies into ``DIR/<n>/`` only what a
labeller needs: the excerpt in its tool's format and the board (``board`` lines and their
``dossiers``). Neither the label, the collection's notes nor any scanner output is copied, so
the second reader sees no outcome and no reason. Held-out sessions are filtered out before
anything else happens and are never written.

``compare`` joins the second reader's labels (``id``, ``expect`` in the corpus's form and
``why``; once adjudicated, ``verdict`` and ``note``) back to the corpus and prints how often
two readers give a session the same outcome set (the figure ``bench.real_sessions`` calls
agreement), and how far their outcomes overlap, each with a 95% Wilson interval. It is the
ceiling the scanner's agreement target should be read against: a scanner cannot agree with
one careful reader more often than two careful readers agree with each other, except by
chance. ``--write`` writes ``tests/corpora/real_sessions/audit.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.label_audit import _allocate, _fmt  # noqa: E402
from bench.real_sessions import Session, load, outcomes  # noqa: E402

AUDIT = ROOT / "tests" / "corpora" / "real_sessions" / "audit.jsonl"
SEED = 20261208
SAMPLE_SIZE = 40
# Adjudication of a disagreement against labelling.md, read from the two readers' reasons:
# one reader wrong, each missing an outcome the guide gives, or the guide silent.
VERDICTS = ("corpus-wrong", "audit-wrong", "both-incomplete", "ambiguous")


def tune_sessions() -> list[Session]:
    """The tune sessions only: the held-out part never leaves this function."""
    return [s for s in load() if s.part == "tune"]


def sample(sessions: Sequence[Session], size: int = SAMPLE_SIZE) -> list[Session]:
    """A stratified random sample by category, in a shuffled order."""
    strata: dict[tuple[str, str], list[Session]] = defaultdict(list)
    for s in sessions:
        strata[(s.category, "")].append(s)
    rng = random.Random(SEED)
    picked: list[Session] = []
    for key, n in sorted(_allocate({k: len(v) for k, v in strata.items()}, size).items()):
        pool = sorted(strata[key], key=lambda s: s.id)
        picked.extend(rng.sample(pool, n))
    rng.shuffle(picked)
    return picked


def write_blind(picked: Sequence[Session], out: Path) -> None:
    """Copy each picked session's excerpt and board, and nothing else, to ``out/<n>/``."""
    out.mkdir(parents=True, exist_ok=True)
    index = []
    for n, s in enumerate(picked, 1):
        folder = out / f"{n:02d}"
        folder.mkdir(exist_ok=True)
        board_doc = json.loads((s.transcript.parent / "board.json").read_text(encoding="utf-8"))
        blind_board = {k: board_doc[k] for k in ("repo", "board", "dossiers") if k in board_doc}
        (folder / "board.json").write_text(
            json.dumps(blind_board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        shutil.copyfile(s.transcript, folder / s.transcript.name)
        index.append({"n": f"{n:02d}", "id": s.id, "format": s.fmt, "file": s.transcript.name})
    (out / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")


def _outcome_set(expect: Sequence[dict[str, Any]]) -> set[tuple[str, str]]:
    return outcomes((e.get("marker"), e["trajectory"]) for e in expect if e.get("trajectory"))


def audit_rows(
    second: Sequence[dict[str, Any]], sessions: Sequence[Session]
) -> list[dict[str, Any]]:
    """One row per audited session: both outcome sets and whether they agree."""
    by_id = {s.id: s for s in sessions}
    rows = []
    for label in second:
        s = by_id.get(label["id"])
        if s is None:
            raise SystemExit(f"{label['id']}: not a tune session of the corpus")
        mine = _outcome_set(label.get("expect", ()))
        corpus = s.expected()
        row = {
            "n": label.get("n", ""),
            "id": s.id,
            "category": s.category,
            "corpus": sorted(map(list, corpus)),
            "audit": sorted(map(list, mine)),
            "audit_expect": label.get("expect", []),
            "audit_why": label.get("why", ""),
            "agrees": mine == corpus,
        }
        for key in ("verdict", "note"):
            if key in label:
                row[key] = label[key]
        rows.append(row)
    return rows


def report(rows: Sequence[dict[str, Any]], out: Any = sys.stdout) -> None:
    n = len(rows)
    agree = sum(r["agrees"] for r in rows)
    print(f"sessions: {n}; same outcome set: {_fmt(agree, n)}", file=out)
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_cat[r["category"]].append(r)
    for cat, sel in sorted(by_cat.items()):
        print(f"  {cat:16} {_fmt(sum(r['agrees'] for r in sel), len(sel))}", file=out)
    # Outcome-level overlap: the corpus's outcomes the second reader also gave, and the
    # second reader's outcomes the corpus also has, per trajectory.
    for traj in ("STRENGTHENING", "WEAKENING", "NEW_SIGNAL"):
        both = corpus_n = audit_n = 0
        for r in rows:
            c = {tuple(o) for o in r["corpus"] if o[1] == traj}
            a = {tuple(o) for o in r["audit"] if o[1] == traj}
            both += len(c & a)
            corpus_n += len(c)
            audit_n += len(a)
        print(
            f"  {traj:16} corpus outcomes the second reader gave {_fmt(both, corpus_n)};"
            f" second reader's outcomes in the corpus {_fmt(both, audit_n)}",
            file=out,
        )
    nothing = [r for r in rows if not r["corpus"]]
    print(
        "  second reader gives an outcome where the corpus has none: "
        + _fmt(sum(bool(r["audit"]) for r in nothing), len(nothing)),
        file=out,
    )
    verdicts = Counter(r.get("verdict", "not adjudicated") for r in rows if not r["agrees"])
    if verdicts:
        listed = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
        print(f"  disagreements: {listed}", file=out)


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_sample = sub.add_parser("sample")
    p_sample.add_argument("--out", type=Path, required=True)
    p_sample.add_argument("--size", type=int, default=SAMPLE_SIZE)
    p_compare = sub.add_parser("compare")
    p_compare.add_argument("--labels", type=Path, required=True)
    p_compare.add_argument("--write", action="store_true")
    sub.add_parser("report")
    args = parser.parse_args(argv)
    if args.cmd == "sample":
        picked = sample(tune_sessions(), args.size)
        write_blind(picked, args.out)
        print(f"{len(picked)} tune sessions written to {args.out}")
        return 0
    if args.cmd == "compare":
        rows = audit_rows(_read_jsonl(args.labels), tune_sessions())
        if AUDIT.exists():
            # Keep the adjudications already written beside the rows they judge.
            judged = {r["id"]: r for r in _read_jsonl(AUDIT) if "verdict" in r}
            for row in rows:
                if row["id"] in judged and not row["agrees"]:
                    row["verdict"] = judged[row["id"]]["verdict"]
                    row["note"] = judged[row["id"]]["note"]
        report(rows)
        if args.write:
            AUDIT.write_text(
                "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
            )
        return 0
    report(_read_jsonl(AUDIT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
