"""Scanner attribution on the labelled multi-line session corpus. The tests score the tune
part only; the held-out part is scored by the bench (``python bench/run.py --only
attribution``), never by a test run."""

from __future__ import annotations

import json
from pathlib import Path

from bench.attribution import PRECISION_TARGET, bench_attribution, load, score
from shared.weaver.judging.interfaces import EventJudge

# Recall on the tune part when the held-out tests moved to the bench (rules/2: 14 of 15);
# a floor, so a rule that loses tune recall is seen.
TUNE_RECALL_FLOOR = 0.9


def test_corpus_has_both_parts_both_languages_and_reasons() -> None:
    corpus = load()
    parts = {s["part"] for s in corpus["sessions"]}
    assert parts == {"tune", "heldout"}
    turns = [t for s in corpus["sessions"] for t in s["turns"]]
    assert all(t.get("why") for t in turns) and all(s.get("made") for s in corpus["sessions"])
    assert sum(1 for t in turns if any("\u4e00" <= c <= "\u9fff" for c in t["x"])) >= 8
    assert any(len({e[0] for e in t["expect"]}) >= 2 for t in turns)


def test_tune_attribution_meets_the_targets(contract_judge: EventJudge) -> None:
    s = score(load(), "tune", contract_judge)
    assert s.expected >= 12
    assert s.precision >= PRECISION_TARGET, s
    assert s.recall >= TUNE_RECALL_FLOOR, s
    assert s.kinds_total >= 6 and s.kinds_right / s.kinds_total >= 0.8, s


def test_runner_rows_have_the_runner_shape(tmp_path: Path) -> None:
    # On a copy without the held-out sessions: the test run scores no held-out row.
    corpus = load()
    corpus["sessions"] = [s for s in corpus["sessions"] if s["part"] == "tune"]
    path = tmp_path / "attribution.json"
    path.write_text(json.dumps(corpus, ensure_ascii=False), encoding="utf-8")
    rows = bench_attribution(path)
    names = {r["name"] for r in rows}
    assert {"attribution.heldout.precision", "attribution.tune.recall"} <= names
    assert all(set(r) == {"name", "value", "unit", "target", "met"} for r in rows)
    by_name = {r["name"]: r for r in rows}
    assert by_name["attribution.heldout.recall"]["unit"] == "ratio (0/0)"
    assert by_name["attribution.tune.precision"]["met"] is True


def _events(texts: list[tuple[str, str]]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for n, (etype, text) in enumerate(texts):
        out.append(
            {
                "type": etype,
                "source": {"kind": "stdio" if etype == "channel.message" else "runner"},
                "session_key": "stdio:a",
                "payload": {"text": text},
                "id": f"evt_{n}",
                "ts": f"2026-03-10T05:00:0{n}.000Z",
            }
        )
    return out


BOARD = (
    "# B\n\n"
    "- Before sending the weekly report, check the figures against the finance sheet "
    "[[lesson-figures]]\n"
    "- When writing the weekly report, open with a three-line summary [[groove-summary]]\n"
)


def test_a_complaint_naming_no_line_is_pinned_on_none_but_may_be_a_new_signal() -> None:
    from shared.formats.board import parse_board
    from shared.weaver.scan.scanner import scan_events

    board = parse_board(BOARD)
    first = [
        ("channel.message", "Write the weekly report and send it."),
        ("agent.result", "Here is the weekly report."),
    ]
    vague = scan_events(board, _events([*first, ("channel.message", "No, that's wrong.")]))
    assert not [s for s in vague if s.fragment.trajectory == "WEAKENING"]
    new = scan_events(
        board, _events([*first, ("channel.message", "No. From now on, always attach the PDF.")])
    )
    assert [s.fragment.trajectory for s in new if s.fragment.source_event_id == "evt_2"] == [
        "NEW_SIGNAL"
    ]
