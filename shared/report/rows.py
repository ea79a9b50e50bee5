"""The report's board table: one row per board line with its effectiveness counts,
its newest evidence and a per-day strip of the fragments that cite it."""

from __future__ import annotations

import hashlib
from collections import defaultdict

from shared.errors import InputError
from shared.formats.board import Board, BoardLine
from shared.formats.effectiveness import Effectiveness, read_effectiveness
from shared.kernel.paths import KernelPaths
from shared.report.model import BoardRow, DayCounts, Evidence, LineChange, Trajectory
from shared.weaver.crystallize.store import StoredFragment, resolve_marker

EVIDENCE_KEPT = 5


def fragment_day(sf: StoredFragment) -> str:
    parts = sf.rel.split("/")
    return parts[2] if len(parts) > 3 else sf.fragment.source_ts[:10]


def _sections(board: Board) -> dict[int, str]:
    """Line number -> the heading above it."""
    out: dict[int, str] = {}
    current = ""
    numbers = {line.number for line in board.lines}
    for number, raw in enumerate(board.text.split("\n"), start=1):
        if raw.startswith("#"):
            current = raw.lstrip("#").strip()
        elif number in numbers:
            out[number] = current
    return out


def _evidence(sf: StoredFragment) -> Evidence:
    f = sf.fragment
    return Evidence(
        path=sf.rel,
        date=fragment_day(sf),
        trajectory=f.trajectory,
        signal=f.signal,
        event_type=f.event_type,
        source_kind=f.source_kind,
        source_ts=f.source_ts,
        quotes=f.evidence,
        note=" ".join(f.notes),
    )


def _strip(group: list[StoredFragment], dates: list[str]) -> tuple[DayCounts, ...]:
    counts: dict[str, list[int]] = {d: [0, 0, 0] for d in dates}
    slot = {"STRENGTHENING": 0, "NEUTRAL": 1, "WEAKENING": 2}
    for sf in group:
        day = counts.get(fragment_day(sf))
        index = slot.get(sf.fragment.trajectory)
        if day is not None and index is not None:
            day[index] += 1
    return tuple(DayCounts(d, *counts[d]) for d in dates)


def anchor(key: str) -> str:
    return "line-" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def fragments_by_line(
    stored: list[StoredFragment], board: Board, keys: dict[int, str]
) -> tuple[dict[str, list[StoredFragment]], dict[str, int]]:
    """The fragments citing each line (by line key), and the fragments of each day.

    Fragments are keyed like the lines they cite: by marker, or by the line's text hash
    where the marker is missing or shared by several lines of the board.
    """
    shared_markers = {x.marker for x in board.lines if x.marker and keys[x.number] != x.marker}
    hash_keys = {x.hash: keys[x.number] for x in board.lines}
    by_key: dict[str, list[StoredFragment]] = defaultdict(list)
    per_day: dict[str, int] = defaultdict(int)
    for sf in stored:
        per_day[fragment_day(sf)] += 1
        marker = resolve_marker(sf.fragment, board)
        if marker and marker not in shared_markers:
            by_key[marker].append(sf)
        elif sf.fragment.source_line_hash in hash_keys:
            by_key[hash_keys[sf.fragment.source_line_hash]].append(sf)
    return by_key, per_day


def _line_effectiveness(
    paths: KernelPaths, line: BoardLine, problems: list[str]
) -> tuple[Effectiveness | None, str | None]:
    """The line's effectiveness file and its kernel path (None, None without one)."""
    if not line.marker:
        return None, None
    eff: Effectiveness | None = None
    try:
        eff = read_effectiveness(paths.effectiveness_dir / f"{line.marker}.md")
    except (InputError, OSError) as exc:
        problems.append(f"{exc} (effectiveness file not shown)")
    return eff, (f"memory/effectiveness/{line.marker}.md" if eff is not None else None)


def board_rows(
    paths: KernelPaths,
    board: Board,
    keys: dict[int, str],
    alias: dict[str, str],
    by_key: dict[str, list[StoredFragment]],
    by_history: dict[str, list[LineChange]],
    dates: list[str],
    problems: list[str],
) -> list[BoardRow]:
    """A row per board line; ``alias`` maps a line key to its history's key."""
    sections = _sections(board)
    rows: list[BoardRow] = []
    for line in board.lines:
        key = keys[line.number]
        hist = alias.get(key, key)
        group = sorted(by_key.get(key, []), key=lambda sf: sf.fragment.source_ts, reverse=True)
        eff, eff_rel = _line_effectiveness(paths, line, problems)
        changes = by_history.get(hist, [])
        rows.append(
            BoardRow(
                number=line.number,
                text=line.text,
                section=sections.get(line.number, ""),
                marker=line.marker,
                hash=line.hash,
                trajectory=Trajectory.of(eff.trajectory if eff else None),
                strengthening=eff.strengthening if eff else 0,
                neutral=eff.neutral if eff else 0,
                weakening=eff.weakening if eff else 0,
                guidance=eff.guidance if eff else (),
                effectiveness=eff_rel,
                strip=_strip(group, dates),
                evidence=tuple(_evidence(sf) for sf in group[:EVIDENCE_KEPT]),
                evidence_total=len(group),
                last_change=changes[-1] if changes else None,
                history=anchor(hist),
            )
        )
    return rows
