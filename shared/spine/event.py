"""One spine event: parse a JSONL line, render it back, the source gate (docs/formats.md §4).

All functions here are pure: bytes or dicts in, values out.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

from shared.constants import INTERNAL_KINDS
from shared.errors import InputError
from shared.jsontext import escape_surrogates
from shared.kernel.files import utf8_position
from shared.timestamps import parse_iso

# A Number() literal as the original's hour filter sees two characters of ts.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
_CANONICAL_TS = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _NotUtf8(ValueError):
    """The line's byte ``start`` is the first that is not UTF-8."""

    def __init__(self, start: int) -> None:
        super().__init__("not valid UTF-8")
        self.start = start


def _decode(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        first = exc
    # orjson refuses lone surrogate escapes that JSON.parse accepts; the stdlib
    # parser agrees with JSON.parse there (NaN/Infinity are refused explicitly).
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _NotUtf8(exc.start) from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError:
        raise ValueError(f"invalid JSON: {first}") from None


def parse_event_line(line: bytes, path: str, lineno: int) -> dict[str, Any]:
    """Parse one spine line (with or without its trailing LF) into an event dict.

    Raises:
        InputError: "path:lineno:column: not valid UTF-8" (the first bad byte's
            column), or "path:lineno: reason" for invalid JSON or a value that is not
            a JSON object.
    """
    try:
        value = _decode(line)
    except _NotUtf8 as exc:
        _, column = utf8_position(line, exc.start)
        raise InputError(path, lineno, str(exc), column=column) from None
    except ValueError as exc:
        raise InputError(path, lineno, str(exc)) from None
    if not isinstance(value, dict):
        raise InputError(path, lineno, f"not a JSON object ({type(value).__name__})")
    return value


def js_number(value: float) -> str:
    """``String(value)`` for a finite float as JSON.stringify writes it."""
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if not exponent:
        return text.removesuffix(".0")
    exp = int(exponent)
    digits = mantissa.replace("-", "").replace(".", "")
    sign = "-" if value < 0 else ""
    if -7 < exp < 21:
        # repr used an exponent where JavaScript writes plain decimals.
        point = mantissa.replace("-", "").find(".")
        whole = point if point >= 0 else len(digits)
        pos = whole + exp
        if pos <= 0:
            return f"{sign}0.{'0' * -pos}{digits}"
        if pos >= len(digits):
            return f"{sign}{digits}{'0' * (pos - len(digits))}"
        return f"{sign}{digits[:pos]}.{digits[pos:]}"
    return f"{mantissa}e{'+' if exp > 0 else '-'}{abs(exp)}"


def _render(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        # JSON.stringify writes non-finite numbers as null.
        out.append(js_number(value) if math.isfinite(value) else "null")
    elif isinstance(value, dict):
        out.append("{")
        first = True
        for key, item in value.items():
            if not first:
                out.append(",")
            first = False
            out.append(json.dumps(str(key), ensure_ascii=False))
            out.append(":")
            _render(item, out)
        out.append("}")
    elif isinstance(value, list | tuple):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _render(item, out)
        out.append("]")
    else:
        raise TypeError(f"cannot render {type(value).__name__} as JSON")


def render_event(event: dict[str, Any]) -> str:
    """``JSON.stringify(event)``: compact, raw UTF-8, key order kept, no trailing LF.

    Floats are written as JavaScript writes numbers (``1.0`` → ``1``, ``1e-7``), and
    a lone surrogate as its ``\\uXXXX`` escape, as ``JSON.stringify`` writes it.

    Raises:
        TypeError: a value that JSON cannot hold.
    """
    out: list[str] = []
    _render(event, out)
    return escape_surrogates("".join(out))


def kind_label(kind: Any) -> str:
    """``source.kind`` as a string, or '' when the original's gate sees it as falsy.

    gap-lint tests ``!kind``: any non-empty string, ``true``, a non-zero number, and
    every array or object (even ``[]``/``{}``) are truthy; a non-string kind is
    labelled by its compact JSON (``5``, ``["stdio"]``) and can never equal one of
    the six internal kinds.
    """
    if type(kind) is str:
        return kind
    if kind is None or kind is False or (type(kind) in (int, float) and kind == 0):
        return ""
    try:
        out: list[str] = []
        _render(kind, out)
    except TypeError:
        return ""
    return escape_surrogates("".join(out))


def is_external(event: dict[str, Any]) -> bool:
    """The source gate (docs/formats.md §4.5) as the original's code tests it:
    ``source.kind`` is truthy (see :func:`kind_label`) and not one of the six internal
    kinds, and ``ts`` is a string."""
    source = event.get("source")
    if not isinstance(source, dict):
        return False
    kind = kind_label(source.get("kind"))
    return kind != "" and kind not in INTERNAL_KINDS and isinstance(event.get("ts"), str)


def ts_hour(ts: str) -> int | None:
    """The UTC hour gap-lint sees: ``Number(ts.slice(11,13))`` kept if 0..23.

    A bare ``YYYY-MM-DD`` gives ``Number("") = 0``. Non-integral or non-numeric
    slices give None (the original drops NaN; fractional hours cannot form a band).
    """
    piece = ts[11:13]
    # Canonical timestamps (nearly every line) skip the regex; isdigit alone would
    # also take non-ASCII digits, which the slow path below handles.
    if piece.isascii() and piece.isdigit():
        hour = int(piece)
        return hour if hour <= 23 else None
    piece = piece.strip()
    if not piece:
        return 0
    if not _NUMBER.fullmatch(piece):
        return None
    number = float(piece)
    if not number.is_integer() or not 0 <= number <= 23:
        return None
    return int(number)


def is_canonical_ts(ts: str) -> bool:
    """True for ``toISOString()`` shape (``2026-01-05T09:12:33.123Z``), which sorts as text."""
    return len(ts) == 24 and _CANONICAL_TS.fullmatch(ts) is not None


def ts_key(ts: str) -> str | None:
    """A sortable key for a timestamp: the canonical ISO text, or None if unparseable."""
    if is_canonical_ts(ts):
        return ts
    try:
        moment = parse_iso(ts)
    except ValueError:
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def event_date(ts: str) -> str:
    """The UTC date (``YYYY-MM-DD``) of ``ts``: the spine partition of an event.

    Raises:
        InputError: ``ts`` is not an ISO-8601 timestamp.
    """
    key = ts_key(ts)
    if key is None:
        raise InputError(None, None, f"not an ISO-8601 timestamp: {ts!r}")
    return key[:10]
