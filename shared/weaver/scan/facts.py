"""What one turn's judgements share (:class:`TurnFacts`), and the root-cause rule.

:class:`~shared.weaver.judging.rules.RuleJudge` builds a turn's facts for its first judgement
only; each fact is derived on first use, so a turn that relates to no line builds
none of them and one with several lines builds each once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from shared.formats.board import BoardLine
from shared.language.markers import wanted_as_written, wanted_behaviour
from shared.language.text import GENERIC_CUES, normalise, one_line, token_set
from shared.weaver.judging.interfaces import JudgeContext, SessionMemory
from shared.weaver.judging.verdicts import RootCause
from shared.weaver.scan.matching import BoardIndex
from shared.weaver.scan.turns import Turn

T = TypeVar("T")


class _lazy(Generic[T]):
    """``functools.cached_property`` without its per-access lock (Python 3.11): the
    value is stored in the instance dict, which later lookups find first."""

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    @overload
    def __get__(self, obj: None, owner: type) -> _lazy[T]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> T: ...
    def __get__(self, obj: object, owner: type) -> T | _lazy[T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


def rows_summary(turn: Turn) -> str:
    """What the agent did in ``turn``, in one clause ("the agent used tools ...")."""
    rows = turn.get("rows", [])
    if not rows:
        return "no tool use or reply was recorded in the scanned window"
    tools: dict[str, None] = {}
    reply: str | None = None
    for r in rows:
        kind = r["type"]
        if kind == "agent.tool_use":
            tools[r["text"].partition(" ")[0]] = None
        elif kind == "agent.result":
            reply = r["text"]
    parts = []
    if tools:
        parts.append("used tools " + ", ".join(tools))
    if reply is not None:
        parts.append('replied "' + one_line(reply, 120) + '"')
    return "the agent " + " and ".join(parts) if parts else "the agent left tool results only"


class TurnFacts:
    """What a turn's judgements share, each derived on first use only: a turn that
    relates to no line builds none of it, one with several lines builds it once."""

    def __init__(self, turn: Turn, text: str, previous: SessionMemory, index: BoardIndex):
        self.turn = turn
        self.text = text
        self.previous = previous
        self.index = index

    @_lazy
    def quote(self) -> str:
        kind = f"{self.turn.get('type') or 'event'} ({self.turn.get('kind')})"
        return f'The external {kind} said: "{one_line(self.text, 200)}".'

    @_lazy
    def behaviour(self) -> str:
        return rows_summary(self.turn)

    @_lazy
    def reply_text(self) -> str:
        return " ".join(r["text"] for r in self.turn.get("rows", []))

    @_lazy
    def reply_folded(self) -> str:
        """The reply rows' normalised text without apostrophes (token witnesses)."""
        return normalise(self.reply_text).replace("'", "")

    @_lazy
    def reply_tokens(self) -> frozenset[str]:
        return token_set(self.reply_text)

    def followed(self, i: int) -> bool:
        """One of the agent's rows hits line ``i``'s direction cues (tokenised only when
        their witnesses leave it possible). One row, not all of them together: in a long
        real turn the direction's words turn up across unrelated rows by chance."""
        cues = self.index.cues[i]
        if not cues.direction_may_hit(self.reply_folded):
            return False
        return any(
            cues.direction_shown(tokens) or cues.clause_shown(tokens) for tokens in self.row_tokens
        )

    @_lazy
    def row_tokens(self) -> list[frozenset[str]]:
        return [token_set(r["text"]) for r in self.turn.get("rows", [])]

    @_lazy
    def wanted(self) -> str | None:
        return wanted_behaviour(self.text)

    @_lazy
    def wanted_text(self) -> str | None:
        """:attr:`wanted` as the user wrote it (what a fragment quotes)."""
        return wanted_as_written(self.text)

    @_lazy
    def asked(self) -> frozenset[str]:
        """What a correction asks for, as content tokens (root-cause analysis)."""
        return token_set(self.wanted or self.text) - GENERIC_CUES

    @_lazy
    def previous_read(self) -> set[int]:
        """Lines whose dossier the session's previous turn read."""
        judged = self.previous.turn
        return self.index.read(judged) if judged is not None else set()

    @_lazy
    def previous_behaviour(self) -> str:
        judged = self.previous.turn
        return rows_summary(judged) if judged is not None else ""


def root_cause(
    facts: TurnFacts, i: int, line: BoardLine, judged: Turn, ctx: JudgeContext
) -> RootCause | None:
    """spine-scanner root_cause, only when the judged turn's trace shows it.

    * the agent opened the line's dossier, or the correction restates the line's own
      direction (the summary was complete and the agent acted against it) ->
      ``direction-wrong``: the fix is to the line's content;
    * the agent acted without opening an existing dossier whose text holds what the
      correction asks for, which the one-line summary lacks -> ``recall-miss``;
    * otherwise (no trace, or nothing shows the mechanism) -> unset.
    """
    if i in facts.previous_read:
        return RootCause.DIRECTION_WRONG
    if not judged.get("rows"):
        return None
    asked = facts.asked
    if facts.index.cues[i].direction_hit(asked):
        return RootCause.DIRECTION_WRONG
    beyond = asked - line.direction_cues - line.cues
    for pointer in line.pointers:
        detail = ctx.dossier_cues.get(pointer)
        if detail is not None and len(beyond & detail) >= 2:
            return RootCause.RECALL_MISS
    return None
