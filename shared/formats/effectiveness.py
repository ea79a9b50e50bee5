"""Per-board-line effectiveness files ``memory/effectiveness/<marker>.md`` (docs/formats.md §10.3).

The crystallizer writes them as present snapshots derived from fragment files on
disk; board-lint parses ``Trajectory:``, the ``Evidence: strengthening = ...`` line and
the ``Updater guidance:`` bullets. :func:`render_effectiveness` and
:func:`parse_effectiveness` round-trip for well-formed files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from shared.errors import InputError
from shared.formats.frontmatter import read_flat_value, yaml_value
from shared.kernel.files import read_utf8

KIND = "claude-md-effectiveness-line"
GUIDANCE_VERBS: tuple[str, ...] = ("KEEP", "SHARPEN", "REWRITE", "REMOVE")
_EVIDENCE_RE = re.compile(
    r"^Evidence:\s*strengthening\s*=\s*([0-9]+);\s*neutral\s*=\s*([0-9]+);\s*weakening\s*=\s*([0-9]+)"
)
_HEAD_KEYS = ("kind", "node_slug", "line_hash", "line")
# The weakening kinds (fragment ``weakening_kind``) as one extra body line after
# ``Evidence:``. board-lint reads only the first line holding ``strengthening =`` and
# the guidance bullets, so the original ignores it; the updater reads it.
KINDS: tuple[str, ...] = ("recall-miss", "direction-changed", "obsolete")
_KINDS_RE = re.compile(
    r"^Weakening kinds:\s*recall-miss\s*=\s*(\d+);\s*direction-changed\s*=\s*(\d+);"
    r"\s*obsolete\s*=\s*(\d+)"
)
# A guidance bullet names the class that decided it: ``REWRITE [direction-changed]: ...``.
_CLASS_RE = re.compile(r"^[A-Z]+ \[([a-z-]+)\]")


@dataclass(frozen=True)
class Sample:
    """A representative fragment: its kernel-relative path and why it was chosen."""

    path: str
    why: str


@dataclass(frozen=True)
class Effectiveness:
    """One effectiveness file."""

    node_slug: str
    line_hash: str
    line: str
    current_line: str
    trajectory: str
    strengthening: int
    neutral: int
    weakening: int
    samples: tuple[Sample, ...]
    guidance: tuple[str, ...]
    kinds: tuple[int, int, int] = (0, 0, 0)  # recall-miss, direction-changed, obsolete

    @property
    def deciding_class(self) -> str | None:
        """The evidence class the first guidance bullet names (``[direction-changed]``)."""
        for bullet in self.guidance:
            match = _CLASS_RE.match(bullet)
            if match:
                return match.group(1)
        return None

    @property
    def line_number(self) -> int | None:
        match = re.search(r":L([0-9]+)", self.line)
        return int(match.group(1)) if match else None

    @property
    def total(self) -> int:
        return self.strengthening + self.neutral + self.weakening

    def guidance_verb(self) -> str | None:
        """The first KEEP/SHARPEN/REWRITE/REMOVE verb in the guidance bullets."""
        for bullet in self.guidance:
            for verb in GUIDANCE_VERBS:
                if bullet.startswith(verb):
                    return verb
        return None


def render_effectiveness(eff: Effectiveness) -> str:
    """File text of an effectiveness snapshot (trailing LF)."""
    out = [
        "---",
        f"kind: {KIND}",
        f"node_slug: {yaml_value(eff.node_slug)}",
        f"line_hash: {yaml_value(eff.line_hash)}",
        f"line: {yaml_value(eff.line)}",
        "---",
        "",
        f"Current line: {eff.current_line}",
        f"Trajectory: {eff.trajectory}",
        f"Evidence: strengthening = {eff.strengthening}; neutral = {eff.neutral}; "
        f"weakening = {eff.weakening}",
    ]
    if any(eff.kinds):
        out.append(
            f"Weakening kinds: recall-miss = {eff.kinds[0]}; "
            f"direction-changed = {eff.kinds[1]}; obsolete = {eff.kinds[2]}"
        )
    out += [
        "",
        "Sample evidence:",
        "",
    ]
    out += [f"- {s.path} -- {s.why}" for s in eff.samples]
    out += ["", "Updater guidance:", ""]
    out += [f"- {g}" for g in eff.guidance]
    return "\n".join(out) + "\n"


def _head(lines: list[str], where: str) -> tuple[dict[str, str], int]:
    """The front matter's values and the index of its closing ``---``."""
    if not lines or lines[0].strip() != "---":
        raise InputError(where, 1, "effectiveness file must start with '---'")
    head: dict[str, str] = {}
    for idx in range(1, len(lines)):
        raw = lines[idx]
        if raw.strip() == "---":
            if not head.get("node_slug"):
                raise InputError(where, idx + 1, "missing node_slug")
            return head, idx
        match = re.match(r"^([A-Za-z_]+):\s?(.*)$", raw)
        if not match:
            raise InputError(where, idx + 1, f"malformed front matter line {raw[:60]!r}")
        head[match.group(1)] = read_flat_value(match.group(2))
    raise InputError(where, len(lines), "front matter is not closed with '---'")


@dataclass
class _Body:
    """What the body of an effectiveness file says, as it is read."""

    current: str = ""
    trajectory: str = ""
    counts: tuple[int, int, int] | None = None
    kinds: tuple[int, int, int] = (0, 0, 0)
    samples: list[Sample] = field(default_factory=list)
    guidance: list[str] = field(default_factory=list)


def _counts(
    pattern: re.Pattern[str], stripped: str, where: str, lineno: int, what: str
) -> tuple[int, int, int]:
    match = pattern.match(stripped)
    if not match:
        raise InputError(where, lineno, f"malformed {what} line")
    return (int(match.group(1)), int(match.group(2)), int(match.group(3)))


def _body(lines: list[str], start: int, where: str) -> _Body:
    body = _Body()
    section = ""
    for idx in range(start, len(lines)):
        raw = lines[idx]
        stripped = raw.strip()
        if stripped.startswith("Current line:"):
            body.current = stripped[len("Current line:") :].strip()
        elif stripped.startswith("Trajectory:"):
            body.trajectory = stripped[len("Trajectory:") :].split("#")[0].strip()
        elif stripped.startswith("Evidence:"):
            body.counts = _counts(_EVIDENCE_RE, stripped, where, idx + 1, "Evidence: counts")
        elif stripped.startswith("Weakening kinds:"):
            body.kinds = _counts(_KINDS_RE, stripped, where, idx + 1, "Weakening kinds:")
        elif stripped == "Sample evidence:":
            section = "samples"
        elif stripped == "Updater guidance:":
            section = "guidance"
        elif raw.startswith("- ") and section == "samples":
            sample_path, _, why = raw[2:].partition(" -- ")
            body.samples.append(Sample(sample_path.strip(), why.strip()))
        elif raw.startswith("- ") and section == "guidance":
            body.guidance.append(raw[2:])
    return body


def parse_effectiveness(text: str, path: Path | str = "<effectiveness>") -> Effectiveness:
    """Parse an effectiveness file.

    Raises:
        InputError: missing/unclosed front matter, a malformed front matter line, a
            missing ``node_slug``, a missing ``Trajectory:`` or ``Evidence:`` line.
    """
    where = str(path)
    lines = text.split("\n")
    head, end = _head(lines, where)
    body = _body(lines, end + 1, where)
    if not body.trajectory:
        raise InputError(where, len(lines), "missing 'Trajectory:' line")
    if body.counts is None:
        raise InputError(where, len(lines), "missing 'Evidence:' counts line")
    return Effectiveness(
        node_slug=head["node_slug"],
        line_hash=head.get("line_hash", "unavailable") or "unavailable",
        line=head.get("line", "unavailable") or "unavailable",
        current_line=body.current,
        trajectory=body.trajectory,
        strengthening=body.counts[0],
        neutral=body.counts[1],
        weakening=body.counts[2],
        samples=tuple(body.samples),
        guidance=tuple(body.guidance),
        kinds=body.kinds,
    )


def read_effectiveness(path: Path) -> Effectiveness | None:
    """Read ``path``; None when it does not exist.

    Raises:
        InputError: not UTF-8 or malformed.
    """
    text = read_utf8(path)
    return None if text is None else parse_effectiveness(text, path)


NEW_SIGNALS_KIND = "claude-md-effectiveness-new-signals"


@dataclass(frozen=True)
class Candidate:
    """A cluster of NEW_SIGNAL fragments that may become a board line."""

    slug: str
    signal: str
    trigger: str
    direction: str
    samples: tuple[Sample, ...]

    @property
    def count(self) -> int:
        return len(self.samples)


def render_new_signals(candidates: list[Candidate]) -> str:
    """``memory/effectiveness/new-signals.md`` text for ``candidates`` (in order)."""
    total = sum(c.count for c in candidates)
    out = [
        "---",
        f"kind: {NEW_SIGNALS_KIND}",
        "---",
        "",
        f"New signals: {total} fragments in {len(candidates)} candidates",
    ]
    for cand in candidates:
        out += [
            "",
            f"## Candidate: {cand.slug}",
            "",
            f"Signal: {cand.signal}",
            f"Trigger: {cand.trigger or 'none'}",
            f"Direction: {cand.direction or 'none'}",
            f"Evidence: {cand.count} fragments",
            "",
        ]
        out += [f"- {s.path} -- {s.why}" for s in cand.samples]
    return "\n".join(out) + "\n"


def parse_new_signals(text: str, path: Path | str = "<new-signals>") -> list[Candidate]:
    """Parse ``new-signals.md``.

    Raises:
        InputError: a candidate section without ``Signal:``/``Direction:`` lines, or
            an ``Evidence:`` count that differs from its listed fragments.
    """
    where = str(path)
    candidates: list[Candidate] = []
    current: dict[str, str] | None = None
    samples: list[Sample] = []
    start_line = 0

    def close(end_line: int) -> None:
        if current is None:
            return
        if "Signal" not in current or "Direction" not in current:
            raise InputError(where, start_line, "candidate lacks Signal:/Direction: lines")
        declared = current.get("Evidence", "").split(" ")[0]
        if declared.isascii() and declared.isdigit() and int(declared) != len(samples):
            raise InputError(where, end_line, "Evidence count differs from listed fragments")
        trigger = current.get("Trigger", "none")
        direction = current["Direction"]
        candidates.append(
            Candidate(
                slug=current["slug"],
                signal=current["Signal"],
                trigger="" if trigger == "none" else trigger,
                direction="" if direction == "none" else direction,
                samples=tuple(samples),
            )
        )

    for idx, raw in enumerate(text.split("\n"), start=1):
        if raw.startswith("## Candidate: "):
            close(idx)
            current = {"slug": raw[len("## Candidate: ") :].strip()}
            samples = []
            start_line = idx
        elif current is not None and raw.startswith("- "):
            sample_path, _, why = raw[2:].partition(" -- ")
            samples.append(Sample(sample_path.strip(), why.strip()))
        elif current is not None:
            match = re.match(r"^(Signal|Trigger|Direction|Evidence): (.*)$", raw)
            if match:
                current[match.group(1)] = match.group(2).strip()
    close(len(text.split("\n")))
    return candidates
