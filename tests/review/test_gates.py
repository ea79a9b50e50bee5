"""Review gates: the committer spec's worked candidates, its gradient reasons and the gate
sets.

The written rules' examples, both ways and in both languages, are data: one file per
gate in ``tests/review/pins/``, checked by ``tests/review/test_pins.py``. The precedent
judge on top of the rules is measured on real lines (``bench/quality.py``) and tested in
``tests/review/test_precedent.py``; the spec's worked candidates are decided by the final
verdict, judge included.
"""

from __future__ import annotations

import pytest

from shared.review.allowlist import FileKind
from shared.review.gates.base import ReviewContext
from shared.review.gates.registry import GATE_SETS, review_claim, review_rules
from shared.review.logical_lines import logical_lines

BOARD = ReviewContext("memory/CLAUDE.md", FileKind.BOARD)

WORKED = [
    (
        "When `<Person>` opens a reply with a `<correction-marker>` about `<Topic>`, restate "
        "`<Topic>` in the corrected form before answering and treat the corrected form as "
        "canonical for the rest of the exchange.",
        None,
        None,
    ),
    (
        "The memory board is concise and durable.",
        "self-reference: memory-maintenance line",
        "self-reference.memory-maintenance-line",
    ),
    (
        "`<Person>` prefers concise responses.",
        "gradient: missing concrete trigger",
        "gradient.missing-concrete-trigger",
    ),
    (
        "With `<Person>`, when a reply would start with social filler, open with the answer "
        "and keep any courtesy to the closing sentence.",
        None,
        None,
    ),
    (
        "The latest run completed and the queue is clear.",
        "status-shape: run state",
        "status-shape.run-state",
    ),
    (
        "Internal cadence output says the user prefers shorter answers.",
        "inner-outer: internal source only",
        "inner-outer.internal-source-only",
    ),
]


@pytest.mark.parametrize(("text", "reason", "rule"), WORKED)
def test_spec_worked_candidates(text: str, reason: str | None, rule: str | None) -> None:
    # The final verdict, precedent judge included, decides them as the spec does, and
    # names the written rule that did.
    finding = review_claim(text, BOARD)
    assert (finding.reason if finding else None) == reason
    assert (finding.rule if finding else None) == rule


def test_gradient_reasons_are_the_spec_strings() -> None:
    cases = {
        "<Person> prefers concise responses.": "gradient: missing concrete trigger",
        "When a user asks about pricing, the topic is sensitive.": "gradient: no action direction",
        "If a deploy fails, follow the usual checklist.": (
            "gradient: missing skill or pointer activation"
        ),
    }
    for text, reason in cases.items():
        finding = review_rules(text, BOARD)
        assert finding is not None and finding.reason == reason


def test_gate_sets() -> None:
    assert GATE_SETS[FileKind.BOARD][-1] == "gradient"
    assert "gradient" not in GATE_SETS[FileKind.DOSSIER]
    # Partition prompts are about the memory system: no self-reference or inner-outer
    # (their lines are pins of kind "prompt").
    assert GATE_SETS[FileKind.PROMPT] == ("secret", "status-shape")
    # Every file kind is checked for credentials first, the playlist by nothing else.
    assert all(gates[0] == "secret" for gates in GATE_SETS.values())
    assert GATE_SETS[FileKind.PLAYLIST] == ("secret",)


def test_logical_lines_carry_the_whole_trail_of_headings() -> None:
    # the trail the heartbeat reading follows (pins with "headings" in
    # tests/review/pins/inner-outer.jsonl)
    text = "# Heartbeat checklist\n\n## Inbox\n- Check unread priority emails\n\n# Rules\n\n"
    text += "## Inbox\n- Check unread priority emails\n"
    first, second = logical_lines(text)
    assert first.headings == ("Heartbeat checklist", "Inbox") and first.section == "Inbox"
    assert second.headings == ("Rules", "Inbox")
