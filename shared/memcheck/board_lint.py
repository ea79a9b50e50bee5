"""board-lint (docs/formats.md §8.4): measure board-linked topic nodes, pick revise/sink/merge."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from shared.constants import PATTERN_TRACKER, WEAVER
from shared.memcheck.links import is_safe_slug, link_targets, scan_links
from shared.memcheck.reads import MemoryReads
from shared.memcheck.selection import Selection

_TRAJECTORY = re.compile(r"^trajectory:\s*(.+?)\s*$", re.IGNORECASE)
_EVIDENCE = re.compile(r"strengthening\s*=", re.IGNORECASE)
_COUNTS = {
    key: re.compile(rf"{key}\s*=\s*(\d+)", re.IGNORECASE | re.ASCII)
    for key in ("strengthening", "neutral", "weakening")
}
_GUIDANCE = re.compile(r"updater guidance:", re.IGNORECASE)
_VERDICTS: Final = ("PRESERVE", "KEEP", "REMOVE", "REWRITE", "SHARPEN", "DROP")
_FORMAT = re.compile(r"^# (Pattern|Lesson|Groove):")
_FORMATS: Final = {"Pattern": "legacy", "Lesson": "lesson", "Groove": "groove"}
_TYPE = re.compile(r"^\*\*Type\*\*:", re.IGNORECASE)
_DOMAIN = re.compile(r"research|thesis|supply-chain|-chain|frame|surface|chokepoint")
_BEHAVIORAL = re.compile(
    r"behavioral|workflow|failure|groove|discipline|protocol|procedural|operational pattern|pattern"
)
_WEIGHT: Final = {"WEAKENING": 3, "NEUTRAL": 2, "STRENGTHENING": 1, "NO-EFF": 0}


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@dataclass(frozen=True)
class BoardTarget:
    """The measurement of one board-linked topic node (docs/formats.md §8.4)."""

    slug: str
    board_line: int | None
    trajectory: str
    s: int
    n: int
    w: int
    verdict: str | None
    fmt: str
    cls: str
    dual: bool

    @property
    def line_ref(self) -> str:
        return "?" if self.board_line is None else str(self.board_line)

    @property
    def stats(self) -> str:
        return f"{self.trajectory} (S={self.s} N={self.n} W={self.w})"

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def parse_trajectory(lines: list[str]) -> str:
    for line in lines:
        match = _TRAJECTORY.match(line)
        if match:
            value = match.group(1).upper()
            if value.startswith("STRENGTHEN"):
                return "STRENGTHENING"
            if value.startswith("WEAKEN"):
                return "WEAKENING"
            return "NEUTRAL"
    return "NO-EFF"


def parse_counts(lines: list[str]) -> tuple[int, int, int]:
    for line in lines:
        if _EVIDENCE.search(line):
            found = [_COUNTS[k].search(line) for k in ("strengthening", "neutral", "weakening")]
            s, n, w = (int(m.group(1)) if m else 0 for m in found)
            return s, n, w
    return 0, 0, 0


def parse_verdict(lines: list[str]) -> str | None:
    start = next((i for i, line in enumerate(lines) if _GUIDANCE.search(line)), None)
    if start is None:
        return None
    for line in lines[start + 1 :]:
        if not line.startswith("- "):
            continue
        upper = line.upper()
        hits = [(upper.find(v), v) for v in _VERDICTS if v in upper]
        if hits:
            return min(hits)[1]
    return None


def parse_format(lines: list[str]) -> str:
    for line in lines:
        match = _FORMAT.match(line)
        if match:
            return _FORMATS[match.group(1)]
    return "other"


def parse_class(lines: list[str]) -> str:
    for line in lines:
        if _TYPE.match(line):
            lowered = line.lower()
            if _DOMAIN.search(lowered):
                return "domain"
            if _BEHAVIORAL.search(lowered):
                return "behavioral"
            return "unknown"
    return "unknown"


def measure(reads: MemoryReads, board_text: str) -> list[BoardTarget]:
    """Measure every safe board link target that has a ``topics/<slug>.md`` file."""
    board_lines = _lines(board_text)
    targets: list[BoardTarget] = []
    for slug in link_targets(board_text):
        if not is_safe_slug(slug) or not reads.is_file(f"topics/{slug}.md"):
            continue
        literal = f"[[{slug}]]"
        board_line = next((i + 1 for i, text in enumerate(board_lines) if literal in text), None)
        eff = reads.text(f"effectiveness/{slug}.md")
        eff_lines = _lines(eff) if eff is not None else []
        topic_lines = _lines(reads.text(f"topics/{slug}.md") or "")
        s, n, w = parse_counts(eff_lines)
        targets.append(
            BoardTarget(
                slug=slug,
                board_line=board_line,
                trajectory=parse_trajectory(eff_lines),
                s=s,
                n=n,
                w=w,
                verdict=parse_verdict(eff_lines),
                fmt=parse_format(topic_lines),
                cls=parse_class(topic_lines),
                dual=reads.is_file(f"entities/{slug}.md"),
            )
        )
    return sorted(
        targets,
        key=lambda t: (-_WEIGHT[t.trajectory], -(t.s + t.n + t.w), t.slug.encode("utf-16-be")),
    )


def _revise_body(t: BoardTarget) -> str:
    lines = [
        f"[revise] [[{t.slug}]]",
        f"memory/CLAUDE.md:L{t.line_ref}",
        f"node: topics/{t.slug}.md",
        f"effectiveness: memory/effectiveness/{t.slug}.md",
        f"trajectory: {t.stats}",
    ]
    if t.dual:
        lines.append(f"dual-node: also exists at entities/{t.slug}.md — fold both into one node.")
    lines += [
        "format: legacy `# Pattern:` — rewrite it in the lesson/groove rule-node format.",
        "action: rewrite this node into one converged rule node (Condition / Procedure), "
        "guided by its effectiveness trajectory.",
        f"keep-filename: yes (board L{t.line_ref} and other dossiers reference "
        f"[[{t.slug}]]; keep the link resolvable)",
    ]
    return "\n".join(lines) + "\n"


def _sink_body(t: BoardTarget) -> str:
    return (
        f"[sink] [[{t.slug}]]\n"
        f"memory/CLAUDE.md:L{t.line_ref}\n"
        f"node: topics/{t.slug}.md (Type = domain/research, not a behavioral heuristic)\n"
        f"trajectory: {t.stats}\n"
        f"action: sink this domain note into the matching dossier and keep [[{t.slug}]] "
        "resolvable from the board.\n"
    )


def _merge_body(t: BoardTarget) -> str:
    return (
        f"[merge] [[{t.slug}]]\n"
        f"memory/CLAUDE.md:L{t.line_ref}\n"
        f"entities/{t.slug}.md AND topics/{t.slug}.md both exist — same slug, written twice\n"
        f"action: merge the two files into one and keep [[{t.slug}]] resolvable from the "
        "board line.\n"
    )


def select(targets: list[BoardTarget], limit: int = 1) -> list[Selection]:
    """REVISE, SINK and MERGE selections (each list cut to ``limit``), in that order."""
    scored = [t for t in targets if t.trajectory != "NO-EFF"]
    revise = [
        t
        for t in scored
        if t.cls == "behavioral"
        and t.fmt == "legacy"
        and not (t.trajectory == "WEAKENING" and t.verdict in {"REMOVE", "DROP"})
    ][:limit]
    sink = [t for t in scored if t.cls == "domain"][:limit]
    merge = [t for t in scored if t.dual and t.cls != "domain"][:limit]
    return (
        [
            Selection("revise.v1", PATTERN_TRACKER, f"{t.slug}.md.pending", _revise_body(t))
            for t in revise
        ]
        + [Selection("sink.v1", WEAVER, f"sink-{t.slug}.md.pending", _sink_body(t)) for t in sink]
        + [
            Selection("merge.v1", WEAVER, f"merge-{t.slug}.md.pending", _merge_body(t))
            for t in merge
        ]
    )


def census(board_text: str) -> dict[str, int]:
    """Marker occurrences (``pattern-``/``lesson-``/``groove-``) and other distinct slugs."""
    links = scan_links(board_text)
    counts = {
        kind: sum(1 for s in links if s.startswith(f"{kind}-"))
        for kind in ("pattern", "lesson", "groove")
    }
    counts["other"] = len(
        {s for s in links if not s.startswith(("pattern-", "lesson-", "groove-"))}
    )
    return counts


def missing_dossiers(reads: MemoryReads, board_text: str) -> list[str]:
    """``memory/CLAUDE.md:L<n>: [[slug]] ...`` for every board link whose target has
    neither ``topics/<slug>.md`` nor ``entities/<slug>.md`` (a subcon finding: the
    line stays, the crystallizer bootstraps the dossier on the next weave)."""
    found: list[str] = []
    for number, text in enumerate(_lines(board_text), start=1):
        for slug in dict.fromkeys(scan_links(text)):
            if not is_safe_slug(slug):
                continue
            if reads.is_file(f"topics/{slug}.md") or reads.is_file(f"entities/{slug}.md"):
                continue
            found.append(
                f"memory/CLAUDE.md:L{number}: [[{slug}]] has no topic or entity dossier "
                "(the line is kept; the next weave bootstraps one)"
            )
    return found
