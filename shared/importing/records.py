"""The typed records a transcript reader yields, and the reader interface.

A reader turns one transcript file into :class:`Utterance` records (what the user said
or did, what the agent said and which tools it used) and :class:`Problem` records (a
line it could not read). It never writes: the import run turns utterances into spine
events (``envelope``), redacts them and appends them.

Reading is incremental. :class:`ReadState` says how far a file was read: the byte
offset and line number just past the last complete record, the session id once known,
how many utterances were emitted, and a small format-specific ``extra`` map (for example
tool names by tool-use id, to name a tool result). A reader starts at ``state.offset``
and advances the state only past records it has fully read, so a record still being
written (no newline yet, or cut JSON on the last line) is left for the next run.

The contract the import run relies on to cut batches: a reader advances ``state`` past a
record only after it has yielded every utterance of that record (when the generator
resumes after the record's last yield), and all utterances of one record share the
``record_id`` before any ``#``. So when the first utterance of the next record arrives,
``state`` is exactly "everything before this record was read", the point at which a batch
may be written and the watermark saved.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO, Protocol


class Role(StrEnum):
    """Who an utterance is from, which decides the spine event it becomes."""

    USER = "user"  # what a person typed: an external channel.message
    USER_ACTION = "user_action"  # what a person did (rejected a tool call, interrupted)
    AGENT = "agent"  # the agent's reply text: agent.result
    TOOL_USE = "tool_use"  # a tool the agent called: agent.tool_use
    TOOL_RESULT = "tool_result"  # what the tool returned: agent.tool_result


@dataclass(frozen=True)
class Utterance:
    """One thing said or done in a session, in the transcript's order.

    ``record_id`` is unique within the session and stable across runs: the record's own
    id (a Claude Code ``uuid``), with ``#<n>`` for the n-th block of a record that yields
    several, or an ordinal (``m<n>``) for formats without ids. ``ts`` is the
    transcript's own timestamp text (any ISO-8601 form), or None when the record has
    none (the run then uses the previous utterance's). ``line`` is the 1-based line of
    the source file the record starts on, for problems and provenance.
    """

    role: Role
    text: str
    session_id: str
    record_id: str
    ts: str | None
    line: int
    tool_name: str | None = None
    tool_use_id: str | None = None
    is_error: bool = False


@dataclass(frozen=True)
class Problem:
    """A record that could not be read, named ``file:line: reason`` (``file:line:column:
    reason`` when the column is known, as for a byte that is not UTF-8); the rest goes
    on."""

    path: str
    line: int
    reason: str
    column: int | None = None

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}" if self.column is not None else f"{self.line}"
        return f"{self.path}:{where}: {self.reason}"


@dataclass
class ReadState:
    """How far a file was read (see the module docstring). JSON-serialisable fields only."""

    offset: int = 0
    line: int = 0
    session_id: str | None = None
    emitted: int = 0
    extra: dict[str, str] = field(default_factory=dict)


class FormatReader(Protocol):
    """A transcript format: which files it reads, and how."""

    name: str  # the source kind and session-key prefix: claude-code, codex, specstory, aider
    # True when the format only appends, so changed bytes before the watermark mean the
    # file was replaced; False when the tool rewrites the file (the reader copes).
    incremental: bool

    def matches(self, path: Path) -> bool:
        """True for a file name this format writes (used when walking a directory)."""
        ...

    def read(
        self, handle: BinaryIO, path: str, state: ReadState, *, final: bool
    ) -> Iterator[Utterance | Problem]:
        """Yield the utterances and problems after ``state``, advancing ``state`` past
        each complete record. ``handle`` is the file opened for binary reading; ``path``
        names it in problems. ``final`` is True when the file has stopped changing (its
        last record may be taken even without a closing newline or a following header)."""
        ...
