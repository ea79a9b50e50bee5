"""Attribution precision and recall of the scanner on a labelled multi-line corpus.

``tests/corpora/sessions/attribution.json`` holds spine-shaped sessions (EN and ZH)
whose turns touch several board lines, with complaints that share words with other
lines; each turn lists the (marker, trajectory[, weakening kind]) fragments a careful
reader expects. A prediction is a line-referenced fragment of a turn; attribution
precision is the share of predicted (turn, line) pairs the label names, recall the
share of labelled pairs predicted; the trajectory and the weakening kind are scored
on top (rows ``trajectory`` and ``weakening_kind``). The ``tune`` and ``heldout``
parts are reported apart: no rule was tuned on the held-out part.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.formats.board import parse_board
from shared.weaver.scan.judge import JudgeContext
from shared.weaver.scan.scanner import scan_events

CORPUS = (
    Path(__file__).resolve().parent.parent / "tests" / "corpora" / "sessions" / "attribution.json"
)
DATE = "2026-03-12"
PRECISION_TARGET = 0.95


def load(path: Path = CORPUS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def session_events(
    corpus: dict[str, Any], date: str = DATE
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Every session as spine events in one day (sessions one after another), and the
    labelled human turns by event id (with their session's part)."""
    events: list[dict[str, Any]] = []
    labelled: dict[str, dict[str, Any]] = {}
    n = 0
    for s_index, session in enumerate(corpus["sessions"]):
        key = f"{session['kind']}:{session['id']}"
        for turn in session["turns"]:
            rows: list[list[str]] = turn.get("rows", [])
            for kind, text, tool in [("channel.message", turn["x"], "")] + [
                (r[0], r[2], r[1]) for r in rows
            ]:
                ts = f"{date}T{(s_index % 20) + 2:02d}:{(n // 60) % 60:02d}:{n % 60:02d}.000Z"
                event_id = f"evt_{n:04d}"
                if kind == "channel.message":
                    event: dict[str, Any] = {
                        "type": kind,
                        "source": {"kind": session["kind"]},
                        "session_key": key,
                        "payload": {"text": text},
                    }
                    labelled[event_id] = {**turn, "part": session["part"], "session": session["id"]}
                elif kind == "agent.tool_use":
                    event = {
                        "type": kind,
                        "source": {"kind": "runner"},
                        "session_key": key,
                        "payload": {
                            "tool_use_id": f"t{n}",
                            "tool_name": tool,
                            "input_summary": text,
                        },
                    }
                else:
                    event = {
                        "type": kind,
                        "source": {"kind": "runner"},
                        "session_key": key,
                        "payload": {"text": text},
                    }
                event["id"] = event_id
                event["ts"] = ts
                events.append(event)
                n += 1
    events.sort(key=lambda e: (e["ts"], e["id"]))
    return events, labelled


@dataclass(frozen=True)
class Score:
    """Counts of one part. Attribution is per (turn, line): a prediction is right when
    the turn's label names that line. ``pair_hits`` also need the trajectory right;
    ``kinds_right`` counts WEAKENING pairs whose weakening kind is right too."""

    hits: int
    predicted: int
    expected: int
    pair_hits: int
    kinds_right: int
    kinds_total: int

    @property
    def precision(self) -> float:
        return self.hits / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.hits / self.expected if self.expected else 1.0

    @property
    def trajectory(self) -> float:
        return self.pair_hits / self.predicted if self.predicted else 1.0


def judge_corpus(corpus: dict[str, Any]) -> dict[str, list[list[str]]]:
    """Event id -> predicted [marker, trajectory, weakening kind or ''] rows."""
    board = parse_board("\n".join(corpus["board"]))
    ctx = JudgeContext(dossiers=frozenset(corpus["topics"]))
    events, _ = session_events(corpus)
    got: dict[str, list[list[str]]] = {}
    for item in scan_events(board, events, ctx, date=DATE):
        frag = item.fragment
        kind = getattr(frag, "weakening_kind", None) or ""
        got.setdefault(frag.source_event_id, []).append(
            [frag.marker or "none", frag.trajectory, kind]
        )
    return got


def score(corpus: dict[str, Any], part: str) -> Score:
    got = judge_corpus(corpus)
    _, labelled = session_events(corpus)
    hits = predicted = expected = pair_hits = kinds_right = kinds_total = 0
    for event_id, turn in labelled.items():
        if turn["part"] != part:
            continue
        want = {e[0]: (e[1], e[2] if len(e) > 2 else "") for e in turn["expect"] if e[0] != "none"}
        have = {g[0]: (g[1], g[2]) for g in got.get(event_id, []) if g[0] != "none"}
        predicted += len(have)
        expected += len(want)
        for marker, (trajectory, kind) in want.items():
            if marker not in have:
                continue
            hits += 1
            if have[marker][0] == trajectory:
                pair_hits += 1
                if trajectory == "WEAKENING":
                    kinds_total += 1
                    kinds_right += int(have[marker][1] == kind)
    return Score(hits, predicted, expected, pair_hits, kinds_right, kinds_total)


def bench_attribution(path: Path = CORPUS) -> list[dict[str, Any]]:
    """Runner rows: precision and recall per part, and WEAKENING-kind agreement."""
    corpus = load(path)
    rows: list[dict[str, Any]] = []
    for part in ("tune", "heldout"):
        s = score(corpus, part)
        rows.append(
            {
                "name": f"attribution.{part}.precision",
                "value": s.precision,
                "unit": f"ratio ({s.hits}/{s.predicted})",
                "target": f">= {PRECISION_TARGET:g}",
                "met": s.precision >= PRECISION_TARGET,
            }
        )
        rows.append(
            {
                "name": f"attribution.{part}.recall",
                "value": s.recall,
                "unit": f"ratio ({s.hits}/{s.expected})",
                "target": None,
                "met": None,
            }
        )
        rows.append(
            {
                "name": f"attribution.{part}.trajectory",
                "value": s.trajectory,
                "unit": f"ratio ({s.pair_hits}/{s.predicted}) with the trajectory right",
                "target": None,
                "met": None,
            }
        )
        rows.append(
            {
                "name": f"attribution.{part}.weakening_kind",
                "value": s.kinds_right / s.kinds_total if s.kinds_total else 1.0,
                "unit": f"ratio ({s.kinds_right}/{s.kinds_total})",
                "target": None,
                "met": None,
            }
        )
    return rows
