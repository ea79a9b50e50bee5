"""The ``scan-gap.md.pending`` inbox body (docs/formats.md §9.4), parsed and rendered.

```
[scan-gap] 20260105[03,05] 20260105[14,15]
partition: var/events/2026-01-05.jsonl
external events in window: 5
action: <fixed instruction>
```

Pure functions only; the body is data, never a path to follow (the date is
checked and the partition path is rebuilt from it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.errors import InputError
from shared.spine.interval import Band, Window, parse_interval

MARKER = "[scan-gap]"
_PARTITION = re.compile(r"partition: var/events/([0-9]{4}-[0-9]{2}-[0-9]{2})\.jsonl")
_COUNT = re.compile(r"external events in window: ([0-9]+)")


@dataclass(frozen=True)
class ScanGapBody:
    """Interval tokens, the partition date, the external-event count, the action text."""

    tokens: tuple[str, ...]
    date: str
    external_events: int
    action: str

    def items(self) -> list[Band | Window]:
        """The parsed interval items of :attr:`tokens`."""
        return parse_interval(" ".join(self.tokens))


def render_scan_gap_body(body: ScanGapBody) -> str:
    """The four body lines with a trailing LF."""
    return (
        f"{MARKER} {' '.join(body.tokens)}\n"
        f"partition: var/events/{body.date}.jsonl\n"
        f"external events in window: {body.external_events}\n"
        f"action: {body.action}\n"
    )


def parse_scan_gap_body(text: str, path: str | None = None) -> ScanGapBody:
    """Parse a scan-gap body. Line 1 (marker + tokens) is required; the partition,
    count and action lines are read when present (a hand-written item may omit them:
    the date then comes from the first token, the count is 0).

    Raises:
        InputError: "path:line: reason" for a missing marker, a malformed token,
            tokens of a date other than the partition line's, or a bad line.
    """
    lines = text.split("\n")
    first = lines[0].rstrip("\r")
    if not first.startswith(MARKER):
        raise InputError(path, 1, f"expected a line starting with {MARKER!r}")
    rest = first[len(MARKER) :]
    if rest and not rest.startswith(" "):
        raise InputError(path, 1, f"expected a space after {MARKER!r}")
    try:
        items = parse_interval(rest, path)
    except InputError as exc:
        raise InputError(path, 1, exc.message) from None
    date = items[0].date
    count = 0
    action = ""
    for lineno, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        if line.startswith("partition:"):
            match = _PARTITION.fullmatch(line.strip())
            if not match:
                raise InputError(path, lineno, "expected 'partition: var/events/YYYY-MM-DD.jsonl'")
            date = match.group(1)
        elif line.startswith("external events in window:"):
            match = _COUNT.fullmatch(line.strip())
            if not match:
                raise InputError(path, lineno, "expected 'external events in window: <count>'")
            count = int(match.group(1))
        elif line.startswith("action:"):
            action = line[len("action:") :].strip()
        else:
            raise InputError(path, lineno, f"unexpected line {line[:60]!r}")
    if any(item.date != date for item in items):
        raise InputError(path, 2, f"interval tokens are not all of partition date {date}")
    return ScanGapBody(tuple(item.token() for item in items), date, count, action)
