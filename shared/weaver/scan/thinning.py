"""Thin scan results: full turns only where crystallize may have to judge them.

A scan task judges its slice without the sessions' earlier turns, so crystallize
replays every slice and re-judges the turns whose assumed previous-turn state turns
out wrong: a session's leading turns in the slice, until its memory is replaced by
a turn whose judgement then holds. Those turns, and the previous turns they judge
(a session's trailing turns, which the next slice's leading turns see), travel in
full; every other turn travels thin, as the fields replaying its recorded
judgements reads (text and rows are about two thirds of a turn's bytes). When a
replay must judge a thin turn after all (a re-judged turn changed, so the change
cascades further, or the board moved under the pass), :class:`SpineHydrator`
re-reads that turn's slice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NoReturn

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.reader import ReadStats
from shared.spine.slices import SpineSlice
from shared.weaver.records import Record, ScanResult
from shared.weaver.scan.reading import read_slice_turns
from shared.weaver.scan.scanner import FILLER, THIN, is_filler, is_thin, turn_key
from shared.weaver.scan.turns import Turn

# What a reused judgement reads of its turn: the key, the fragment header and date.
THIN_FIELDS: Final = ("date", "line", "id", "ts", "kind", "session_key", "type")
# Turns after a session's first memory-replacing one that crystallize may re-judge: a
# changed judgement changes the next turn's assumed state. Two make the fallback rare
# (bench days: at most one slice read again) for ~2% more bytes than one.
AFTER_FIRST = 2


def planned_end(s: SpineSlice) -> int | None:
    """Where the slice's look-ahead stops: the file size its plan saw (None if unknown)."""
    return s.file_size if s.file_size >= s.byte_end else None


def thin_turn(turn: Turn) -> Turn:
    """``turn`` without text and rows; a filler keeps its flag (memory depends on it)."""
    thin: Turn = {
        "date": turn["date"],
        "line": turn["line"],
        "id": turn["id"],
        "ts": turn["ts"],
        "kind": turn["kind"],
        "session_key": turn["session_key"],
        "type": turn["type"],
        THIN: True,
    }
    if is_filler(turn):
        thin[FILLER] = True
    return thin


def thin_turns(turns: list[Turn], record: Record) -> list[Turn]:
    """A slice's file-ordered ``turns``, thin where crystallize will reuse ``record``."""
    full = _full_indexes(turns, record)
    return [turn if i in full else thin_turn(turn) for i, turn in enumerate(turns)]


def _replaces_memory(turn: Turn, record: Record) -> bool:
    """True when, as judged in the slice, ``turn`` became its session's memory."""
    entry = record.get(turn_key(turn))
    if entry is None:
        return False  # unknown: keep its neighbours full
    judgements = entry["judgements"]
    if not judgements:
        return not is_filler(turn)
    # An approval judges the previous turn and leaves the memory as it was.
    return not any(j.get("source_previous") for j in judgements)


def _full_indexes(turns: list[Turn], record: Record) -> set[int]:
    """Per session: leading turns through the first memory-replacing one and the turn
    after it (re-judged in crystallize), and trailing turns from the last replacing one
    (the previous turn the next slice's leading turns are judged against)."""
    sessions: dict[str, list[int]] = {}
    for i, turn in enumerate(turns):
        # A turn without a session has no previous turn and is no one's previous.
        if turn["session_key"]:
            sessions.setdefault(turn["session_key"], []).append(i)
    full: set[int] = set()
    for indexes in sessions.values():
        marks = [k for k, i in enumerate(indexes) if _replaces_memory(turns[i], record)]
        if not marks:
            full.update(indexes)
            continue
        full.update(indexes[: marks[0] + 1 + AFTER_FIRST])
        full.update(indexes[marks[-1] :])
    return full


def merge_turns(
    results: Iterable[ScanResult],
) -> tuple[list[Turn], dict[str, SpineSlice]]:
    """Slice results' turns in file order without duplicates, a full copy preferred to
    a thin one; and for each thin turn the slice that read it (to read it again)."""
    seen: dict[tuple[str, int, str], Turn] = {}
    sources: dict[str, SpineSlice] = {}
    for result in results:
        for turn in result.turns:
            key = (turn["date"], int(turn["line"]), turn["id"])
            have = seen.get(key)
            if have is None or (is_thin(have) and not is_thin(turn)):
                seen[key] = turn
            if is_thin(turn):
                sources.setdefault(turn_key(turn), result.slice.spine)
    return [seen[k] for k in sorted(seen)], sources


class SpineHydrator:
    """``scan_turns``'s ``hydrate`` for crystallize: a thin turn's full form, read
    again from its slice (each slice read at most once per pass)."""

    def __init__(
        self, paths: KernelPaths, max_line_bytes: int, sources: dict[str, SpineSlice]
    ) -> None:
        self._paths = paths
        self._max_line_bytes = max_line_bytes
        self._sources = sources
        self._read: dict[tuple[str, int, int, str], dict[str, Turn]] = {}

    def __call__(self, turn: Turn) -> Turn:
        key = turn_key(turn)
        source = self._sources.get(key)
        if source is None:
            self._fail(turn, "no slice result holds it")
        s = source
        full = self._slice_turns(s).get(key)
        if full is None or any(full[f] != turn[f] for f in THIN_FIELDS):
            self._fail(turn, f"slice {s.token()} at byte {s.byte_start} no longer reads it")
        return full

    def _slice_turns(self, s: SpineSlice) -> dict[str, Turn]:
        memo = (s.date, s.byte_start, s.byte_end, s.token())
        if memo not in self._read:
            turns = read_slice_turns(
                self._paths, s, ReadStats(), self._max_line_bytes, ahead_end=planned_end(s)
            )
            self._read[memo] = {turn_key(t): t for t in turns}
        return self._read[memo]

    def _fail(self, turn: Turn, why: str) -> NoReturn:
        # The spine is append-only and the look-ahead bounded, so a second read builds
        # the same turns; if not, judging without the turn's rows would be wrong.
        raise InputError(
            self._paths.day_file(str(turn["date"])),
            int(turn["line"]),
            f"turn {turn['id']} must be judged again but {why}; the pass must run again",
        )
