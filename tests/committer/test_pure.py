"""Pure parts of the committer: status parsing, allowlist, logical lines, diffs, message."""

from __future__ import annotations

import pytest

from shared.committer.diffing import (
    REORDER,
    TIMESTAMP,
    UNCHANGED,
    WHITESPACE,
    LineStats,
    changed_lines,
    line_stats,
    trivial_reason,
)
from shared.committer.message import CommittedFile, commit_message
from shared.committer.status import StatusEntry, parse_status_z
from shared.errors import InputError
from shared.review.allowlist import FileKind, classify, kind_for_review
from shared.review.logical_lines import logical_lines, touched


def test_parse_status_z_all_shapes() -> None:
    raw = (
        " M memory/CLAUDE.md\0"
        "R  memory/topics/new name.md\0memory/topics/old.md\0"
        "C  config/b.md\0config/a.md\0"
        " D memory/entities/gone.md\0"
        "?? memory/entities/new\nline.md\0"
        "MM memory/entities/both.md\0"
        " T memory/entities/type.md\0"
        "UU memory/entities/conflict.md\0"
        "A  -leading.md\0"
    )
    entries = parse_status_z(raw)
    assert entries[0] == StatusEntry(" ", "M", "memory/CLAUDE.md")
    assert entries[1] == StatusEntry("R", " ", "memory/topics/new name.md", "memory/topics/old.md")
    assert entries[1].paths() == ("memory/topics/new name.md", "memory/topics/old.md")
    assert entries[2].orig_path == "config/a.md"
    assert entries[3].y == "D" and not entries[3].staged
    assert entries[4].untracked and entries[4].path == "memory/entities/new\nline.md"
    assert entries[5].staged
    assert entries[6].y == "T"
    assert entries[7].unmerged
    assert entries[8].path == "-leading.md"


@pytest.mark.parametrize("raw", ["XY\0", "R  new-without-source\0"])
def test_parse_status_z_rejects_garbage(raw: str) -> None:
    with pytest.raises(InputError):
        parse_status_z(raw)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("memory/CLAUDE.md", FileKind.BOARD),
        ("memory/entities/acme.md", FileKind.DOSSIER),
        ("memory/entities/a/b/c.txt", FileKind.DOSSIER),
        ("memory/topics/lesson-x.md", FileKind.TOPIC),
        ("subconscious/memory-weaver/CLAUDE.md", FileKind.PROMPT),
        ("subconscious/a/b/CLAUDE.md", FileKind.PROMPT),
        ("subconscious/playlist.md", FileKind.PLAYLIST),
        ("config/feishu.md", FileKind.CONFIG),
        ("config/x/y.md", FileKind.CONFIG),
        ("subconscious/CLAUDE.md", None),
        ("subconscious/memory-weaver/notes.md", None),
        ("memory/fragments/2026-01-05/x.md", None),
        ("memory/effectiveness/x.md", None),
        ("memory/state/meta-memory-state.json", None),
        ("memory/claude.md", None),
        ("memory/entities", None),
        ("config/x.txt", None),
        ("CLAUDE.md", None),
        ("memory/entities/../CLAUDE.md", None),
    ],
)
def test_allowlist(path: str, kind: FileKind | None) -> None:
    assert classify(path) is kind


def test_kind_for_review_outside_a_kernel() -> None:
    assert kind_for_review("/tmp/x/memory/CLAUDE.md") is FileKind.BOARD
    assert kind_for_review("/tmp/x/memory/entities/a.md") is FileKind.DOSSIER
    assert kind_for_review("/tmp/x/memory/topics/lesson-a.md") is FileKind.TOPIC
    assert kind_for_review("/k/subconscious/memory-weaver/CLAUDE.md") is FileKind.PROMPT
    assert kind_for_review("/tmp/notes.md") is FileKind.DOSSIER
    assert kind_for_review("/srv/specs/memory-weaver/CLAUDE.md") is FileKind.PROMPT


def test_logical_lines_structure_and_continuations() -> None:
    text = (
        "---\n"
        "occurrences: 3\n"
        "---\n"
        "# Intuition\n"
        "\n"
        "- When X happens,\n"
        "  do Y with Z.\n"
        "  - nested claim\n"
        "* star bullet\n"
        "---\n"
        "```\n"
        "- code is not a claim\n"
        "```\n"
        "<!-- a comment\n"
        "still comment -->\n"
        "| a | b |\n"
        "|---|---|\n"
        "1. numbered\n"
        "plain line one\n"
        "plain line two\n"
    )
    lines = logical_lines(text)
    assert [(ll.line, ll.end, ll.text) for ll in lines] == [
        (6, 7, "When X happens, do Y with Z."),
        (8, 8, "nested claim"),
        (9, 9, "star bullet"),
        (16, 16, "| a | b |"),
        (18, 18, "numbered"),
        (19, 19, "plain line one"),
        (20, 20, "plain line two"),
    ]
    assert lines[0].section == "Intuition"
    joined = logical_lines("a wrapped\nparagraph ends.\nNext one.\n", join_paragraphs=True)
    assert [(ll.line, ll.text) for ll in joined] == [
        (1, "a wrapped paragraph ends."),
        (3, "Next one."),
    ]
    assert [ll.line for ll in touched(lines, {7})] == [6]
    assert [ll.text for ll in logical_lines("> quoted claim.\n")] == ["quoted claim."]


def test_logical_lines_cjk() -> None:
    lines = logical_lines("# 直觉\n\n- 每当用户纠正术语时，\n  先复述正确说法。\n")
    assert [(ll.line, ll.text) for ll in lines] == [(3, "每当用户纠正术语时， 先复述正确说法。")]


def test_trivial_reasons() -> None:
    assert trivial_reason("a\n", "a\n") == UNCHANGED
    assert trivial_reason("a b\n", "a  b \n\n") == WHITESPACE
    assert (
        trivial_reason("x 2026-01-05T09:12:33.123Z\n", "x 2026-02-06T10:00:00.000Z\n") == TIMESTAMP
    )
    assert trivial_reason("更新于2026年1月5日\n", "更新于2026年2月6日\n") == TIMESTAMP
    assert trivial_reason("- a\n- b\n", "- b\n- a\n") == REORDER
    assert trivial_reason("- a\n", "- a\n- b\n") is None
    assert trivial_reason("count 3\n", "count 4\n") is None
    assert trivial_reason("", "\n\n") == WHITESPACE
    assert trivial_reason("", "new\n") is None


def test_changed_lines_and_stats() -> None:
    assert changed_lines("a\nb\nc\n", "a\nB\nc\nd\n") == {2, 4}
    assert changed_lines("", "x\ny\n") == {1, 2}
    assert line_stats(["a", "b", "c"], ["a", "B", "c", "d"]) == LineStats(1, 1, 0)
    assert line_stats(["a", "b"], ["a"]) == LineStats(0, 0, 1)


def test_commit_message_forms() -> None:
    subject, message = commit_message(
        [CommittedFile("memory/CLAUDE.md", FileKind.BOARD, "modified", LineStats(2, 1, 0))], 12
    )
    assert subject == "memory(intuition): rewrite 2 broadcast lines and add 1"
    assert message.endswith("\n\nMeta-Tick: 12\nPartition: memory-committer\n")
    assert "Scopes:" not in message
    subject, message = commit_message(
        [
            CommittedFile("memory/entities/a.md", FileKind.DOSSIER, "added"),
            CommittedFile("memory/entities/b.md", FileKind.DOSSIER, "added"),
            CommittedFile("memory/entities/c.md", FileKind.DOSSIER, "modified"),
            CommittedFile("subconscious/memory-weaver/CLAUDE.md", FileKind.PROMPT, "modified"),
            CommittedFile("config/feishu.md", FileKind.CONFIG, "deleted"),
        ],
        None,
    )
    assert subject == (
        "memory(dossier, self-program, channels): add 2 entity dossiers and revise 1; "
        "revise partition prompt memory-weaver; remove channel descriptor feishu"
    )
    assert "Scopes: memory, subconscious, config\nPartition: memory-committer\n" in message
    assert "Meta-Tick" not in message
    subject, _ = commit_message(
        [CommittedFile("subconscious/playlist.md", FileKind.PLAYLIST, "modified")], 1
    )
    assert subject == "subconscious(playlist): revise the partition playlist"
