"""Timestamps exactly as the original runtime writes them (docs/formats.md §1.3)."""

from __future__ import annotations

from datetime import UTC, datetime


def iso(moment: datetime | None = None) -> str:
    """``Date.prototype.toISOString()``: UTC, millisecond precision, ``Z``."""
    moment = (moment or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def filename_ts(iso_text: str) -> str:
    """The ISO string with every ``:`` and ``.`` replaced by ``-``."""
    return iso_text.replace(":", "-").replace(".", "-")


def parse_iso(text: str) -> datetime:
    """Parse an ISO-8601 timestamp (``Z`` or offset); naive values are taken as UTC.

    Raises:
        ValueError: the text is not an ISO-8601 timestamp.
    """
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)
