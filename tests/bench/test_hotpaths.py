"""The hot-path shortcuts taken for the benchmarks change no result.

The judge compares a turn only with the board lines its index proposes; these tests
judge the same turns with the index bypassed (every line a candidate) and require
identical fragments, on the bench's bilingual workload and with a directed context
and tool rows that read dossiers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.scan import make_workload, read_turns
from shared.weaver.judging.interfaces import JudgeContext
from shared.weaver.judging.rules import RuleJudge
from shared.weaver.scan.matching import BoardIndex
from shared.weaver.scan.scanner import scan_turns
from shared.weaver.scan.turns import LOOKAHEAD_LINES, Turn, TurnBuilder


def _all_lines(self: BoardIndex, *args: Any) -> list[int]:
    return list(range(len(self.board.lines)))


def _judged(board: Any, turns: list[Turn], ctx: JudgeContext) -> list[dict[str, Any]]:
    return [s.to_json() for s in scan_turns(board, turns, ctx, RuleJudge())]


@pytest.mark.parametrize("seed", [3, 11])
def test_indexed_judge_equals_judging_every_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    w = make_workload(tmp_path, 300_000, seed=seed)
    turns = read_turns(w)
    # Tool rows that open a line's dossier exercise the "reads the dossier" relation.
    marker = next(ln.marker for ln in w.board.lines if ln.marker)
    for turn in turns[::7]:
        turn["rows"] = [
            {"type": "agent.tool_use", "text": f"Read memory/topics/{marker}.md"},
            {"type": "agent.result", "text": "lead with the answer; 先给结论"},
        ]
    contexts = [
        JudgeContext(),
        JudgeContext(
            entities=frozenset({"acme-corp", "payment-service"}),
            dossiers=frozenset({"acme-corp", "payment-service"}),
            directed_markers=frozenset({marker}),
            directed_lines=frozenset({5, 9}),
        ),
    ]
    fast = [_judged(w.board, turns, ctx) for ctx in contexts]
    monkeypatch.setattr(BoardIndex, "candidates", _all_lines)
    slow = [_judged(w.board, turns, ctx) for ctx in contexts]
    assert fast == slow
    assert all(fast)


def test_turn_expiry_closes_exactly_the_turns_past_the_window() -> None:
    builder = TurnBuilder("2026-01-05")

    def external(session: str) -> dict[str, Any]:
        return {
            "type": "channel.message",
            "source": {"kind": "stdio"},
            "session_key": session,
            "ts": "2026-01-05T01:00:00.000Z",
            "payload": {"text": "hello there"},
        }

    def row(session: str) -> dict[str, Any]:
        return {
            "type": "agent.result",
            "source": {"kind": "runner"},
            "session_key": session,
            "ts": "2026-01-05T01:00:00.000Z",
            "payload": {"text": "reply"},
        }

    builder.feed(1, external("a"), origin=True, lookahead=False)
    builder.feed(2, external("b"), origin=True, lookahead=False)
    builder.feed(4, external("a"), origin=True, lookahead=False)  # a's second turn
    builder.feed(2 + LOOKAHEAD_LINES + 1, row("b"), origin=False, lookahead=False)
    builder.feed(4 + LOOKAHEAD_LINES, row("a"), origin=False, lookahead=False)
    # b's window ended one line earlier; a's second turn is still open (its first
    # turn was replaced by it, so it is not the one that takes the row).
    assert [len(t["rows"]) for t in builder.turns] == [0, 0, 1]
    assert builder.has_open
    builder.feed(4 + LOOKAHEAD_LINES + 1, row("a"), origin=False, lookahead=False)
    assert [len(t["rows"]) for t in builder.turns] == [0, 0, 1]
    assert not builder.has_open
