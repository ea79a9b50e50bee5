"""playlist.md: parse, round complete, rebuild and check-off (docs/formats.md §7.2)."""

from __future__ import annotations

import pytest

from shared.kernel.paths import KernelPaths
from shared.partitions.playlist import (
    DEFAULT_PLAYLIST,
    Playlist,
    check_off,
    is_round_complete,
    parse_items,
    read_playlist,
    rebuild,
    unchecked_count,
    write_playlist,
)

EXAMPLE = """# Subconscious Playlist

## Current Round
- [x] cadence-executor
- [ ] memory-committer
- [x] memory-weaver
- [ ] pattern-tracker

## History
- 2026-01-05T11:00:00.000Z executed=cadence-executor
- 2026-01-05T10:00:00.000Z executed=memory-weaver
"""


def test_round_trip_and_items() -> None:
    assert Playlist.parse(EXAMPLE).render() == EXAMPLE
    items = parse_items(EXAMPLE)
    assert [(i.name, i.done) for i in items] == [
        ("cadence-executor", True),
        ("memory-committer", False),
        ("memory-weaver", True),
        ("pattern-tracker", False),
    ]
    assert Playlist.parse(EXAMPLE).items == items
    assert unchecked_count(EXAMPLE) == 2
    assert not is_round_complete(EXAMPLE)


def test_uppercase_x_and_other_lines_are_ignored() -> None:
    text = "## Current Round\n- [X] a\n* [ ] b\nnote\n  - [ ]  c  \n## Next\n- [ ] d\n"
    assert [(i.name, i.done) for i in parse_items(text)] == [("c", False)]


def test_round_complete_cases() -> None:
    assert is_round_complete(None)
    assert is_round_complete("# no section\n- [ ] a\n")
    assert is_round_complete("## Current Round\n\n## History\n")
    assert is_round_complete("## Current Round\n- [x] a\n")


def test_rebuild_default_template_when_missing() -> None:
    text = rebuild(None, ["memory-weaver", "memory-committer"])
    assert text == (
        "# Subconscious Playlist\n\n## Current Round\n- [ ] memory-weaver\n"
        "- [ ] memory-committer\n\n## History\n"
    )
    assert rebuild(DEFAULT_PLAYLIST, ["memory-weaver", "memory-committer"]) == text


def test_rebuild_replaces_only_the_round_and_keeps_history() -> None:
    done = EXAMPLE.replace("- [ ]", "- [x]")
    text = rebuild(done, ["a", "b"])
    assert text.startswith("# Subconscious Playlist\n\n## Current Round\n- [ ] a\n- [ ] b\n\n")
    assert text.endswith("executed=memory-weaver\n")
    assert "## History\n- 2026-01-05T11:00:00.000Z executed=cadence-executor" in text


def test_rebuild_skips_a_second_current_round_heading_and_strips_trailing_space() -> None:
    text = "## Current Round\n- [x] a\n## Current Round\n- [x] z\n## History  \n\n\n"
    assert rebuild(text, ["n"]) == "## Current Round\n- [ ] n\n\n## History\n"


def test_rebuild_appends_section_when_missing() -> None:
    assert (
        rebuild("# Playlist\n\nnotes\n", ["x"])
        == "# Playlist\n\nnotes\n\n## Current Round\n- [ ] x\n"
    )


def test_check_off_marks_first_matching_line_and_inserts_history() -> None:
    text = check_off(EXAMPLE, "pattern-tracker", "2026-01-05T12:00:00.000Z")
    assert text is not None
    assert "- [x] pattern-tracker" in text
    assert (
        "## History\n- 2026-01-05T12:00:00.000Z executed=pattern-tracker\n- 2026-01-05T11" in text
    )
    assert unchecked_count(text) == 1


def test_check_off_keeps_indent_and_matches_anywhere_in_file() -> None:
    text = "# P\n  - [ ] w  \n## Current Round\n- [ ] w\n## History\n"
    result = check_off(text, "w", "T")
    assert result == "# P\n  - [x] w  \n## Current Round\n- [ ] w\n## History\n- T executed=w\n"


def test_check_off_appends_history_when_missing() -> None:
    # As the original: lines + ["", "## History", entry], so the file's own trailing
    # LF leaves two blank lines before the heading.
    result = check_off("## Current Round\n- [ ] w\n", "w", "T")
    assert result == "## Current Round\n- [x] w\n\n\n## History\n- T executed=w\n"
    result = check_off("## Current Round\n- [ ] w", "w", "T")
    assert result == "## Current Round\n- [x] w\n\n## History\n- T executed=w\n"


def test_check_off_irregular_spacing_and_absent_name_return_none() -> None:
    text = "## Current Round\n- [ ]  w\n## History\n"
    assert [i.name for i in parse_items(text)] == ["w"]
    assert check_off(text, "w", "T") is None
    assert check_off(text, "other", "T") is None
    assert check_off(None, "w", "T") is None


def test_cjk_partition_names() -> None:
    text = rebuild(None, ["记忆-织者"])
    assert parse_items(text)[0].name == "记忆-织者"
    checked = check_off(text, "记忆-织者", "T")
    assert checked is not None and is_round_complete(checked)


def test_read_write(paths: KernelPaths) -> None:
    assert read_playlist(paths) is None
    write_playlist(paths, EXAMPLE)
    assert read_playlist(paths) == EXAMPLE


# Outputs of duoduo's own rebuild (Kfe) and check-off (xI) on the same texts.
ORIGINAL_PLAYLIST_CASES = [
    ("rebuild", "# P", "# P\n## Current Round\n- [ ] alpha\n- [ ] Beta\n- [ ] memory-weaver\n"),
    ("rebuild", "", "\n## Current Round\n- [ ] alpha\n- [ ] Beta\n- [ ] memory-weaver\n"),
    (
        "rebuild",
        "# P\n\n\n",
        "# P\n\n\n\n## Current Round\n- [ ] alpha\n- [ ] Beta\n- [ ] memory-weaver\n",
    ),
    (
        "rebuild",
        "## Current Round\n- [x] a\n- [x] b",
        "## Current Round\n- [ ] alpha\n- [ ] Beta\n- [ ] memory-weaver\n",
    ),
    (
        "check_off",
        "## Current Round\n  - [ ] a  \n- [X] b\n-  [ ] c\n- [ ]  d\n## Next\n- [ ] e\n",
        "## Current Round\n  - [x] a  \n- [X] b\n-  [ ] c\n- [ ]  d\n## Next\n- [ ] e\n\n\n## History\n- 2026-01-05T11:00:00.000Z executed=a\n",  # noqa: E501
    ),
    (
        "check_off",
        "# S\n\n## Current Round\n- [ ] a\n\n## History\n- 2026-01-01T00:00:00.000Z executed=a\n\n\n",  # noqa: E501
        "# S\n\n## Current Round\n- [x] a\n\n## History\n- 2026-01-05T11:00:00.000Z executed=a\n- 2026-01-01T00:00:00.000Z executed=a\n",  # noqa: E501
    ),
    (
        "check_off",
        "# S\n\n## Current Round\n- [ ] a\n- [ ] a\n",
        "# S\n\n## Current Round\n- [x] a\n- [ ] a\n\n\n## History\n- 2026-01-05T11:00:00.000Z executed=a\n",  # noqa: E501
    ),
    (
        "check_off",
        "# S\n\n## Current Round\n- [ ] a\n\n## History",
        "# S\n\n## Current Round\n- [x] a\n\n## History\n- 2026-01-05T11:00:00.000Z executed=a\n",
    ),
]


@pytest.mark.parametrize(("op", "text", "expected"), ORIGINAL_PLAYLIST_CASES)
def test_rebuild_and_check_off_match_the_original_byte_for_byte(
    op: str, text: str, expected: str
) -> None:
    if op == "rebuild":
        assert rebuild(text, ["alpha", "Beta", "memory-weaver"]) == expected
    else:
        assert check_off(text, "a", "2026-01-05T11:00:00.000Z") == expected
