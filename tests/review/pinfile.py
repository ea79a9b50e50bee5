"""The review gates' pins: ``tests/review/pins/<gate>.jsonl``, one invented line per row.

A row is ``{"text", "kind", "section", "expected", "rule"}`` and optionally ``headings``
(the trail of headings above the line, outermost first, when more than the nearest one
decides), ``near`` (on an approve: the id of the rule whose shape the line sits near)
and ``note`` (what the rows beside it show). ``expected`` is ``approve`` or ``reject``;
``rule`` is the id of the rule whose finding must reject the line (``<gate>.<slug>``,
:func:`shared.review.gates.base.rule_id`), null on an approve. A reject sits in the file
of its rule's gate, an approve in the file of the gate it must not trip.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from shared.review.allowlist import FileKind
from shared.review.gates.base import ReviewContext

DIR = Path(__file__).parent / "pins"
KEYS = ("text", "kind", "section", "expected", "rule")
OPTIONAL = ("headings", "near", "note")
# Gates do not read the path (verdicts are memoised without it); one per kind for the record.
PATHS = {
    FileKind.BOARD: "memory/CLAUDE.md",
    FileKind.DOSSIER: "memory/entities/x.md",
    FileKind.TOPIC: "memory/topics/x.md",
    FileKind.PROMPT: "subconscious/memory-weaver/CLAUDE.md",
    FileKind.CONFIG: "config/channels/x.md",
    FileKind.PLAYLIST: "subconscious/playlist.md",
}


@dataclass(frozen=True)
class Pin:
    """One row of a pins file, and where it is (``<gate>.jsonl:<line>``)."""

    gate: str  # the file's stem
    line: int
    row: dict[str, object]

    @property
    def where(self) -> str:
        return f"{self.gate}.jsonl:{self.line}"

    @property
    def text(self) -> str:
        return str(self.row["text"])

    @property
    def kind(self) -> FileKind:
        return FileKind(str(self.row["kind"]))

    @property
    def expected(self) -> str:
        return str(self.row["expected"])

    @property
    def rule(self) -> str | None:
        rule = self.row["rule"]
        return None if rule is None else str(rule)

    @property
    def near(self) -> str | None:
        near = self.row.get("near")
        return None if near is None else str(near)

    @property
    def context(self) -> ReviewContext:
        section = str(self.row["section"])
        headings = self.row.get("headings") or []
        assert isinstance(headings, list)
        return ReviewContext(PATHS[self.kind], self.kind, section, tuple(map(str, headings)))


def pin_files() -> list[Path]:
    return sorted(DIR.glob("*.jsonl"))


def load() -> list[Pin]:
    """Every pin of every gate's file, in file and line order."""
    pins = []
    for path in pin_files():
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if line.strip():
                pins.append(Pin(path.stem, number, json.loads(line)))
    return pins


PINS = load()
