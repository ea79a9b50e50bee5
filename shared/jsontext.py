"""JSON text in the two shapes the original runtime writes (kernel-format 0.2, 0.3)."""

from __future__ import annotations

import json
from typing import Any


def compact(obj: Any) -> str:
    """``JSON.stringify(obj)``: no spaces, raw UTF-8, insertion order. No trailing LF."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def pretty(obj: Any) -> str:
    """``JSON.stringify(obj, null, 2) + "\\n"``."""
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def drop_absent(obj: dict[str, Any]) -> dict[str, Any]:
    """Drop keys whose value is None, as JSON.stringify drops ``undefined``."""
    return {k: v for k, v in obj.items() if v is not None}
