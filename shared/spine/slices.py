"""Split an interval into line-aligned byte ranges of partition files for fan-out.

A fast pre-pass reads each day file once and finds, per line, its byte offset and
the ``ts`` value (the envelope's last key, so normally found near the line end
without a full parse). Each band (or window) then maps to the lines it matches;
those are chunked into slices of about ``max_events`` lines. Bands of one date
are merged so they are disjoint, windows of one date are merged when they
overlap, and a date may not mix bands and windows: every matching event belongs
to exactly one slice, even when ``ts`` values are out of order in the file.
Slices are small JSON messages: a date, bounds, offsets — never event content.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.spine.event import ts_hour, ts_key
from shared.spine.interval import Band, Window, merge_hours
from shared.spine.prepass import Classify, ClassifyMany, chunk_runs, prepass
from shared.spine.prepass import quick_ts as quick_ts  # re-exported: part of this API

_SEEN_PIECES = 4096


@dataclass(frozen=True)
class SpineSlice:
    """One unit of scan work: events of ``date`` in ``[byte_start, byte_end)`` that
    fall in ``bands`` (inclusive UTC hours) or in the window ``(after_ts, until_ts]``.

    ``part``/``parts`` number the slices of one band or window (1-based).
    ``first_line`` is the line number at ``byte_start``; ``file_size`` the size of
    the partition file the plan saw (what a finished pass has covered).
    """

    date: str
    bands: tuple[tuple[int, int], ...]
    after_ts: str | None
    until_ts: str | None
    byte_start: int
    byte_end: int
    part: int
    parts: int
    first_line: int = 1
    file_size: int = 0

    @property
    def is_window(self) -> bool:
        return self.until_ts is not None

    def items(self) -> list[Band | Window]:
        """The interval items this slice reads (its bands, or its window)."""
        if self.until_ts is not None:
            return [Window(self.date, self.after_ts or "", self.until_ts)]
        return [Band(self.date, a, b) for a, b in self.bands]

    def token(self) -> str:
        """The interval token(s) of this slice, e.g. ``20260105[03,05]``."""
        return " ".join(item.token() for item in self.items())

    def partition(self) -> str:
        """Runtime-relative path of the partition file."""
        return f"var/events/{self.date}.jsonl"

    def matches(self, event: dict[str, Any]) -> bool:
        """True when ``event``'s ``ts`` falls in this slice's bands or window."""
        return self.predicate()(event)

    def predicate(self) -> Callable[[dict[str, Any]], bool]:
        """A fast membership test for events, with the bounds computed once."""
        if self.until_ts is not None:
            low = (ts_key(self.after_ts) or "") if self.after_ts else ""
            high = ts_key(self.until_ts) or ""

            def in_window(event: dict[str, Any]) -> bool:
                ts = event.get("ts")
                if not isinstance(ts, str):
                    return False
                key = ts_key(ts)
                return key is not None and key <= high and (not low or key > low)

            return in_window
        hours = frozenset(h for a, b in self.bands for h in range(a, b + 1))
        # ts_hour reads ts[11:13] only: remember the verdict per such piece (a day
        # has a handful of them), up to a bound for adversarial files.
        seen: dict[str, bool] = {}

        def in_bands(event: dict[str, Any]) -> bool:
            ts = event.get("ts")
            if not isinstance(ts, str):
                return False
            piece = ts[11:13]
            hit = seen.get(piece)
            if hit is None:
                hit = ts_hour(ts) in hours
                if len(seen) < _SEEN_PIECES:
                    seen[piece] = hit
            return hit

        return in_bands

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.date,
            "partition": self.partition(),
            "token": self.token(),
            "bands": [list(band) for band in self.bands],
            "after_ts": self.after_ts,
            "until_ts": self.until_ts,
            "byte_start": self.byte_start,
            "byte_end": self.byte_end,
            "first_line": self.first_line,
            "file_size": self.file_size,
            "part": self.part,
            "parts": self.parts,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SpineSlice:
        """Rebuild a slice from :meth:`to_json` output.

        Raises:
            InputError: a missing or mistyped field.
        """
        try:
            return cls(
                date=str(data["date"]),
                bands=tuple((int(a), int(b)) for a, b in data.get("bands") or []),
                after_ts=data.get("after_ts"),
                until_ts=data.get("until_ts"),
                byte_start=int(data["byte_start"]),
                byte_end=int(data["byte_end"]),
                part=int(data.get("part", 1)),
                parts=int(data.get("parts", 1)),
                first_line=int(data.get("first_line", 1)),
                file_size=int(data.get("file_size", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(None, None, f"bad spine slice {data!r}: {exc}") from None


@dataclass
class _Plan:
    """Per-date grouping of interval items."""

    date: str
    hours: set[int]
    windows: list[Window]


def _group(items: Sequence[Band | Window]) -> list[_Plan]:
    plans: dict[str, _Plan] = {}
    for item in items:
        plan = plans.setdefault(item.date, _Plan(item.date, set(), []))
        if isinstance(item, Band):
            plan.hours.update(range(item.start_hour, item.end_hour + 1))
        else:
            plan.windows.append(item)
    for plan in plans.values():
        if plan.hours and plan.windows:
            raise InputError(
                None, None, f"interval mixes hour bands and a time window for {plan.date}"
            )
        plan.windows = _merge_windows(plan.windows)
    return list(plans.values())


def _merge_windows(windows: list[Window]) -> list[Window]:
    def lower(w: Window) -> str:
        return ts_key(w.after_ts) or "" if w.after_ts else ""

    merged: list[Window] = []
    for window in sorted(windows, key=lower):
        if merged and lower(window) <= (ts_key(merged[-1].until_ts) or ""):
            last = merged[-1]
            until = max(last.until_ts, window.until_ts, key=lambda t: ts_key(t) or "")
            merged[-1] = Window(last.date, last.after_ts, until)
        else:
            merged.append(window)
    return merged


def _window_index(key: str | None, bounds: list[tuple[str, str]]) -> int | None:
    if key is None:
        return None
    for i, (low, high) in enumerate(bounds):
        if (not low or key > low) and key <= high:
            return i
    return None


def _classifiers(
    runs: list[tuple[int, int]], bounds: list[tuple[str, str]]
) -> tuple[Classify, ClassifyMany]:
    """The pre-pass's item lookup, per ts and per batch of canonical ts values."""
    if not runs:

        def window_of(ts: str) -> int | None:
            return _window_index(ts_key(ts), bounds)

        def windows_of(values: list[bytes]) -> list[int | None]:
            # A canonical ts is its own key (ts_key returns it unchanged).
            return [_window_index(v.decode("ascii"), bounds) for v in values]

        return window_of, windows_of
    hour_item = {h: i for i, (a, b) in enumerate(runs) for h in range(a, b + 1)}
    by_digits = {b"%02d" % h: i for h, i in hour_item.items()}

    def band_of(ts: str) -> int | None:
        hour = ts_hour(ts)
        return hour_item.get(hour) if hour is not None else None

    def bands_of(values: list[bytes]) -> list[int | None]:
        return [by_digits.get(v[11:13]) for v in values]

    # A canonical ts always has a valid hour: a band of all 24 takes every such line.
    return band_of, 0 if runs == [(0, 23)] else bands_of


def _plan_date(
    paths: KernelPaths, plan: _Plan, max_events: int, max_line_bytes: int
) -> list[SpineSlice]:
    runs = merge_hours(plan.hours)
    bounds = [
        ((ts_key(w.after_ts) or "") if w.after_ts else "", ts_key(w.until_ts) or "")
        for w in plan.windows
    ]
    classify, classify_many = _classifiers(runs, bounds)
    n_items = len(runs) if runs else len(plan.windows)
    size, matched = prepass(
        paths.day_file(plan.date), n_items, classify, classify_many, max_line_bytes
    )
    slices: list[SpineSlice] = []
    for index in range(n_items):
        if runs:
            band: tuple[tuple[int, int], ...] = (runs[index],)
            after, until = None, None
        else:
            band = ()
            after, until = plan.windows[index].after_ts, plan.windows[index].until_ts
        chunks = chunk_runs(matched[index], max_events) or [(0, 0, 1)]
        for part, (start, end, first) in enumerate(chunks, start=1):
            slices.append(
                SpineSlice(
                    date=plan.date,
                    bands=band,
                    after_ts=after,
                    until_ts=until,
                    byte_start=start,
                    byte_end=end,
                    part=part,
                    parts=len(chunks),
                    first_line=first,
                    file_size=size,
                )
            )
    return slices


def plan_slices(
    paths: KernelPaths,
    items: Sequence[Band | Window],
    max_events: int,
    *,
    max_line_bytes: int = 4 * 1024 * 1024,
) -> list[SpineSlice]:
    """Plan the slices that together read every event matching ``items`` once.

    At least one slice per (merged) band or window, in date order of first
    appearance; a band with more than ``max_events`` matching lines is split
    into several line-aligned byte ranges. A missing day file gives empty slices.

    Raises:
        InputError: a date mixes bands and windows; a partition is unreadable.
    """
    if max_events < 1:
        raise ValueError("max_events must be >= 1")
    slices: list[SpineSlice] = []
    for plan in _group(items):
        slices.extend(_plan_date(paths, plan, max_events, max_line_bytes))
    return slices


def slice_path(paths: KernelPaths, s: SpineSlice) -> Path:
    """The partition file a slice reads."""
    return paths.day_file(s.date)
