"""The real-session label audit samples tune sessions only, hands the second reader no label,
and compares outcome sets the way the bench scores the scanner."""

from __future__ import annotations

import json
from pathlib import Path

from bench.real_sessions import load
from bench.session_audit import SAMPLE_SIZE, audit_rows, sample, tune_sessions, write_blind

BLIND_INDEX = Path(__file__).resolve().parents[1] / "corpora/real_sessions/audit_blind/index.json"


def test_the_sample_is_tune_only_stratified_and_reproducible() -> None:
    tune = tune_sessions()
    assert tune and all(s.part == "tune" for s in tune)
    picked = sample(tune)
    assert len(picked) == SAMPLE_SIZE
    assert len({s.id for s in picked}) == SAMPLE_SIZE
    assert [s.id for s in picked] == [s.id for s in sample(tune)]
    categories = {s.category for s in picked}
    assert {"nothing", "correction", "followed"} <= categories
    # The committed blind index was drawn from the tune part as it stood then (104
    # sessions; later collections change what a new draw picks): its sessions are tune
    # sessions, each once.
    index = json.loads(BLIND_INDEX.read_text(encoding="utf-8"))
    ids = [row["id"] for row in index]
    assert len(ids) == len(set(ids)) == SAMPLE_SIZE
    assert set(ids) <= {s.id for s in tune}


def test_the_blind_copy_holds_no_label(tmp_path: Path) -> None:
    picked = sample(tune_sessions())[:3]
    write_blind(picked, tmp_path)
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert "index.json" in written
    assert not any(name.endswith(".label.json") or name.endswith("NOTES.md") for name in written)
    for n in ("01", "02", "03"):
        board = json.loads((tmp_path / n / "board.json").read_text(encoding="utf-8"))
        assert set(board) <= {"repo", "board", "dossiers"}
    text = "".join(p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file())
    for s in picked:
        for e in s.expect:
            assert e["why"] not in text


def test_outcome_sets_are_compared_as_the_bench_scores_them() -> None:
    session = next(s for s in tune_sessions() if s.expected())
    same = {"id": session.id, "expect": list(session.expect)}
    # NEUTRAL entries are dropped and NEW_SIGNAL is one outcome, as in the bench.
    padded = {
        "id": session.id,
        "expect": [*session.expect, {"marker": None, "trajectory": "NEUTRAL", "why": "x"}],
    }
    empty = {"id": session.id, "expect": []}
    rows = audit_rows([same, padded, empty], tune_sessions())
    assert [r["agrees"] for r in rows] == [True, True, False]


def test_a_held_out_session_cannot_be_audited() -> None:
    held = next(s for s in load() if s.part == "heldout")
    try:
        audit_rows([{"id": held.id, "expect": []}], tune_sessions())
    except SystemExit as exc:
        assert "not a tune session" in str(exc)
    else:
        raise AssertionError("a held-out session was accepted")


def test_the_recorded_audit_is_of_tune_sessions_and_every_disagreement_is_judged() -> None:
    from bench.session_audit import AUDIT, VERDICTS

    rows = [json.loads(line) for line in AUDIT.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == SAMPLE_SIZE
    tune = {s.id: s for s in tune_sessions()}
    for row in rows:
        session = tune[row["id"]]  # a KeyError here is a held-out or unknown session
        # The corpus outcomes recorded are the corpus's labels as they stand.
        assert {tuple(o) for o in row["corpus"]} == session.expected(), row["id"]
        assert row["agrees"] == (sorted(row["audit"]) == sorted(row["corpus"]))
        if row["agrees"]:
            assert "verdict" not in row
        else:
            assert row["verdict"] in VERDICTS and row["note"].strip(), row["id"]
