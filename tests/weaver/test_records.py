"""Fragment, effectiveness, new-signals, dossier and board records: round trips and errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.errors import InputError
from shared.formats.board import line_hash, parse_board
from shared.formats.dossiers import merge_bullets, new_dossier, parse_dossier, render_dossier
from shared.formats.effectiveness import (
    Candidate,
    Sample,
    parse_effectiveness,
    parse_new_signals,
    render_effectiveness,
    render_new_signals,
)
from shared.formats.fragments import Fragment, fragment_filename, parse_fragment, render_fragment

FRAGMENT = """---
source_event_id: evt_2f45c67f-9337-440d-98c4-3f5b8de55d78
source_ts: "2026-01-05T09:12:33.123Z"
source_kind: stdio
session_key: stdio:default:28d3ca682f86
event_type: channel.message
signal: correction
claude_md_ref: memory/CLAUDE.md:L3
source_line: 3
source_line_hash: 0123456789ab
trajectory: WEAKENING
activation: missed
root_cause: recall-miss
---

# Fragment

Evidence:

- The external channel.message (stdio) said: "no, give the number first".

Effectiveness note:

- This weakens `memory/CLAUDE.md:L3` because the agent needed correction.

Pointers:

- line: [[lesson-price]]
- entity: [[acme-corp]]
"""

EFFECTIVENESS = """---
kind: claude-md-effectiveness-line
node_slug: lesson-price
line_hash: 0123456789ab
line: memory/CLAUDE.md:L3
---

Current line: When asked for a price, give the number first [[lesson-price]]
Trajectory: WEAKENING
Evidence: strengthening = 1; neutral = 0; weakening = 2

Sample evidence:

- memory/fragments/2026-01-05/a.md -- WEAKENING: needed correction

Updater guidance:

- REMOVE: weakening evidence names no better direction.
"""

DOSSIER = """# acme-corp

## What it is now

- [observation] A customer on the enterprise plan ([[lesson-price]]).

## Relationship / stance

- [inference] counterparty

## Open variables

## Trend

- [observation] steady
"""


def test_fragment_round_trip_and_fields() -> None:
    frag = parse_fragment(FRAGMENT, "f.md")
    assert render_fragment(frag) == FRAGMENT
    assert frag.marker == "lesson-price"
    assert frag.line_number == 3
    assert frag.root_cause == "recall-miss"
    assert Fragment.from_json(frag.to_json()) == frag.with_changes(extra=())


def test_new_signal_fragment_omits_source_line() -> None:
    frag = parse_fragment(FRAGMENT).with_changes(
        claude_md_ref="none",
        source_line=None,
        source_line_hash=None,
        trajectory="NEW_SIGNAL",
        activation="waiting",
        root_cause=None,
        pointers=(),
    )
    text = render_fragment(frag)
    assert "source_line" not in text and "claude_md_ref: none" in text
    assert "Pointers:" not in text
    assert render_fragment(parse_fragment(text)) == text


def test_fragment_values_with_colons_newlines_and_quotes_round_trip() -> None:
    frag = parse_fragment(FRAGMENT).with_changes(
        session_key='lark:oc_1: "x"', source_event_id="- odd\nid"
    )
    again = parse_fragment(render_fragment(frag))
    assert again.session_key == 'lark:oc_1: "x"'
    assert again.source_event_id == "- odd id"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("no front matter\n", 1),
        ("---\nsource_event_id: e\n", 3),
        ("---\nsource_event_id: e\ntrajectory: SIDEWAYS\nclaude_md_ref: none\n---\n", 3),
        ("---\nsource_event_id: e\ntrajectory: NEUTRAL\n---\n", 4),
        ("---\nsource_event_id: e\nthis is not a key\n---\n", 3),
        ("---\nsource_event_id: e\nsource_line: abc\ntrajectory: NEUTRAL\n---\n", 3),
    ],
)
def test_fragment_errors_name_file_and_line(text: str, line: int) -> None:
    with pytest.raises(InputError) as info:
        parse_fragment(text, "memory/fragments/d/x.md")
    assert info.value.path == "memory/fragments/d/x.md"
    assert info.value.line == line
    assert str(info.value).startswith(f"memory/fragments/d/x.md:{line}: ")


@pytest.mark.parametrize(
    "event_id", ["../../etc/passwd", "a/b", "nul\0byte", "new\nline", "..", ""]
)
def test_fragment_filename_stays_inside_its_directory(event_id: str) -> None:
    frag = parse_fragment(FRAGMENT).with_changes(source_event_id=event_id or "x")
    name = fragment_filename(frag)
    assert "/" not in name and "\0" not in name and "\n" not in name
    assert not name.startswith(".")
    assert name.endswith("_correction_lesson-price_WEAKENING.md")


def test_fragment_filename_distinguishes_sanitised_ids() -> None:
    a = parse_fragment(FRAGMENT).with_changes(source_event_id="a/b")
    b = parse_fragment(FRAGMENT).with_changes(source_event_id="a:b")
    assert fragment_filename(a) != fragment_filename(b)
    assert fragment_filename(a) == fragment_filename(a)


def test_effectiveness_round_trip() -> None:
    eff = parse_effectiveness(EFFECTIVENESS, "e.md")
    assert render_effectiveness(eff) == EFFECTIVENESS
    assert (eff.strengthening, eff.neutral, eff.weakening) == (1, 0, 2)
    assert eff.guidance_verb() == "REMOVE"
    assert eff.line_number == 3


def test_effectiveness_errors() -> None:
    with pytest.raises(InputError) as info:
        parse_effectiveness(
            EFFECTIVENESS.replace("Evidence: strengthening = 1", "Evidence: s=1"), "e.md"
        )
    assert info.value.line == 10
    with pytest.raises(InputError):
        parse_effectiveness(EFFECTIVENESS.replace("node_slug: lesson-price\n", ""), "e.md")
    with pytest.raises(InputError):
        parse_effectiveness("Trajectory: X\n", "e.md")


def test_new_signals_round_trip_and_count_check() -> None:
    cands = [
        Candidate(
            "bullet-points",
            "instruction",
            "i ask for a summary",
            "use bullet points",
            (
                Sample("memory/fragments/d/a.md", "why a"),
                Sample("memory/fragments/d/b.md", "why b"),
            ),
        ),
        Candidate(
            "signal-1a2b",
            "preference",
            "",
            "用表格展示数据",
            (Sample("memory/fragments/d/c.md", "c"),),
        ),
    ]
    text = render_new_signals(cands)
    assert parse_new_signals(text) == cands
    assert render_new_signals(parse_new_signals(text)) == text
    with pytest.raises(InputError):
        parse_new_signals(text.replace("Evidence: 2 fragments", "Evidence: 3 fragments"), "ns.md")


def test_dossier_round_trip_and_merge() -> None:
    dossier = parse_dossier(DOSSIER, "d.md")
    assert render_dossier(dossier) == DOSSIER
    assert dossier.missing_sections() == []
    merged = merge_bullets(dossier, "Open variables", ["[hypothesis (unratified)] renewal?"])
    text = render_dossier(merged)
    assert "## Open variables\n\n- [hypothesis (unratified)] renewal?\n" in text
    assert merge_bullets(merged, "Open variables", ["[hypothesis (unratified)] renewal?"]) == merged
    fresh = render_dossier(new_dossier("x", {"Trend": ["[observation] up"]}))
    assert parse_dossier(fresh).missing_sections() == []
    assert render_dossier(parse_dossier(fresh)) == fresh


def test_dossier_errors() -> None:
    with pytest.raises(InputError) as info:
        parse_dossier("---\nkind: x\n# never closed\n", "d.md")
    assert info.value.path == "d.md"
    with pytest.raises(InputError) as info:
        parse_dossier("## Trend\n\n## Trend\n", "d.md")
    assert info.value.line == 3


def test_board_lines_markers_hashes_and_cues() -> None:
    text = (
        "---\nx: 1\n---\n# Intuition\n\n"
        "- When asked for a price, give the number [[lesson-price]] and [[acme-corp]]\n"
        "```\n- not a line\n```\n- 当用户问价格时，先给数字\n"
    )
    board = parse_board(text)
    assert [ln.number for ln in board.lines] == [6, 10]
    first = board.lines[0]
    assert first.markers == ("lesson-price",) and first.pointers == ("lesson-price", "acme-corp")
    assert first.hash == line_hash(first.text) and first.ref == "memory/CLAUDE.md:L6"
    assert "price" in first.cues and "number" in first.direction_cues
    assert board.by_marker("lesson-price") is first and board.by_hash(first.hash) is first
    assert "价格" in board.lines[1].cues


@settings(max_examples=150, deadline=None)
@given(
    event_id=st.text(min_size=1, max_size=40),
    session=st.text(max_size=40),
    evidence=st.lists(st.text(max_size=60).map(lambda t: " ".join(t.split()) or "x"), max_size=3),
)
def test_fragment_round_trip_property(event_id: str, session: str, evidence: list[str]) -> None:
    base = parse_fragment(FRAGMENT)
    frag = base.with_changes(
        source_event_id=event_id, session_key=session, evidence=tuple(evidence)
    )
    text = render_fragment(frag)
    again = parse_fragment(text)
    assert render_fragment(again) == text
    flat = " ".join(event_id.replace("\0", "").replace("\r", " ").replace("\n", " ").split())
    assert " ".join(again.source_event_id.split()) == flat or not flat
    name = fragment_filename(frag)
    assert "/" not in name and "\0" not in name and not name.startswith(".")
