"""The spine scanner: turns in, fragments out as data (it writes nothing).

:func:`scan_turns` walks turns in file order, keeps each session's previous turn so
a correction in a later turn judges the earlier behaviour (the earlier turn's
provisional STRENGTHENING/NEUTRAL fragment for that line is replaced by the
WEAKENING one), and turns judgements into :class:`~shared.formats.fragments.Fragment`
records. :func:`read_slice_turns` is the thin reader that builds a slice's turns
from the spine, reading past the slice end only for sessions still open.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from shared.errors import ThinTurnError
from shared.formats.board import Board, BoardLine
from shared.formats.fragments import Fragment, fragment_date
from shared.language.markers import is_greeting_or_receipt
from shared.weaver.judging.interfaces import EventJudge, JudgeContext, Judgement, SessionMemory
from shared.weaver.judging.rules import RuleJudge
from shared.weaver.judging.verdicts import Activation, Signal, Trajectory, WeakeningKind
from shared.weaver.records import Record
from shared.weaver.scan.reading import read_slice_turns as read_slice_turns  # the scanner's reader
from shared.weaver.scan.turns import Turn, build_turns


@dataclass(frozen=True)
class ScannedFragment:
    """A fragment and the date directory it belongs in, with the judge's reason."""

    date: str
    fragment: Fragment
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"date": self.date, "reason": self.reason, "fragment": self.fragment.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScannedFragment:
        return cls(str(data["date"]), Fragment.from_json(data["fragment"]), str(data["reason"]))


# Lines recur across a scan's fragments; their rows are built once per line content.
@functools.lru_cache(maxsize=1024)
def _line_pointers(pointers: tuple[str, ...], markers: tuple[str, ...]) -> tuple[str, ...]:
    """The pointer rows a line contributes to its fragments, without repeats."""
    rows = [f"line: [[{markers[0]}]]"] if markers else []
    rows += [f"topic: [[{p}]]" for p in pointers if p not in markers]
    return tuple(dict.fromkeys(rows))


def _fragment(turn: Turn, j: Judgement, judge: str | None) -> Fragment:
    line = j.line
    pointers = _line_pointers(line.pointers, line.markers) if line is not None else ()
    if j.entities:
        pointers = tuple(dict.fromkeys([*pointers, *(f"entity: [[{e}]]" for e in j.entities)]))
    return Fragment(
        source_event_id=turn["id"],
        source_ts=turn["ts"],
        source_kind=turn["kind"],
        session_key=turn["session_key"] or "none",
        event_type=turn["type"],
        signal=j.signal,
        claude_md_ref=line.ref if line is not None else "none",
        source_line=line.number if line is not None else None,
        source_line_hash=line.hash if line is not None else None,
        trajectory=j.trajectory,
        activation=j.activation,
        root_cause=j.root_cause if j.trajectory is Trajectory.WEAKENING else None,
        weakening_kind=j.kind if j.trajectory is Trajectory.WEAKENING else None,
        evidence=j.evidence,
        notes=j.notes,
        pointers=pointers,
        judge=judge,
    )


# A thin turn (see :mod:`shared.weaver.scan.thinning`) keeps what replaying its recorded
# judgements reads: its identity, the fragment header fields and its filler flag.
THIN: Final = "thin"
# A correction the user can still take back ("never mind", "算了"): in the next turn or
# the one after. Short, so slice merging re-judges at most two turns after one.
TAKE_BACK_TURNS: Final = 2
FILLER: Final = "filler"
Hydrate = Callable[[Turn], Turn]


def is_thin(turn: Turn) -> bool:
    """True for a turn whose text and rows were left out of a scan result."""
    return bool(turn.get(THIN))


def is_filler(turn: Turn) -> bool:
    """An "ok" / "thanks" turn: it never replaces its session's memory."""
    if is_thin(turn):
        return bool(turn.get(FILLER))
    text = str(turn.get("text", ""))
    return not text.strip() or is_greeting_or_receipt(text)


def _sig(memory: SessionMemory) -> list[Any]:
    """What a judgement may depend on besides its own turn: the previous turn's identity
    and the lines (and trajectories) it related to."""
    turn = memory.turn
    sig: list[Any] = [
        turn_key(turn) if turn is not None else None,
        [line.number for line in memory.lines],
        list(memory.trajectories),
    ]
    if memory.corrections:
        sig.append([[tid, line.number, age] for tid, line, age in memory.corrections])
    return sig


def turn_key(turn: Turn) -> str:
    """A turn's unique key: date, line number and event id."""
    return f"{turn['date']}:{turn['line']}:{turn['id']}"


def judgement_to_json(j: Judgement) -> dict[str, Any]:
    """A judgement as JSON (its line by number, its source turn as a flag)."""
    return {
        "line": j.line.number if j.line is not None else None,
        "trajectory": j.trajectory,
        "activation": j.activation,
        "signal": j.signal,
        "reason": j.reason,
        "evidence": list(j.evidence),
        "notes": list(j.notes),
        "root_cause": j.root_cause,
        "supersedes": j.supersedes,
        "entities": list(j.entities),
        "source_previous": j.source_turn is not None,
        "kind": j.kind,
    }


def judgement_from_json(
    data: dict[str, Any], board: Board, previous: SessionMemory
) -> Judgement | None:
    """Rebuild a recorded judgement; None when its line no longer resolves."""
    line = board.by_number(int(data["line"])) if data.get("line") is not None else None
    if data.get("line") is not None and line is None:
        return None
    return Judgement(
        line=line,
        trajectory=Trajectory(data["trajectory"]),
        activation=Activation(data["activation"]),
        signal=Signal(data["signal"]),
        reason=str(data["reason"]),
        evidence=tuple(data["evidence"]),
        notes=tuple(data["notes"]),
        root_cause=data.get("root_cause"),
        supersedes=data.get("supersedes"),
        entities=tuple(data.get("entities", ())),
        source_turn=previous.turn if data.get("source_previous") else None,
        kind=WeakeningKind(data["kind"]) if data.get("kind") else None,
    )


def _recorded(
    cache: Record | None, turn: Turn, sig: list[Any], board: Board, previous: SessionMemory
) -> list[Judgement] | None:
    entry = cache.get(turn_key(turn)) if cache else None
    if entry is None or entry["prev"] != sig:
        return None
    out = [judgement_from_json(d, board, previous) for d in entry["judgements"]]
    return None if any(j is None for j in out) else [j for j in out if j is not None]


def _full(
    turn: Turn, previous: SessionMemory, hydrate: Hydrate | None
) -> tuple[Turn, SessionMemory]:
    """``turn`` and ``previous`` with full turns, for a judge (which reads text and rows)."""
    if is_thin(turn):
        turn = _hydrated(turn, hydrate)
    if previous.turn is not None and is_thin(previous.turn):
        previous = replace(previous, turn=_hydrated(previous.turn, hydrate))
    return turn, previous


def _hydrated(turn: Turn, hydrate: Hydrate | None) -> Turn:
    full = hydrate(turn) if hydrate is not None else turn
    if is_thin(full):
        raise ThinTurnError(f"turn {turn_key(turn)} must be judged but only its thin form is here")
    return full


def scan_turns(
    board: Board,
    turns: Iterable[Turn],
    ctx: JudgeContext | None = None,
    judge: EventJudge | None = None,
    *,
    cache: Record | None = None,
    record: Record | None = None,
    hydrate: Hydrate | None = None,
    provenance: str | None = None,
) -> list[ScannedFragment]:
    """Judge file-ordered turns against ``board``; return fragments in event order.

    ``record`` receives each turn's judgements with the previous-turn state they
    assumed; ``cache`` (records from slice scans) is reused for a turn whenever the
    state it assumed equals the state here, so merging per-slice scans gives exactly
    the result of one sequential scan while only slice-boundary turns are re-judged.
    Turns may be thin (:func:`is_thin`) where their recorded judgements are expected
    to be reused; ``hydrate`` returns the full turn for one that must be judged after
    all, or that a judged turn has as its previous turn. ``judge`` defaults to the
    rules (a pass passes the one ``SUBCON_JUDGE`` names); ``provenance`` (its
    ``name/version``) is recorded in every fragment when given.

    Raises:
        ThinTurnError: a thin turn must be judged and there is no ``hydrate``.
    """
    ctx = ctx or JudgeContext()
    judge = judge or RuleJudge()
    sessions: dict[str, SessionMemory] = {}
    out: list[ScannedFragment | None] = []
    index: dict[tuple[str, str], int] = {}
    for turn in turns:
        key = turn["session_key"] or f"\0{turn['id']}"
        previous = sessions.get(key) or SessionMemory()
        sig = _sig(previous) if cache or record is not None else []
        judgements = _recorded(cache, turn, sig, board, previous) if cache else None
        if judgements is None:
            if turn.get(THIN) or (previous.turn is not None and previous.turn.get(THIN)):
                turn, memory = _full(turn, previous, hydrate)
                if memory is not previous:
                    sessions[key] = previous = memory  # hydrated once, not by a later turn
            judgements = judge.judge(turn, previous, board, ctx)
        if record is not None:
            record[turn_key(turn)] = {
                "prev": sig,
                "judgements": [judgement_to_json(j) for j in judgements],
            }
        if judgements:
            _emit(out, index, turn, judgements, provenance)
        after = _next_memory(turn, judgements, previous)
        if after is not None:
            sessions[key] = after
    return [s for s in out if s is not None]


def _emit(
    out: list[ScannedFragment | None],
    index: dict[tuple[str, str], int],
    turn: Turn,
    judgements: list[Judgement],
    provenance: str | None,
) -> None:
    """Append the judgements' fragments to ``out``; one that supersedes an earlier
    turn's fragment for the same line (found through ``index``) blanks it."""
    for j in judgements:
        if j.supersedes is not None and j.line is not None:
            old = index.pop((j.supersedes, j.line.hash), None)
            if old is not None:
                out[old] = None
        source = j.source_turn or turn
        frag = _fragment(source, j, provenance)
        if j.line is not None:
            index[(source["id"], j.line.hash)] = len(out)
        out.append(ScannedFragment(fragment_date(source["ts"], source["date"]), frag, j.reason))


def _next_memory(
    turn: Turn, judgements: list[Judgement], previous: SessionMemory
) -> SessionMemory | None:
    """What the session remembers after ``turn`` (None: it keeps what it had)."""
    if not judgements:
        # "ok" / "thanks" between a turn and its correction keeps the link.
        return None if is_filler(turn) else SessionMemory(turn=turn, corrections=_aged(previous))
    if any(j.source_turn is not None for j in judgements):
        return None
    kept = _aged(previous)
    if kept:
        withdrawn = {(j.supersedes, j.line.hash) for j in judgements if j.line is not None}
        kept = tuple(c for c in kept if (c[0], c[1].hash) not in withdrawn)
    made = tuple(
        (str(turn["id"]), j.line, 0)
        for j in judgements
        if j.trajectory == Trajectory.WEAKENING
        and j.line is not None
        and j.signal == Signal.CORRECTION
    )
    return SessionMemory(
        turn=turn,
        lines=tuple([j.line for j in judgements if j.line is not None]),
        trajectories=tuple([j.trajectory for j in judgements if j.line is not None]),
        corrections=kept + made,
    )


def _aged(memory: SessionMemory) -> tuple[tuple[str, BoardLine, int], ...]:
    """The user's recent corrections one turn older; those past the window are gone."""
    if not memory.corrections:
        return ()
    return tuple(
        (tid, line, age + 1) for tid, line, age in memory.corrections if age + 1 < TAKE_BACK_TURNS
    )


def scan_events(
    board: Board,
    events: Iterable[dict[str, Any]],
    ctx: JudgeContext | None = None,
    judge: EventJudge | None = None,
    date: str = "",
) -> list[ScannedFragment]:
    """The pure scanner over an in-memory event list (one day, file order)."""
    return scan_turns(board, build_turns(events, date), ctx, judge)
