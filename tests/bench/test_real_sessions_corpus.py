"""The real-session corpus is well formed and goes through the importer (no scoring here:
the held-out part is scored by the bench, never by the test run)."""

from __future__ import annotations

import json
from collections import Counter

from bench.real_sessions import CORPUS, events_of, load, outcomes


def test_the_corpus_meets_its_size_and_split() -> None:
    sessions = load()
    repos = {s.id.split("/")[0] for s in sessions}
    assert len(sessions) >= 60 and len(repos) >= 12
    assert sum(1 for s in sessions if s.language in ("zh", "mixed")) >= 15
    parts = Counter(s.part for s in sessions)
    assert parts["heldout"] >= 0.3 * len(sessions)
    # Split by repository: no repository has sessions on both sides.
    sides: dict[str, set[str]] = {}
    for s in sessions:
        sides.setdefault(s.id.split("/")[0], set()).add(s.part)
    assert all(len(v) == 1 for v in sides.values())
    nothing = [s for s in sessions if not s.expected()]
    assert len(nothing) >= len(sessions) / 4


def test_every_label_names_its_boards_lines_and_gives_its_reason_and_source() -> None:
    for path in sorted(CORPUS.glob("*/*/*.label.json")):
        label = json.loads(path.read_text(encoding="utf-8"))
        board = json.loads((path.parent / "board.json").read_text(encoding="utf-8"))
        slugs = {
            line.rsplit("[[", 1)[1].rstrip("]")
            for line in board["board"]
            if line.startswith("- ") and "[[" in line
        }
        assert {"repo", "path", "commit"} <= set(label["source"]), path
        assert board["licence"] and len(board["commit"]) == 40, path
        for entry in label["expect"]:
            assert entry["why"].strip(), path
            assert entry["trajectory"] in ("STRENGTHENING", "WEAKENING", "NEUTRAL", "NEW_SIGNAL")
            if entry["trajectory"] == "NEW_SIGNAL":
                continue
            assert entry["marker"] in slugs, (path, entry["marker"])
            if entry["trajectory"] == "WEAKENING":
                assert entry.get("kind") in ("recall-miss", "direction-changed", "obsolete")


def test_every_transcript_imports_with_user_turns_and_without_problems() -> None:
    for session in load():
        events, problems = events_of(session)
        assert problems == [], (session.id, problems[:3])
        users = [e for e in events if e["type"] == "channel.message"]
        # Only a session of aider commands alone (/add, /copy-context) has no user turn,
        # and its label can then only be empty.
        assert users or not session.expected(), session.id
        assert {e["source"]["kind"] for e in users} <= {session.fmt}


def test_outcomes_drop_neutral_and_fold_new_signals() -> None:
    got = outcomes(
        [("a", "NEUTRAL"), (None, "NEW_SIGNAL"), (None, "NEW_SIGNAL"), ("b", "WEAKENING")]
    )
    assert got == {("new", "NEW_SIGNAL"), ("b", "WEAKENING")}


def test_cross_board_judges_each_session_against_the_other_repositories_boards() -> None:
    from dataclasses import replace

    from bench.real_sessions import cross_board

    tune = [s for s in load() if s.part == "tune"]
    first = tune[0]
    other = next(s for s in tune if s.id.split("/")[0] != first.id.split("/")[0])
    # A held-out session is never judged, nor its board used.
    hidden = replace(other, id="someone-else/x", part="heldout")
    rows = {r["name"]: r for r in cross_board([first, other, hidden])}
    assert set(rows) == {"real_sessions.cross.words", "real_sessions.cross.actions"}
    for row in rows.values():
        count, pairs = row["unit"].removeprefix("per 100 pairs (").rstrip(")").split("/")
        assert pairs == "2"  # each of the two tune sessions against the other's board
        assert row["value"] == 100 * int(count) / 2
    # The same session against its own repository's board is no pair.
    assert cross_board([first])[0]["unit"] == "per 100 pairs (0/0)"
