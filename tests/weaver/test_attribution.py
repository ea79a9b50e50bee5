"""Scanner attribution on the labelled multi-line session corpus (held-out targets)."""

from __future__ import annotations

from bench.attribution import PRECISION_TARGET, bench_attribution, load, score

# Recall on the held-out part before issue #11's attribution rules (bench/attribution.py
# run on the parent commit): precision 9/15, recall 9/15.
HELDOUT_RECALL_BEFORE = 9 / 15


def test_corpus_has_both_parts_both_languages_and_reasons() -> None:
    corpus = load()
    parts = {s["part"] for s in corpus["sessions"]}
    assert parts == {"tune", "heldout"}
    turns = [t for s in corpus["sessions"] for t in s["turns"]]
    assert all(t.get("why") for t in turns) and all(s.get("made") for s in corpus["sessions"])
    assert sum(1 for t in turns if any("\u4e00" <= c <= "\u9fff" for c in t["x"])) >= 8
    assert any(len({e[0] for e in t["expect"]}) >= 2 for t in turns)


def test_heldout_attribution_meets_the_targets() -> None:
    s = score(load(), "heldout")
    assert s.expected >= 12
    assert s.precision >= PRECISION_TARGET, s
    assert s.recall >= HELDOUT_RECALL_BEFORE, s


def test_heldout_weakening_kinds_mostly_right() -> None:
    s = score(load(), "heldout")
    assert s.kinds_total >= 6 and s.kinds_right / s.kinds_total >= 0.8, s


def test_runner_rows_have_the_runner_shape() -> None:
    rows = bench_attribution()
    names = {r["name"] for r in rows}
    assert {"attribution.heldout.precision", "attribution.tune.recall"} <= names
    assert all(set(r) == {"name", "value", "unit", "target", "met"} for r in rows)


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
