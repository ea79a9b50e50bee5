"""Line-by-line review of one file's claims against its gate set."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.errors import InputError
from shared.jsontext import shown
from shared.kernel.files import utf8_position
from shared.review.allowlist import FileKind, kind_for_review
from shared.review.gates import secret
from shared.review.gates.base import ReviewContext
from shared.review.gates.registry import review_decision, review_ruling
from shared.review.logical_lines import LogicalLine, logical_lines, touched


@dataclass(frozen=True)
class LineDecision:
    """The verdict on one logical line (``gate``/``why`` None on approve; ``reason`` and
    ``rule`` on an approve are None, or the reason and rule id the precedent judge
    overruled; on a reject ``rule`` is the id of the rule that decided). ``reading`` is
    the reading of the line that rule decided on, when its gate read the line more than
    one way ("as written"), else None. An approve whose line passed only as a gate
    reread it names that reading ("without its label") in ``reading`` and the rule the
    line as written failed in ``rule``, with ``reason`` None."""

    file: str
    line: int
    decision: str  # "approve" | "reject"
    gate: str | None
    reason: str | None
    why: str | None
    text: str
    rule: str | None = None
    reading: str | None = None

    @property
    def rejected(self) -> bool:
        return self.decision == "reject"

    @property
    def overruled(self) -> bool:
        """Approved although a written gate rejected it (the precedent judge was sure)."""
        return self.decision == "approve" and self.reason is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "decision": self.decision,
            "gate": self.gate,
            "rule": self.rule,
            "reading": self.reading,
            "reason": self.reason,
            "why": self.why,
            "text": self.text,
        }

    def log_line(self) -> str:
        """The committer's decision-log line for this rejection (docs/formats.md §11.4);
        a file name with a control character (a newline) is escaped: one line each."""
        return f"- I rejected `{shown(self.file)}:{self.line}` because {self.why}. `{self.reason}`"


def claims_of(text: str, kind: FileKind) -> list[LogicalLine]:
    """Logical lines of a file; wrapped paragraphs are joined except on the board."""
    return logical_lines(text, join_paragraphs=kind is not FileKind.BOARD)


def review_text(
    file: str, kind: FileKind, text: str, changed: set[int] | None = None
) -> list[LineDecision]:
    """Review every logical line of ``text`` (or only those touching ``changed`` lines)."""
    lines = claims_of(text, kind)
    if changed is not None:
        lines = touched(lines, changed)
    out = []
    for ll in lines:
        ctx = ReviewContext(file, kind, ll.section, ll.headings)
        ruling = review_ruling(ll.text, ctx)
        finding = ruling.finding
        if finding is None:
            over = ruling.overruled
            rule: str | None
            reading: str | None
            if over is not None:
                rule, reading = over.rule, over.reading or None
            else:
                decided = review_decision(ll.text, ctx)
                rule, reading = decided.failed or None, decided.passed or None
            out.append(
                LineDecision(
                    file, ll.line, "approve", None, ruling.note, None, ll.text, rule, reading
                )
            )
        else:
            # A credential's value never reaches a quote (audit, review output, report).
            text = secret.quoted(ll.text) if finding.gate == secret.RULE_ID else ll.text
            out.append(
                LineDecision(
                    file,
                    ll.line,
                    "reject",
                    finding.gate,
                    finding.reason,
                    finding.why,
                    text,
                    finding.rule,
                    finding.reading or None,
                )
            )
    return out


def review_paths(paths: list[Path], as_kind: FileKind | None = None) -> list[LineDecision]:
    """``subcon review``: every logical line of each file, with the gate set its path
    implies (:func:`kind_for_review`) or, with ``as_kind``, that kind's gate set.

    Raises:
        InputError: a file is missing, unreadable or not UTF-8.
    """
    out: list[LineDecision] = []
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(path, None, f"cannot read: {exc.strerror or exc}") from exc
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, column = utf8_position(data, exc.start)
            raise InputError(path, line, "not valid UTF-8", column=column) from exc
        kind = as_kind or kind_for_review(path.absolute().as_posix())
        out.extend(review_text(str(path), kind, text))
    return out
