"""The report's data: typed frozen records collected from the kernel, the runtime and git.

Every record is plain data (strings, numbers, tuples, enums) so that one
:meth:`Report.to_json` serves ``subcon report --json`` and the HTML renderer reads the
very same values. Kernel and event text is kept verbatim here; escaping is the
renderer's job (Jinja2 autoescape), never the collector's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

SCHEMA = "subcon-report/1"


class Trajectory(StrEnum):
    """A board line's trajectory; ``NO_EFF`` when it has no effectiveness file."""

    STRENGTHENING = "STRENGTHENING"
    NEUTRAL = "NEUTRAL"
    WEAKENING = "WEAKENING"
    NO_EFF = "NO-EFF"

    @classmethod
    def of(cls, text: str | None) -> Trajectory:
        """board-lint's reading (docs/formats.md §8.4): prefix STRENGTHEN / WEAKEN, else NEUTRAL."""
        if text is None:
            return cls.NO_EFF
        upper = text.strip().upper()
        if upper.startswith("STRENGTHEN"):
            return cls.STRENGTHENING
        if upper.startswith("WEAKEN"):
            return cls.WEAKENING
        return cls.NEUTRAL


class ChangeKind(StrEnum):
    """What happened to a board line between two versions of the board."""

    ADD = "add"
    REWRITE = "rewrite"
    REMOVE = "remove"


class DayState(StrEnum):
    """A spine day in the coverage calendar.

    ``covered``: ``fragments/<date>/`` exists and nothing newer waits; ``tail``: covered,
    but external events were appended after the recorded scan progress; ``gap``: not
    covered and has external events (the gap check will offer it); ``quiet``: not
    covered, no external events; ``none``: no partition file that day.
    """

    COVERED = "covered"
    TAIL = "tail"
    GAP = "gap"
    QUIET = "quiet"
    NONE = "none"


@dataclass(frozen=True)
class DayCounts:
    """Fragments on disk for one board line on one UTC day, by trajectory."""

    date: str
    strengthening: int = 0
    neutral: int = 0
    weakening: int = 0

    @property
    def total(self) -> int:
        return self.strengthening + self.neutral + self.weakening


@dataclass(frozen=True)
class Evidence:
    """One fragment that cites a board line: where it is and what it quotes."""

    path: str  # kernel-relative, memory/fragments/<date>/<name>.md
    date: str
    trajectory: str
    signal: str
    event_type: str
    source_kind: str
    source_ts: str
    quotes: tuple[str, ...]
    note: str


@dataclass(frozen=True)
class LineChange:
    """One change to one board line. ``commit`` is None for a change that is only in the
    working tree (written by the updater, not committed yet)."""

    kind: ChangeKind
    commit: str | None
    date: str
    subject: str
    body: str
    old_text: str | None
    new_text: str | None
    reason: str | None
    strengthening: int
    neutral: int
    weakening: int

    @property
    def short(self) -> str:
        return self.commit[:7] if self.commit else "working tree"


@dataclass(frozen=True)
class LineHistory:
    """Every recorded change of one line, oldest first. ``key`` is the line's node marker
    (its stable identity) or, for a line without one, the hash of its first text."""

    key: str
    anchor: str
    text: str
    marker: str | None
    on_board: bool
    changes: tuple[LineChange, ...]


@dataclass(frozen=True)
class BoardRow:
    """One line of ``memory/CLAUDE.md`` as it is in the working tree now."""

    number: int
    text: str
    section: str
    marker: str | None
    hash: str
    trajectory: Trajectory
    strengthening: int
    neutral: int
    weakening: int
    guidance: tuple[str, ...]
    effectiveness: str | None  # kernel-relative path when the file exists
    strip: tuple[DayCounts, ...]
    evidence: tuple[Evidence, ...]
    evidence_total: int
    last_change: LineChange | None
    history: str  # anchor of its LineHistory


@dataclass(frozen=True)
class RejectedLine:
    """One line review rejected: where, which gate, and why."""

    line: int | None
    gate: str | None
    reason: str | None
    quote: str | None


@dataclass(frozen=True)
class HeldFile:
    """An allowlisted file left dirty by the committer. ``source`` says where the
    rejections come from: ``audit`` (the latest wake's records) or ``review`` (a fresh
    review of the working tree, when no wake has decided on this version yet)."""

    path: str
    status: str
    source: str
    decided_at: str | None
    rejected: tuple[RejectedLine, ...]


@dataclass(frozen=True)
class CommitSummary:
    """One recent kernel commit."""

    commit: str
    date: str
    subject: str
    files: int

    @property
    def short(self) -> str:
        return self.commit[:7]


@dataclass(frozen=True)
class RunRecord:
    """One partition run. Fields a source does not record are None."""

    tick: int | None
    started: str | None
    finished: str | None
    duration_ms: int | None
    result: str | None
    source: str  # state | audit | weaver-report | playlist


@dataclass(frozen=True)
class InboxRow:
    """One pending inbox item and how long it has waited."""

    name: str
    body: str
    modified: str
    age_seconds: int


@dataclass(frozen=True)
class PartitionRow:
    """One partition: schedule, last run, backoff, cooldown, runs and inbox."""

    name: str
    discovered: bool  # False: only an inbox dir exists, no subconscious/<name>/CLAUDE.md
    enabled: bool
    cooldown_ticks: int
    last_run_tick: int | None
    cooldown_remaining: int | None
    last_result: str | None
    consecutive_failures: int
    backoff_until: str | None
    backed_off: bool
    runs: tuple[RunRecord, ...]
    inbox: tuple[InboxRow, ...]


@dataclass(frozen=True)
class ImportSource:
    """One transcript source (``format:path``) and its last import."""

    source: str
    last_import: str | None
    files: int
    events: int
    problems: int
    problems_shown: tuple[str, ...]


@dataclass(frozen=True)
class CoverageDay:
    """One day of the window in the spine coverage calendar."""

    date: str
    state: DayState
    events: int
    external: int
    malformed: int
    fragments: int


@dataclass(frozen=True)
class Window:
    start: str
    end: str
    days: int


@dataclass(frozen=True)
class Report:
    """Everything the report shows (see the ``subcon report`` schema in docs/report.md)."""

    schema: str
    generated_at: str
    kernel: str
    runtime: str
    window: Window
    tick: int | None
    board: tuple[BoardRow, ...]
    histories: tuple[LineHistory, ...]
    held: tuple[HeldFile, ...]
    commits: tuple[CommitSummary, ...]
    partitions: tuple[PartitionRow, ...]
    coverage: tuple[CoverageDay, ...]
    imports: tuple[ImportSource, ...]
    problems: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: tuples become lists, enums their string values."""
        data: dict[str, Any] = asdict(self)
        return data
