"""The synthetic day is shaped like a real one: answers stay in their session, most
messages relate to no board line, every board line is about its own subject."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson

from bench.conversation import board_bullets, board_topics
from bench.scan import make_workload, read_turns
from shared.spine.event import is_external
from shared.weaver.scan.judge import JudgeContext
from shared.weaver.scan.scanner import scan_turns


def _events(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_agent_rows_answer_a_message_of_their_own_session(tmp_path: Path) -> None:
    w = make_workload(tmp_path, 300_000, seed=5)
    asked: set[str] = set()
    rows = 0
    for event in _events(w.day_file):
        if is_external(event):
            asked.add(event["session_key"])
        elif event["source"]["kind"] == "runner":
            rows += 1
            assert event["session_key"] in asked, event
    assert rows > 0
    # Turns carry their session's tool calls and replies.
    turns = read_turns(w)
    assert sum(len(t["rows"]) for t in turns) / len(turns) > 1.5


def test_board_lines_each_have_their_own_subject() -> None:
    topics = [t for t in board_topics(100, seed=7) if t is not None]
    assert len({t.subject for t in topics}) == len(topics) > 80
    assert {t.zh for t in topics} == {True, False}
    bullets = board_bullets(100, seed=7)
    assert len(bullets) == 100 and all(b.startswith("- ") for b in bullets)
    assert sum("[[lesson-" in b for b in bullets) == len(topics)


def test_most_messages_relate_to_no_board_line(tmp_path: Path) -> None:
    w = make_workload(tmp_path, 600_000, seed=9)
    turns = read_turns(w)
    fragments = scan_turns(w.board, turns, JudgeContext())
    touched = {s.fragment.source_event_id for s in fragments}
    assert 0 < len(touched) < len(turns) / 2
    signals = Counter(s.fragment.trajectory for s in fragments)
    # The mix holds every kind of evidence the weaver folds.
    assert {"NEUTRAL", "STRENGTHENING", "WEAKENING", "NEW_SIGNAL"} <= set(signals)
