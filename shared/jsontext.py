"""JSON text in the two shapes the original runtime writes (docs/formats.md §1.1).

The original cuts strings by UTF-16 unit, so its spine can hold a lone surrogate
escape such as ``\\ud83d``; ``JSON.parse`` keeps it as a lone surrogate and
``JSON.stringify`` writes the escape back. Python's json keeps the lone surrogate as
a raw character, which no UTF-8 writer accepts, so every JSON text made here writes
it as the same escape (valid UTF-8, byte-identical to the original), and
:func:`scrub` gives plain text a U+FFFD in its place.
"""

from __future__ import annotations

import json
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_surrogates(json_text: str) -> str:
    """``json_text`` (JSON made with ``ensure_ascii=False``) with each lone surrogate
    written as its ``\\uXXXX`` escape, as ``JSON.stringify`` writes it."""
    if json_text.isascii():
        return json_text
    return _SURROGATE.sub(_escape, json_text)


def scrub(text: str) -> str:
    """Plain ``text`` with each lone surrogate replaced by U+FFFD, so it encodes as UTF-8."""
    if text.isascii():
        return text
    return _SURROGATE.sub("\ufffd", text)


def shown(name: str) -> str:
    """A name (a file name, an inbox item) as printed in a line of text: control
    characters, a newline say, escaped as in JSON, so one name stays on one line and a
    name cannot forge output lines; a printable name is left as it is."""
    if name.isprintable():
        return name
    return json.dumps(name, ensure_ascii=False)[1:-1]


def compact(obj: Any) -> str:
    """``JSON.stringify(obj)``: no spaces, raw UTF-8, insertion order. No trailing LF."""
    return escape_surrogates(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))


def pretty(obj: Any) -> str:
    """``JSON.stringify(obj, null, 2) + "\\n"``."""
    return escape_surrogates(json.dumps(obj, ensure_ascii=False, indent=2)) + "\n"
