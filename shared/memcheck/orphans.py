"""Orphans (docs/formats.md §8.7): topic nodes the board closure does not reach."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from shared.constants import WEAVER
from shared.memcheck.links import board_closure, route_contract_decision, scan_links
from shared.memcheck.reads import MemoryReads
from shared.memcheck.selection import Selection

NEWBORN_HOURS: Final = 48
ISLAND: Final = "ISLAND"
NEWBORN: Final = "NEWBORN"
STALE: Final = "STALE"


@dataclass(frozen=True)
class Orphan:
    """An unreachable topic node and why it is kept, warned about or stale."""

    slug: str
    kb: int
    mtime_ms: float
    indeg: int
    referenced_by: tuple[str, ...]
    age_hours: float
    state: str

    @property
    def rel(self) -> str:
        return f"topics/{self.slug}.md"

    def to_json(self) -> dict[str, Any]:
        return {
            "rel": self.rel,
            "kb": self.kb,
            "indeg": self.indeg,
            "referenced_by": list(self.referenced_by),
            "state": self.state,
        }


@dataclass(frozen=True)
class OrphanReport:
    """All orphans, sorted by ``rel``."""

    orphans: list[Orphan] = field(default_factory=list)

    def by_state(self, state: str) -> list[Orphan]:
        return [o for o in self.orphans if o.state == state]


def detect_orphans(reads: MemoryReads, now_ms: float) -> OrphanReport | None:
    """Orphan states, or None when the universe is missing (no ``memory/`` dir or no
    regular ``memory/CLAUDE.md``)."""
    if not reads.is_dir() or not reads.is_file("CLAUDE.md"):
        return None
    board = reads.text("CLAUDE.md")
    if board is None:
        return None
    closure = board_closure(reads, board)
    texts: dict[str, str] = {}
    for folder in ("entities", "topics"):
        for name in reads.md_names(folder):
            text = reads.text(f"{folder}/{name}")
            if text is not None:
                texts[f"{folder}/{name}"] = text
    orphans: list[Orphan] = []
    for name in reads.md_names("topics"):
        slug = name.removesuffix(".md")
        if slug in closure:
            continue
        literal = f"[[{slug}]]"
        indeg = 0
        referenced: list[str] = ["CLAUDE.md"] if literal in board else []
        for rel, text in texts.items():
            if rel.rsplit("/", 1)[-1].removesuffix(".md") == slug:
                continue
            indeg += sum(1 for target in scan_links(text) if target == slug)
            if literal in text:
                referenced.append(rel)
        size = len(texts.get(f"topics/{name}", "").encode("utf-8"))
        mtime = reads.mtime_ms(f"topics/{name}")
        age = (now_ms - mtime) / 3_600_000 if mtime else math.inf
        state = ISLAND if indeg >= 1 else NEWBORN if age < NEWBORN_HOURS else STALE
        orphans.append(
            Orphan(
                slug=slug,
                kb=math.ceil(size / 1024),
                mtime_ms=mtime,
                indeg=indeg,
                referenced_by=tuple(sorted(referenced, key=lambda r: r.encode("utf-16-be"))),
                age_hours=age,
                state=state,
            )
        )
    return OrphanReport(sorted(orphans, key=lambda o: o.rel.encode("utf-16-be")))


def newborn_selections(report: OrphanReport) -> list[Selection]:
    """One ``orphan-newborn.v1`` per NEWBORN, routed by ``routeContractDecision``."""
    return [
        Selection(
            "orphan-newborn.v1",
            route_contract_decision(o.rel),
            f"orphan-newborn-{o.slug}.md.pending",
            f"{o.rel}\n"
            "This node was written in the last 48h but nothing links to it: wire it into "
            "the board (or a linked node), or explain why it stands alone.\n",
        )
        for o in report.by_state(NEWBORN)
    ]


def islands_selection(report: OrphanReport) -> list[Selection]:
    """One ``orphan-islands.v1`` listing every ISLAND (none when there are no islands)."""
    islands = report.by_state(ISLAND)
    if not islands:
        return []
    rows = [
        f"- {o.slug} | {'newborn' if 0 <= o.age_hours < NEWBORN_HOURS else 'old'} | "
        f"indeg={o.indeg} | {''.join(r + ' ' for r in o.referenced_by)}"
        for o in islands
    ]
    lines = [
        "[orphan-islands]",
        "scope: topics  (effectiveness/ excluded by default — not graph nodes)",
        f"{len(islands)} topics nodes are unreachable from the board closure but are NOT "
        "indeg=0 leaf junk;",
        "other nodes link to them, so they hold knowledge the board cannot reach.",
        "Reconnect each island from a board line or a reachable node, or fold it into one.",
        "age: newborn = produced within 48h, old = older; referenced-by lists who links in.",
        "",
        "islands: slug | age | indeg | referenced-by",
        *rows,
    ]
    return [
        Selection("orphan-islands.v1", WEAVER, "orphan-islands.md.pending", "\n".join(lines) + "\n")
    ]
