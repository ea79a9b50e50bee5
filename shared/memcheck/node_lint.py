"""node-lint (docs/formats.md §8.6): lesson/groove nodes with extra sections or over 200 lines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from shared.constants import PATTERN_TRACKER
from shared.memcheck.reads import MemoryReads
from shared.memcheck.selection import Selection

MAX_LINES: Final = 200
_HEADING = re.compile(r"^##\s+(.*)$", re.MULTILINE)
_ALLOWED: Final = {
    "lesson": ("Condition", "Procedure"),
    "groove": ("Condition", "Procedure", "References"),
}


@dataclass(frozen=True)
class NodeRow:
    """One rule node that needs converging."""

    type: str
    slug: str
    lines: int
    unexpected: tuple[str, ...]
    reachable: bool

    @property
    def basename(self) -> str:
        return f"{self.type}-{self.slug}"

    def to_json(self) -> dict[str, Any]:
        return {
            "node": f"topics/{self.basename}.md",
            "lines": self.lines,
            "unexpected": list(self.unexpected),
            "reachable": self.reachable,
        }


def measure_node(basename: str, text: str, closure: set[str]) -> NodeRow | None:
    """The row for ``topics/<basename>.md`` or None (not a rule node, or fine)."""
    kind = (
        "lesson"
        if basename.startswith("lesson-")
        else "groove"
        if basename.startswith("groove-")
        else None
    )
    if kind is None:
        return None
    unexpected = tuple(
        h for h in (m.rstrip(" ") for m in _HEADING.findall(text)) if h not in _ALLOWED[kind]
    )
    lines = text.count("\n")
    if not unexpected and lines <= MAX_LINES:
        return None
    return NodeRow(kind, basename[len(kind) + 1 :], lines, unexpected, basename in closure)


def measure(reads: MemoryReads, closure: set[str]) -> list[NodeRow]:
    """Rows ranked by unexpected-section count, lines (desc), slug, basename."""
    rows: list[NodeRow] = []
    for name in reads.md_names("topics"):
        basename = name.removesuffix(".md")
        if not basename.startswith(("lesson-", "groove-")):
            continue
        text = reads.text(f"topics/{name}")
        if text is None:
            continue
        row = measure_node(basename, text, closure)
        if row is not None:
            rows.append(row)
    return sorted(
        rows,
        key=lambda r: (
            -len(r.unexpected),
            -r.lines,
            r.slug.encode("utf-16-be"),
            r.basename.encode("utf-16-be"),
        ),
    )


def body(row: NodeRow) -> str:
    """The ``[node-converge]`` signal body."""
    lines = [f"[node-converge] [[{row.basename}]]", f"node: topics/{row.basename}.md"]
    if row.lines > MAX_LINES:
        lines.append(f"lines: {row.lines} (over {MAX_LINES})")
    if row.unexpected:
        lines.append(f"unexpected-sections: {len(row.unexpected)}")
        lines += [f"  - ## {heading}" for heading in row.unexpected]
    lines.append(f"reachable: {'yes' if row.reachable else 'no'}")
    if not row.reachable:
        lines.append(
            "escalated: WASTED-COMPUTE — no board line reaches this node, so converging it "
            "only pays off once it is wired in or retired."
        )
    sections = "Condition / Procedure" + (" / References" if row.type == "groove" else "")
    lines.append(
        f"action: converge the node to {sections} only, folding the rest in or dropping it; "
        f"keep [[{row.basename}]] resolvable."
    )
    return "\n".join(lines) + "\n"


def select(rows: list[NodeRow], limit: int = 1) -> list[Selection]:
    """The top ``limit`` rows as ``node-converge.v1`` selections for pattern-tracker."""
    return [
        Selection("node-converge.v1", PATTERN_TRACKER, f"{r.basename}.md.pending", body(r))
        for r in rows[:limit]
    ]
