"""``[[slug]]`` links and board reachability in the memory check (docs/formats.md §8.3)."""

from __future__ import annotations

from shared.memcheck.reads import MemoryReads


def scan_links(text: str) -> list[str]:
    """Every link occurrence, raw and untrimmed, in order.

    At ``[[`` the first ``]`` after it must be followed by ``]``; otherwise scanning
    resumes one character after the ``[`` (so ``[[[x]]`` yields ``[x``).
    """
    links: list[str] = []
    index = 0
    while True:
        start = text.find("[[", index)
        if start == -1:
            return links
        close = text.find("]", start + 2)
        if close == -1:
            return links
        if text[close + 1 : close + 2] == "]":
            raw = text[start + 2 : close]
            if raw:
                links.append(raw)
            index = close + 2
        else:
            index = start + 1


def link_targets(text: str) -> list[str]:
    """Distinct link targets, code-unit sorted."""
    return sorted(set(scan_links(text)), key=lambda s: s.encode("utf-16-be"))


def is_safe_slug(slug: str) -> bool:
    """Non-empty, no path separator or NUL, not ``.``/``..``."""
    return bool(slug) and slug not in {".", ".."} and not any(c in slug for c in "/\\\0")


def resolve_text(reads: MemoryReads, slug: str) -> str | None:
    """Topic + entity text of ``slug`` (LF-joined), plus its effectiveness file when at
    least one of them exists; None for an unsafe or unresolved slug."""
    if not is_safe_slug(slug):
        return None
    parts = [
        t
        for t in (reads.text(f"topics/{slug}.md"), reads.text(f"entities/{slug}.md"))
        if t is not None
    ]
    if not parts:
        return None
    effectiveness = reads.text(f"effectiveness/{slug}.md")
    if effectiveness is not None:
        parts.append(effectiveness)
    return "\n".join(parts)


def board_closure(reads: MemoryReads, board_text: str) -> set[str]:
    """Slugs reachable from the board: its safe link targets (reached even without a
    file) and, breadth first, the safe targets found in their resolved texts."""
    reached = {s for s in link_targets(board_text) if is_safe_slug(s)}
    frontier = sorted(reached)
    while frontier:
        found: list[str] = []
        for slug in frontier:
            text = resolve_text(reads, slug)
            if text is None:
                continue
            for target in link_targets(text):
                if is_safe_slug(target) and target not in reached:
                    reached.add(target)
                    found.append(target)
        frontier = sorted(found)
    return reached


def route_contract_decision(rel: str) -> str:
    """``pattern-tracker`` for ``topics/lesson-*`` / ``topics/groove-*``, else memory-weaver."""
    slug = rel.rsplit("/", 1)[-1].removesuffix(".md")
    if rel.startswith("topics/") and slug.startswith(("lesson-", "groove-")):
        return "pattern-tracker"
    return "memory-weaver"
