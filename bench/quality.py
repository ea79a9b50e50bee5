"""Review-gate quality: agreement with a careful reader on real memory lines.

    python bench/quality.py [--split heldout|tune] [--half A|B] [--misses] [--no-sections]
                            [--rules-only]

Scores ``shared/review/gates`` against ``tests/corpora/gates/lines.jsonl`` (real lines from
public agent-memory files, labelled by the committer's review rules; see that folder's README).
Pure Python, no services. ``bench/run.py --only quality`` reports the rows, among them the
held-out rows of the newest collection rounds apart (``rounds.json``: repositories whose
rows were never shown while the current rules were written) and dossier and board lines
apart (issue #30's targets); this script also prints both kinds' figures, the confusion by
gate and, with ``--misses``, every disagreement of the part it is given (tune only while
writing rules).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shared.review.allowlist import FileKind  # noqa: E402
from shared.review.gates.base import ReviewContext  # noqa: E402
from shared.review.gates.registry import review_claim, review_rules  # noqa: E402

CORPUS = ROOT / "tests" / "corpora" / "gates" / "lines.jsonl"
ROUNDS = ROOT / "tests" / "corpora" / "gates" / "rounds.json"
# The newest rounds (14-36, sessions of 2026-12-01 to -08): their held-out rows were never
# shown to whoever wrote the current rules (the "fresh" measurement).
FRESH_ROUNDS = tuple(str(n) for n in range(14, 37))
AGREEMENT_TARGET = 0.85
# Issue #30's targets, with dossier and board lines reported apart.
DOSSIER_AGREEMENT_TARGET = 0.85
BOARD_AGREEMENT_TARGET = 0.88
FALSE_REJECT_TARGET = 0.08
KINDS = ("dossier", "board")
_CONTEXTS = {
    "board": ReviewContext("memory/CLAUDE.md", FileKind.BOARD),
    "dossier": ReviewContext("memory/entities/corpus.md", FileKind.DOSSIER),
}


@dataclass(frozen=True)
class Verdict:
    """One corpus row and what the gates decided on it."""

    row: dict[str, Any]
    decided_gate: str | None  # None on approve
    reason: str | None

    @property
    def expected(self) -> str:
        return str(self.row["decision"])

    @property
    def decided(self) -> str:
        return "approve" if self.decided_gate is None else "reject"

    @property
    def agrees(self) -> bool:
        return self.expected == self.decided


def load(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The corpus rows, in file order."""
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def context(row: dict[str, Any], *, sections: bool = True) -> ReviewContext:
    """The row's kind and, unless ``sections`` is off, the heading it sits under in its
    source file and the trail of headings above it (``null`` when the line, or its trail,
    could not be found there: judged with what is known)."""
    base = _CONTEXTS[row["kind"]]
    section = row.get("section") if sections else None
    if not section:
        return base
    return ReviewContext(base.path, base.kind, section, tuple(row.get("headings") or ()))


def judge(
    rows: Sequence[dict[str, Any]], *, sections: bool = True, rules_only: bool = False
) -> list[Verdict]:
    """Run each row through the gate set of its kind, under its heading, and the precedent
    judge unless ``rules_only``."""
    review = review_rules if rules_only else review_claim
    out = []
    for r in rows:
        finding = review(r["text"], context(r, sections=sections))
        if finding is None:
            out.append(Verdict(r, None, None))
        else:
            out.append(Verdict(r, finding.gate, finding.reason))
    return out


@dataclass(frozen=True)
class Score:
    """Agreement figures for one part of the corpus."""

    lines: int
    agreement: float
    good_board: int
    false_rejects: int
    gate_agreement: float  # of expected rejects the gates rejected, share with the same gate

    @property
    def false_reject_rate(self) -> float:
        return self.false_rejects / self.good_board if self.good_board else 0.0


def score(verdicts: Sequence[Verdict]) -> Score:
    good = [v for v in verdicts if v.row["kind"] == "board" and v.expected == "approve"]
    caught = [v for v in verdicts if v.expected == "reject" and v.decided == "reject"]
    same_gate = sum(1 for v in caught if v.decided_gate == v.row["gate"])
    return Score(
        lines=len(verdicts),
        agreement=sum(v.agrees for v in verdicts) / len(verdicts) if verdicts else 0.0,
        good_board=len(good),
        false_rejects=sum(1 for v in good if v.decided == "reject"),
        gate_agreement=same_gate / len(caught) if caught else 0.0,
    )


def of_kind(verdicts: Sequence[Verdict], kind: str) -> list[Verdict]:
    """The verdicts on lines judged as ``kind`` (``board`` or ``dossier``)."""
    return [v for v in verdicts if v.row["kind"] == kind]


def confusion(verdicts: Sequence[Verdict]) -> str:
    """Expected gate (rows) against decided gate (columns); ``approve`` is no gate."""
    counts = Counter((v.row["gate"] or "approve", v.decided_gate or "approve") for v in verdicts)
    labels = sorted({k for pair in counts for k in pair}, key=lambda g: (g != "approve", g))
    width = max(len(x) for x in labels) + 2
    head = "expected \\ decided".ljust(20) + "".join(x.rjust(width) for x in labels)
    lines = [head]
    for exp in labels:
        cells = "".join(str(counts.get((exp, got), 0)).rjust(width) for got in labels)
        lines.append(exp.ljust(20) + cells)
    return "\n".join(lines)


def split(rows: Sequence[dict[str, Any]], part: str) -> list[dict[str, Any]]:
    return [r for r in rows if r["split"] == part]


def half(rows: Sequence[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """Tune half ``A`` or ``B``: whole repositories, by ``sha256("ab:" + repo)``.

    Rules are drafted from half-A misses and kept only when half B does not get worse,
    so a rule that fits one house style shows up before the held-out part is scored.
    """
    want = 0 if name == "A" else 1
    return [
        r
        for r in rows
        if int(hashlib.sha256(("ab:" + r["source"]["repo"]).encode()).hexdigest()[:8], 16) % 2
        == want
    ]


def round_repos(rounds: Sequence[str] = FRESH_ROUNDS, path: Path = ROUNDS) -> frozenset[str]:
    """The repositories first collected in ``rounds`` (``rounds.json``)."""
    table = orjson.loads(path.read_bytes())
    return frozenset(repo for name in rounds for repo in table[name])


def fresh(rows: Sequence[dict[str, Any]], repos: frozenset[str]) -> list[dict[str, Any]]:
    """The rows of ``repos``: for held-out rows of the newest round, lines no rule has seen."""
    return [r for r in rows if r["source"]["repo"] in repos]


def bench_quality(path: Path = CORPUS, *, out: Any = sys.stderr) -> list[dict[str, Any]]:
    """The ``quality`` section's rows; the held-out confusion goes to ``out``."""
    rows = load(path)
    held = judge(split(rows, "heldout"))
    tune = judge(split(rows, "tune"))
    h, t = score(held), score(tune)
    new = round_repos(path=path.parent / ROUNDS.name)
    f = score([v for v in held if v.row["source"]["repo"] in new])
    # The written rules alone, so the precedent judge's share of the figures shows.
    r = score(judge(split(rows, "heldout"), rules_only=True))
    hd, hb = score(of_kind(held, "dossier")), score(of_kind(held, "board"))
    td, tb = score(of_kind(tune, "dossier")), score(of_kind(tune, "board"))
    if out is not None:
        print("quality: held-out confusion by gate (expected \\ decided)", file=out)
        print(confusion(held), file=out)
    return [
        _row("quality.heldout_lines", h.lines, "lines"),
        _row(
            "quality.heldout_agreement",
            h.agreement,
            "share",
            f">= {AGREEMENT_TARGET:g}",
            h.agreement >= AGREEMENT_TARGET,
        ),
        _row(
            "quality.heldout_false_reject_good_board",
            h.false_reject_rate,
            f"share of {h.good_board} good board lines",
            f"<= {FALSE_REJECT_TARGET:g}",
            h.false_reject_rate <= FALSE_REJECT_TARGET,
        ),
        _row("quality.heldout_same_gate", h.gate_agreement, "share of caught rejects"),
        # Dossier and board lines apart (issue #30): the dossier gate set and the board's
        # are different rules, and a board figure must not hide a dossier one.
        _row("quality.heldout_dossier_lines", hd.lines, "lines"),
        _row(
            "quality.heldout_dossier_agreement",
            hd.agreement,
            "share",
            f">= {DOSSIER_AGREEMENT_TARGET:g}",
            hd.agreement >= DOSSIER_AGREEMENT_TARGET,
        ),
        _row("quality.heldout_board_lines", hb.lines, "lines"),
        _row(
            "quality.heldout_board_agreement",
            hb.agreement,
            "share",
            f">= {BOARD_AGREEMENT_TARGET:g}",
            hb.agreement >= BOARD_AGREEMENT_TARGET,
        ),
        _row("quality.heldout_agreement_rules_only", r.agreement, "share"),
        _row(
            "quality.heldout_false_reject_rules_only",
            r.false_reject_rate,
            f"share of {r.good_board} good board lines",
        ),
        # Held-out rows of the newest rounds: repositories collected after every rule was
        # written.
        _row("quality.fresh_heldout_lines", f.lines, "lines"),
        _row("quality.fresh_heldout_agreement", f.agreement, "share"),
        _row(
            "quality.fresh_heldout_false_reject_good_board",
            f.false_reject_rate,
            f"share of {f.good_board} good board lines",
        ),
        _row("quality.tune_lines", t.lines, "lines"),
        _row("quality.tune_agreement", t.agreement, "share"),
        _row("quality.tune_false_reject_good_board", t.false_reject_rate, "share"),
        _row("quality.tune_dossier_agreement", td.agreement, f"share of {td.lines} lines"),
        _row("quality.tune_board_agreement", tb.agreement, f"share of {tb.lines} lines"),
    ]


def _row(
    name: str, value: float, unit: str, target: str | None = None, met: bool | None = None
) -> dict[str, Any]:
    return {"name": name, "value": value, "unit": unit, "target": target, "met": met}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/quality.py")
    parser.add_argument("--split", choices=("heldout", "tune"), default="tune")
    parser.add_argument(
        "--half", choices=("A", "B"), help="one half of the tune part (whole repositories)"
    )
    parser.add_argument("--misses", action="store_true", help="print every disagreement")
    parser.add_argument(
        "--no-sections", action="store_true", help="judge every line without its heading"
    )
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="the written gates alone, without the precedent judge (it was fitted on the "
        "tune part, so tune figures with it say little about the rules)",
    )
    args = parser.parse_args(argv)
    if args.half and args.split != "tune":
        parser.error("--half splits the tune part only")
    rows = split(load(), args.split)
    label = args.split
    if args.half:
        rows, label = half(rows, args.half), f"tune-{args.half}"
    verdicts = judge(rows, sections=not args.no_sections, rules_only=args.rules_only)
    s = score(verdicts)
    print(
        f"{label}: {s.lines} lines, agreement {s.agreement:.3f}, "
        f"false rejects {s.false_rejects}/{s.good_board} good board lines "
        f"({s.false_reject_rate:.3f}), same gate {s.gate_agreement:.3f}"
    )
    for kind in KINDS:
        k = score(of_kind(verdicts, kind))
        if not k.lines:
            continue
        rejects = f", false rejects {k.false_rejects}/{k.good_board}" if kind == "board" else ""
        print(f"  {kind}: {k.lines} lines, agreement {k.agreement:.3f}{rejects}")
    print(confusion(verdicts))
    if args.misses:
        for v in verdicts:
            if not v.agrees:
                want = v.row["gate"] or "approve"
                where = f" (under {v.row['section']!r})" if v.row.get("section") else ""
                print(
                    f"- [{v.row['kind']}] want {want}, got {v.reason or 'approve'}: "
                    f"{v.row['text'][:150]}{where}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
