"""Stage-2 directed inbox items: routing by transport marker and prose, and results.

The body is data: markers and prose choose a route, never a path to follow. Routes:
``scan`` (interval tokens in the body), ``update`` (board maintenance:
``[memory:claude-compress]``, ``[memory:claude-lint]``, ``[sink]``, ``[merge]``, or prose
asking to compact/prune/repair/rewrite ``memory/CLAUDE.md``), ``entity`` (entity-converge),
``orphans`` (orphan-islands / orphan-newborn) and ``unclear`` (left on disk).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from shared.constants import SCAN_GAP_PENDING
from shared.errors import InputError
from shared.partitions.inbox import InboxItem, name_problem
from shared.spine.interval import parse_interval, render_interval

_MARKER_RE = re.compile(r"^\s*(?:-\s*\[[ xX]\]\s*)?(\[[^\]\n]+\])")
_TOKEN_RE = re.compile(
    r"\b[0-9]{8}\[[0-9]{1,2},[0-9]{1,2}\]|\b[0-9]{4}-[0-9]{2}-[0-9]{2}\[[^\[\],\s]*,[^\[\],\s]+\]"
)
_UPDATE_MARKERS = frozenset(
    {"[memory:claude-compress]", "[memory:claude-lint]", "[sink]", "[merge]"}
)
_SLUG_RE = re.compile(r"\[\[([^\]\n]+)\]\]")
_LINE_RE = re.compile(r"CLAUDE\.md:L([0-9]+)")


@dataclass(frozen=True)
class Route:
    """The chosen work for one item: route name, marker, interval, named lines, reason."""

    name: str
    body: str
    route: str
    marker: str | None
    reason: str
    interval: str | None = None
    slugs: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "body": self.body,
            "route": self.route,
            "marker": self.marker,
            "reason": self.reason,
            "interval": self.interval,
            "slugs": list(self.slugs),
            "lines": list(self.lines),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Route:
        return cls(
            name=str(data["name"]),
            body=str(data["body"]),
            route=str(data["route"]),
            marker=data.get("marker"),
            reason=str(data.get("reason", "")),
            interval=data.get("interval"),
            slugs=tuple(data.get("slugs", ())),
            lines=tuple(int(x) for x in data.get("lines", ())),
        )


def route_item(item: InboxItem) -> Route:
    """Classify one inbox item (pure)."""
    body = item.body
    match = _MARKER_RE.match(body)
    marker = match.group(1) if match else None
    slugs = tuple(dict.fromkeys(s.strip() for s in _SLUG_RE.findall(body)))
    lines = tuple(int(n) for n in _LINE_RE.findall(body))
    low = body.lower()
    tokens = _TOKEN_RE.findall(body)

    def make(route: str, reason: str, interval: str | None = None) -> Route:
        return Route(item.name, body, route, marker, reason, interval, slugs, lines)

    if item.problem is not None:
        # Its text is not what was written (bad bytes read as U+FFFD): acting on it or
        # acking it would lose the item. Reported as file:line:column and left on disk.
        return make(
            "unclear",
            f"{item.name}:{item.problem}; left in place: fix its encoding (UTF-8) to settle it",
        )
    problem = name_problem(item.name)
    if problem is not None:
        # The rule enqueue enforces (shared.partitions.inbox.name_problem): acking such a name
        # would delete the wrong file or none, so it is never selected; left on disk.
        return make("unclear", f"the item name {problem}; rename it to settle it")
    if marker in _UPDATE_MARKERS:
        return make("update", f"{marker} asks for broadcast maintenance from evidence")
    if marker == "[entity-converge]":
        if not slugs:
            return make("unclear", "entity-converge names no [[slug]]")
        return make("entity", "entity-converge: converge the dossier to the four sections")
    if marker == "[orphan-islands]" or (marker is None and body.startswith("topics/")):
        return make("orphans", "orphan report: needs line-level evidence to wire into the board")
    if marker in {"[scan-gap]", None} and (tokens or re.search(r"\bscan\b", low)):
        if not tokens:
            return make("unclear", "scan request names no interval token")
        try:
            interval = render_interval(parse_interval(" ".join(tokens)))
        except InputError as exc:
            return make("unclear", f"scan request with a bad interval: {exc.message}")
        return make("scan", "scan request for an explicit interval", interval)
    if (
        marker is None
        and "claude.md" in low
        and re.search(r"\b(?:compact|compress|prune|repair|rewrite|lint|fix|clean)", low)
    ):
        return make("update", "prose asks for broadcast maintenance of memory/CLAUDE.md")
    if marker is None and re.search(r"\b(?:dossier|pointer)\b", low) and slugs:
        return make("entity", "missing dossier / unresolved pointer report")
    return make("unclear", f"no route for marker {marker or '(none)'} and this prose")


def waiting_note(route: Route) -> str:
    """The report's note for an item left on disk: ``name: reason``, or the reason
    alone when it already starts with the name (``name:LINE:COL: …``)."""
    if route.reason.startswith(f"{route.name}:"):
        return route.reason
    return f"{route.name}: {route.reason}"


def select_item(
    items: list[InboxItem], wanted: str | None = None
) -> tuple[Route | None, list[Route]]:
    """The one actionable directed item (first in order, or ``wanted``) and the
    routes of every other non-scan-gap item (left on disk)."""
    routes = [route_item(i) for i in items if i.name != SCAN_GAP_PENDING]
    chosen: Route | None = None
    for route in routes:
        if wanted is not None:
            if route.name == wanted:
                chosen = route
                break
        elif route.route != "unclear":
            chosen = route
            break
    others = [r for r in routes if chosen is None or r.name != chosen.name]
    return chosen, others
