"""entity-lint (docs/formats.md §8.5): entity dossiers missing the four current-picture sections."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Final

from shared.constants import WEAVER
from shared.memcheck.reads import MemoryReads
from shared.memcheck.selection import Selection

REQUIRED_SECTIONS: Final = ("what it is now", "relationship", "open variables", "trend")
_HEADING = re.compile(r"^##\s+(.*)$", re.MULTILINE)
# Dated stamps of any year (docs/formats.md §12) (the original hard-codes 2026).
_DATED = re.compile(r"(?:19|20)\d{2}-\d{2}-\d{2}|(?:19|20)\d{2}[01]\d[0-3]\d", re.ASCII)


@dataclass(frozen=True)
class EntityRow:
    """One dossier that lacks a current-picture section."""

    slug: str
    kb: int
    lines: int
    dated: int
    reachable: bool

    @property
    def score(self) -> int:
        return self.kb * 1000 + self.dated

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "score": self.score}


def has_current_picture(text: str) -> bool:
    """True when every required section matches a ``## `` heading (lowercased, untrimmed)
    that equals it or continues with a space or ``/``."""
    headings = [h.lower() for h in _HEADING.findall(text)]
    return all(
        any(h == req or h.startswith((req + " ", req + "/")) for h in headings)
        for req in REQUIRED_SECTIONS
    )


def measure_entity(slug: str, text: str, closure: set[str]) -> EntityRow | None:
    """The row for one dossier, or None when it already has all four sections."""
    if has_current_picture(text):
        return None
    size = len(text.encode("utf-8"))
    return EntityRow(
        slug=slug,
        kb=math.ceil(size / 1024),
        lines=text.count("\n"),
        dated=sum(1 for line in text.split("\n") if _DATED.search(line)),
        reachable=slug in closure,
    )


def measure(reads: MemoryReads, closure: set[str]) -> list[EntityRow]:
    """Rows for every ``entities/*.md`` lacking a section, ranked (score desc, slug asc)."""
    rows: list[EntityRow] = []
    for name in reads.md_names("entities"):
        text = reads.text(f"entities/{name}")
        if text is None:
            continue
        row = measure_entity(name.removesuffix(".md"), text, closure)
        if row is not None:
            rows.append(row)
    return sorted(rows, key=lambda r: (-r.score, r.slug.encode("utf-16-be")))


def body(row: EntityRow) -> str:
    """The ``[entity-converge]`` signal body."""
    reach = "reachable" if row.reachable else "unreachable"
    lines = [
        f"[entity-converge] [[{row.slug}]]",
        f"node: memory/entities/{row.slug}.md",
        f"shape: {row.kb}K, {row.lines} lines, {row.dated} dated stamps, {reach} from board — "
        "the dossier has grown as a log instead of a current picture.",
        "action: overwrite the whole file as a current picture with the sections "
        "`## What it is now`, `## Relationship / stance`, `## Open variables`, `## Trend`; "
        f"keep [[{row.slug}]] resolvable.",
    ]
    if not row.reachable:
        lines.append(
            "note: nothing on the board reaches this dossier; it is a dead card until a "
            "board line or another node links to it."
        )
    return "\n".join(lines) + "\n"


def select(rows: list[EntityRow], limit: int = 1) -> list[Selection]:
    """The top ``limit`` rows as ``entity-converge.v1`` selections for memory-weaver."""
    return [
        Selection("entity-converge.v1", WEAVER, f"entity-converge-{r.slug}.md.pending", body(r))
        for r in rows[:limit]
    ]
