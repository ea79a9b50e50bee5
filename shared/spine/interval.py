"""Interval tokens naming which part of the spine to scan (docs/formats.md §9.3).

* ``YYYYMMDD[hh,hh]`` — a band: UTC hours ``start..end`` inclusive of one date.
* ``YYYY-MM-DD[t1,t2]`` — a window: events of that date's partition with ``ts``
  strictly after ``t1`` and up to and including ``t2`` (``t1`` may be empty: no
  lower bound). Used for the tail of a day that was already covered.

Tokens are separated by spaces. Pure functions only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date as Date

from shared.errors import InputError
from shared.spine.event import ts_key

_BAND = re.compile(r"([0-9]{8})\[([0-9]{1,2}),([0-9]{1,2})\]")
_WINDOW = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})\[([^\[\],\s]*),([^\[\],\s]+)\]")


@dataclass(frozen=True, order=True)
class Band:
    """UTC hours ``start_hour..end_hour`` (inclusive) of ``date`` (``YYYY-MM-DD``)."""

    date: str
    start_hour: int
    end_hour: int

    def token(self) -> str:
        return f"{self.date.replace('-', '')}[{self.start_hour:02d},{self.end_hour:02d}]"

    def contains_hour(self, hour: int) -> bool:
        return self.start_hour <= hour <= self.end_hour


@dataclass(frozen=True)
class Window:
    """Events of ``date``'s partition with ``after_ts < ts <= until_ts``.

    ``after_ts`` may be ``""`` (no lower bound). Comparison uses :func:`ts_key`.
    """

    date: str
    after_ts: str
    until_ts: str

    def token(self) -> str:
        return f"{self.date}[{self.after_ts},{self.until_ts}]"

    def contains_ts(self, ts: str) -> bool:
        key = ts_key(ts)
        if key is None or key > (ts_key(self.until_ts) or ""):
            return False
        return not self.after_ts or key > (ts_key(self.after_ts) or "")


def check_date(text: str, token: str, path: str | None = None) -> str:
    """Return ``YYYY-MM-DD`` for a ``YYYYMMDD`` or ``YYYY-MM-DD`` calendar date.

    Raises:
        InputError: not a real calendar date.
    """
    digits = text.replace("-", "")
    try:
        value = Date(int(digits[:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        raise InputError(path, None, f"interval token {token!r}: {text!r} is not a date") from None
    return value.isoformat()


def _parse_band(match: re.Match[str], token: str, path: str | None) -> Band:
    day = check_date(match.group(1), token, path)
    start, end = int(match.group(2)), int(match.group(3))
    for hour in (start, end):
        if hour > 23:
            raise InputError(path, None, f"interval token {token!r}: hour {hour} is not 00..23")
    if start > end:
        raise InputError(
            path, None, f"interval token {token!r}: band is reversed ({start:02d} > {end:02d})"
        )
    return Band(day, start, end)


def _parse_window(match: re.Match[str], token: str, path: str | None) -> Window:
    day = check_date(match.group(1), token, path)
    after, until = match.group(2), match.group(3)
    for value in (after, until):
        if value and ts_key(value) is None:
            raise InputError(path, None, f"interval token {token!r}: {value!r} is not a timestamp")
    if after and (ts_key(after) or "") >= (ts_key(until) or ""):
        raise InputError(path, None, f"interval token {token!r}: window is empty (t1 >= t2)")
    return Window(day, after, until)


def _diagnose(token: str) -> str:
    if "[" not in token:
        return "missing '[' (expected YYYYMMDD[hh,hh] or YYYY-MM-DD[t1,t2])"
    if not token.endswith("]"):
        return "missing closing ']'"
    head, _, body = token.partition("[")
    if token.count("[") > 1 or token.count("]") > 1:
        return "more than one bracket pair"
    if body.count(",") != 1:
        return "expected exactly two bounds separated by one comma"
    if re.fullmatch(r"[0-9]{8}", head):
        return "hours must be one or two digits each"
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", head):
        return "window bounds must be timestamps, the second non-empty"
    return f"{head!r} is not YYYYMMDD or YYYY-MM-DD"


def parse_token(token: str, path: str | None = None) -> Band | Window:
    """Parse one interval token.

    Raises:
        InputError: a malformed token, with the reason (bad date, hour > 23,
            reversed band, missing bracket, unparseable timestamp, ...).
    """
    band = _BAND.fullmatch(token)
    if band:
        return _parse_band(band, token, path)
    window = _WINDOW.fullmatch(token)
    if window:
        return _parse_window(window, token, path)
    raise InputError(path, None, f"interval token {token!r}: {_diagnose(token)}")


def parse_interval(text: str, path: str | None = None) -> list[Band | Window]:
    """Parse space-separated interval tokens, in order.

    Raises:
        InputError: empty text or any malformed token.
    """
    tokens = text.split()
    if not tokens:
        raise InputError(path, None, "empty interval: expected YYYYMMDD[hh,hh] tokens")
    return [parse_token(token, path) for token in tokens]


def render_interval(items: Iterable[Band | Window]) -> str:
    """The tokens of ``items`` joined by single spaces."""
    return " ".join(item.token() for item in items)


def merge_hours(hours: Iterable[int]) -> list[tuple[int, int]]:
    """Distinct hours → inclusive runs of consecutive hours: {3,4,5,14,15} → [(3,5),(14,15)]."""
    runs: list[tuple[int, int]] = []
    for hour in sorted(set(hours)):
        if runs and hour == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], hour)
        else:
            runs.append((hour, hour))
    return runs
