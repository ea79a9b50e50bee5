"""Session turns: an external origin event plus the internal rows that answer it.

A turn starts at an external event and collects the internal ``agent.tool_use`` /
``agent.tool_result`` / ``agent.result`` rows of the same ``session_key`` that follow
it, until the next external event of that session, at most :data:`LOOKAHEAD_LINES`
lines later and at most :data:`MAX_ROWS` rows, then up to :data:`MAX_CALLS_AFTER` more
tool calls (a coding agent's long turn ends with what it ran last: the merge, the push).
The rule depends only on file positions, never on where a slice ends, so a sliced scan
(which reads past its end for the sessions still open) builds exactly the turns a
whole-day scan builds.
Turns are plain JSON dicts (typed as :class:`Turn`) so they travel as Celery results
unchanged and the reader's hot loop builds them as literals, which measures fastest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable
from itertools import chain, repeat
from operator import itemgetter
from typing import Any, NotRequired, TypedDict, cast

from shared.constants import INTERNAL_KINDS
from shared.spine.event import is_external, kind_label

LOOKAHEAD_LINES = 2000
MAX_ROWS = 160
MAX_CALLS_AFTER = 240
_MAX_CALL_ROWS = MAX_ROWS + MAX_CALLS_AFTER
_CALL = "agent.tool_use"
ORIGIN_TEXT_CHARS = 4000
ROW_TEXT_CHARS = 600
EVIDENCE_TYPES = frozenset({"agent.tool_use", "agent.tool_result", "agent.result"})
_TEXT_OR_NONE = frozenset({str, type(None)})
_ROW_KEYS = ("tool_name", "input_summary", "summary", "text")
_GET = cast("Callable[[dict[str, Any], str], Any]", dict.get)
_PENDING = itemgetter("text")  # a row made in a batch holds its event until filled
_NEVER = 1 << 62  # a line number no file reaches


class TurnRow(TypedDict):
    """An internal evidence row of a turn."""

    type: str
    text: str


class Turn(TypedDict):
    """An external origin event and the evidence rows of its session that answer it."""

    date: str
    line: int
    id: str
    ts: str
    kind: str
    session_key: str
    type: str
    # Left out of a thin turn (a scan result's turn not needed again, see thinning).
    text: NotRequired[str]
    rows: NotRequired[list[TurnRow]]
    thin: NotRequired[bool]
    filler: NotRequired[bool]
    # What the person did rather than said (the importer's ``payload.action``: a
    # declined proposal, an undo): its text is the importer's, not their words.
    action: NotRequired[bool]


EventFilter = Callable[[dict[str, Any]], bool]


def event_text(event: dict[str, Any]) -> str:
    """The human-meaningful text of an external event ('' when it carries none)."""
    payload = event.get("payload")
    if not isinstance(payload, dict):
        return ""
    for key in ("text", "command", "result_summary", "error"):
        value = payload.get(key)
        # Non-blank: value.strip() would be non-empty.
        if isinstance(value, str) and value and not value.isspace():
            return value[:ORIGIN_TEXT_CHARS]
    return ""


def row_text(event: dict[str, Any]) -> str:
    """A compact text of an internal evidence row (tool name + summary, or reply text)."""
    payload = event.get("payload")
    if not isinstance(payload, dict):
        return ""
    get = payload.get
    values = (get("tool_name"), get("input_summary"), get("summary"), get("text"))
    if _TEXT_OR_NONE.issuperset(map(type, values)):
        # The usual row: text or nothing under each key ('' is left out as well).
        return _row_line(" ".join(filter(None, values)))
    parts = []
    for value in values:
        if isinstance(value, str | int | float):
            text = str(value)
            if text:
                parts.append(text)
    return _row_line(" ".join(parts))


def row_texts(events: list[dict[str, Any]]) -> list[str]:
    """``list(map(row_text, events))``, judged a column at a time (the rows of a slice
    are most of its text): every step is a C-level map on the usual shape."""
    if not events:
        return []
    payloads = list(map(_GET, events, repeat("payload")))
    if set(map(type, payloads)) != {dict}:
        return list(map(row_text, events))
    columns = [list(map(_GET, payloads, repeat(key))) for key in _ROW_KEYS]
    if not _TEXT_OR_NONE.issuperset(map(type, chain.from_iterable(columns))):
        return list(map(row_text, events))
    texts = list(map(" ".join, map(filter, repeat(None), zip(*columns, strict=True))))
    # _one_line changes nothing when every text is printable, short, and without a
    # run of spaces or one at either end: joined by ' ' (blank texts left out, as
    # they change nothing either), that is the same test on the joined text.
    joined = " ".join(filter(None, texts))
    if (
        joined.isprintable()
        and "  " not in joined
        and joined[:1] != " "
        and joined[-1:] != " "
        and max(map(len, texts)) <= ROW_TEXT_CHARS
    ):
        return texts
    return [_row_line(text) for text in texts]


def _one_line(text: str, limit: int) -> str:
    """:func:`shared.language.text.one_line` without its regex (a slice's rows are the bulk of
    its text): ``str.split`` splits on exactly the characters ``\\s`` matches."""
    # Printable text has no whitespace but ' ' and no NUL: with no run of spaces and
    # none at either end, collapsing and stripping would give the text unchanged.
    if not (text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " "):
        text = " ".join(text.split()).replace("\0", "")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _row_line(text: str) -> str:
    """A row's text on one line, at most ``ROW_TEXT_CHARS``: its head and its tail, since
    a reply closes with its offer or question and a test run with its summary."""
    flat = _one_line(text, 1 << 30)
    if len(flat) <= ROW_TEXT_CHARS:
        return flat
    tail = ROW_TEXT_CHARS // 3
    return flat[: ROW_TEXT_CHARS - tail - 3].rstrip() + " … " + flat[-tail:].lstrip()


def _room(held: int, row_type: str) -> bool:
    """A turn holding ``held`` rows takes one more of ``row_type``."""
    return held < MAX_ROWS or (row_type == _CALL and held < _MAX_CALL_ROWS)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def make_origin(event: dict[str, Any], date: str, lineno: int) -> Turn:
    """A new turn dict for the external ``event`` at ``lineno`` of ``date``'s file."""
    get = event.get
    source, payload = get("source"), get("payload")
    kind = source.get("kind") if isinstance(source, dict) else None
    event_id, ts, session, event_type = get("id"), get("ts"), get("session_key"), get("type")
    # event_text's first choice, inlined (the usual origin carries a text).
    text = payload.get("text") if isinstance(payload, dict) else None
    if isinstance(text, str) and text and not text.isspace():
        text = text[:ORIGIN_TEXT_CHARS]
    else:
        text = event_text(event)
    turn: Turn = {
        "date": date,
        "line": lineno,
        "id": event_id if isinstance(event_id, str) and event_id else f"{date}-L{lineno}",
        "ts": ts if isinstance(ts, str) else "",
        "kind": kind_label(kind),
        "session_key": session if isinstance(session, str) else "",
        "type": event_type if isinstance(event_type, str) else "",
        "text": text,
        "rows": [],
    }
    if isinstance(payload, dict) and payload.get("action") is True:
        turn["action"] = True
    return turn


def _origin(event: dict[str, Any], date: str, line: int, kind: str, ts: str, key: str) -> Turn:
    """:func:`make_origin` of a parsed event (exact ``str`` values) whose source gate
    gave ``kind``, ``ts`` (both strings) and ``key`` (its session, or '')."""
    payload, event_id, event_type = event.get("payload"), event.get("id"), event.get("type")
    text = payload.get("text") if type(payload) is dict else None
    if type(text) is not str or not text or text.isspace():
        text = event_text(event)
    turn: Turn = {
        "date": date,
        "line": line,
        "id": event_id if type(event_id) is str and event_id else f"{date}-L{line}",
        "ts": ts,
        "kind": kind,
        "session_key": key,
        "type": event_type if type(event_type) is str else "",
        "text": text[:ORIGIN_TEXT_CHARS],
        "rows": [],
    }
    if type(payload) is dict and payload.get("action") is True:
        turn["action"] = True
    return turn


class TurnBuilder:
    """Feed events in file order; origins open turns, internal rows fill them.

    :meth:`feed` takes one event; :meth:`feed_slice` and :meth:`feed_lookahead` take
    a batch of consecutive lines' events (the reader's hot loop) with the same result.
    """

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

    def open_sessions(self) -> Collection[str]:
        """The sessions with an open turn (a live view)."""
        return self._open.keys()

    def expire(self, lineno: int) -> None:
        """Close turns whose look-ahead window ended before ``lineno``."""
        opened = self._opened
        while opened and lineno - opened[0][1]["line"] > LOOKAHEAD_LINES:
            key, turn = opened.popleft()
            if self._open.get(key) is turn:
                del self._open[key]

    def _horizon(self) -> int:
        """The first line number at which :meth:`expire` closes something."""
        opened = self._opened
        return opened[0][1]["line"] + LOOKAHEAD_LINES + 1 if opened else _NEVER

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
                self._start(session, make_origin(event, self.date, lineno))
            return
        open_turn = self._open.get(session) if session else None
        if open_turn is not None:
            self._add_row(open_turn, event)

    def _start(self, session: str, turn: Turn) -> None:
        self.turns.append(turn)
        if session:
            self._open[session] = turn
            self._opened.append((session, turn))

    @staticmethod
    def _add_row(turn: Turn, event: dict[str, Any]) -> None:
        """An internal row of ``turn``'s session: kept when it is evidence, up to MAX_ROWS."""
        row_type = _str(event.get("type"))
        if row_type in EVIDENCE_TYPES and _room(len(turn["rows"]), row_type):
            turn["rows"].append({"type": row_type, "text": row_text(event)})

    def feed_slice(
        self, lineno: int, events: list[dict[str, Any] | None], match: EventFilter
    ) -> int:
        """:meth:`feed` for the events of the slice's lines from ``lineno`` on (None:
        not an event), external ones passing ``match`` being origins. Returns how
        many were external."""
        date, open_, internal, evidence = self.date, self._open, INTERNAL_KINDS, EVIDENCE_TYPES
        add_turn, add_opened = self.turns.append, self._opened.append
        horizon = self._horizon()
        external = 0
        made: list[dict[str, Any]] = []  # rows whose text is their event until filled
        for line, event in enumerate(events, lineno):
            if event is None:
                continue
            if line >= horizon:
                self.expire(line)
                horizon = self._horizon()
            session = event.get("session_key")
            # The source gate of docs/formats.md §4.5 (is_external), inlined.
            source = event.get("source")
            kind = source.get("kind") if type(source) is dict else None
            if type(kind) is not str and kind is not None:
                kind = kind_label(kind)  # rare: the original's truthiness test
            if (
                type(kind) is str
                and kind
                and kind not in internal
                and type(ts := event.get("ts")) is str
            ):
                external += 1
                key = session if type(session) is str else ""
                if key:
                    open_.pop(key, None)
                if match(event):
                    turn = _origin(event, date, line, kind, ts, key)
                    add_turn(turn)  # _start, inlined
                    if key:
                        open_[key] = turn
                        add_opened((key, turn))
                    if horizon == _NEVER:
                        horizon = self._horizon()
                continue
            if type(session) is str and session in open_:
                row_type = event.get("type")
                if type(row_type) is str and row_type in evidence:
                    rows = open_[session]["rows"]
                    # _room, inlined: the hot loop measures faster without the call
                    if len(rows) < MAX_ROWS or (row_type == _CALL and len(rows) < _MAX_CALL_ROWS):
                        row = {"type": row_type, "text": event}
                        # The text is filled in below; a cast would cost a call per row.
                        rows.append(row)  # type: ignore[arg-type]
                        made.append(row)
        if made:
            for row, text in zip(made, row_texts(list(map(_PENDING, made))), strict=True):
                row["text"] = text
        return external

    def feed_lookahead(self, lineno: int, events: list[dict[str, Any] | None]) -> bool:
        """:meth:`feed` for events past the slice (no origins) from line ``lineno`` on;
        stops and returns False as soon as no turn is open (nothing can change then)."""
        open_ = self._open
        horizon = self._horizon()
        for line, event in enumerate(events, lineno):
            if event is None:
                continue
            if line >= horizon:
                self.expire(line)
                horizon = self._horizon()
                if not open_:
                    return False
            session = event.get("session_key")
            if type(session) is not str or not session:
                continue
            if is_external(event):
                open_.pop(session, None)
                if not open_:
                    return False
            elif session in open_:
                self._add_row(open_[session], event)
        return bool(open_)


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
