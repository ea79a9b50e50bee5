"""Session turns: an external origin event plus the internal rows that answer it.

A turn starts at an external event and collects the internal ``agent.tool_use`` /
``agent.tool_result`` / ``agent.result`` rows of the same ``session_key`` that follow
it, until the next external event of that session, at most :data:`LOOKAHEAD_LINES`
lines later and at most :data:`MAX_ROWS` rows. The rule depends only on file
positions, never on where a slice ends, so a sliced scan (which reads past its end
for the sessions still open) builds exactly the turns a whole-day scan builds.
Turns are plain JSON dicts so they travel as Celery results.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from shared.spine.event import is_external
from shared.text import one_line

LOOKAHEAD_LINES = 2000
MAX_ROWS = 40
ORIGIN_TEXT_CHARS = 4000
ROW_TEXT_CHARS = 600
EVIDENCE_TYPES = frozenset({"agent.tool_use", "agent.tool_result", "agent.result"})

Turn = dict[str, Any]


def event_text(event: dict[str, Any]) -> str:
    """The human-meaningful text of an external event ('' when it carries none)."""
    payload = event.get("payload")
    if not isinstance(payload, dict):
        return ""
    for key in ("text", "command", "result_summary", "error"):
        value = payload.get(key)
        if isinstance(value, str) and value.strip():
            return value[:ORIGIN_TEXT_CHARS]
    return ""


def row_text(event: dict[str, Any]) -> str:
    """A compact text of an internal evidence row (tool name + summary, or reply text)."""
    payload = event.get("payload")
    if not isinstance(payload, dict):
        return ""
    parts = [
        str(payload[key])
        for key in ("tool_name", "input_summary", "summary", "text")
        if isinstance(payload.get(key), str | int | float) and str(payload.get(key))
    ]
    return one_line(" ".join(parts), ROW_TEXT_CHARS)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def make_origin(event: dict[str, Any], date: str, lineno: int) -> Turn:
    """A new turn dict for the external ``event`` at ``lineno`` of ``date``'s file."""
    source = event.get("source") if isinstance(event.get("source"), dict) else {}
    assert isinstance(source, dict)
    return {
        "date": date,
        "line": lineno,
        "id": _str(event.get("id")) or f"{date}-L{lineno}",
        "ts": _str(event.get("ts")),
        "kind": _str(source.get("kind")),
        "session_key": _str(event.get("session_key")),
        "type": _str(event.get("type")),
        "text": event_text(event),
        "rows": [],
    }


class TurnBuilder:
    """Feed events in file order; origins open turns, internal rows fill them."""

    def __init__(self, date: str) -> None:
        self.date = date
        self.turns: list[Turn] = []
        self._open: dict[str, Turn] = {}
        # Opened turns in line order, so expiry looks at the oldest only instead of
        # every open session on every event (a day has thousands of open sessions).
        self._opened: deque[tuple[str, Turn]] = deque()

    @property
    def has_open(self) -> bool:
        return bool(self._open)

    def expire(self, lineno: int) -> None:
        """Close turns whose look-ahead window ended before ``lineno``."""
        opened = self._opened
        while opened and lineno - opened[0][1]["line"] > LOOKAHEAD_LINES:
            key, turn = opened.popleft()
            if self._open.get(key) is turn:
                del self._open[key]

    def feed(
        self,
        lineno: int,
        event: dict[str, Any],
        *,
        origin: bool,
        lookahead: bool,
        external: bool | None = None,
    ) -> None:
        """Process one event; ``origin`` says it belongs to the scanned slice;
        ``external`` is the event's source gate when the caller already knows it."""
        self.expire(lineno)
        session = _str(event.get("session_key"))
        if is_external(event) if external is None else external:
            if session:
                self._open.pop(session, None)
            if origin and not lookahead:
                turn = make_origin(event, self.date, lineno)
                self.turns.append(turn)
                if session:
                    self._open[session] = turn
                    self._opened.append((session, turn))
            return
        open_turn = self._open.get(session) if session else None
        if open_turn is None or _str(event.get("type")) not in EVIDENCE_TYPES:
            return
        if len(open_turn["rows"]) < MAX_ROWS:
            open_turn["rows"].append({"type": _str(event.get("type")), "text": row_text(event)})


def build_turns(
    events: Iterable[dict[str, Any]],
    date: str = "",
    keep: Callable[[dict[str, Any]], bool] | None = None,
) -> list[Turn]:
    """Turns of an in-memory event list (line numbers are 1-based list positions).

    ``keep`` selects which external events are origins (default: all).
    """
    builder = TurnBuilder(date)
    for lineno, event in enumerate(events, start=1):
        builder.feed(lineno, event, origin=keep is None or keep(event), lookahead=False)
    return builder.turns


def order_turns(turn_lists: Iterable[list[Turn]]) -> list[Turn]:
    """Merge per-slice turn lists into one file-ordered list without duplicates."""
    seen: dict[tuple[str, int, str], Turn] = {}
    for turns in turn_lists:
        for turn in turns:
            seen.setdefault((turn["date"], int(turn["line"]), turn["id"]), turn)
    return [seen[k] for k in sorted(seen)]
