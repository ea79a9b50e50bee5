"""Front matter values subcon writes read back as the same string in a YAML reader.

Interop finding: an all-digit board line hash (about 0.4% of lines, e.g.
326734373252) was written unquoted, and js-yaml read it as a number.
"""

from __future__ import annotations

import pytest
import yaml

from shared.formats.effectiveness import (
    Effectiveness,
    Sample,
    parse_effectiveness,
    render_effectiveness,
)
from shared.formats.fragments import Fragment, parse_fragment, render_fragment
from shared.formats.frontmatter import load_yaml, parse_front_matter, yaml_value

TRICKY = [
    "326734373252",  # an all-digit line hash
    "349134722504",
    "0123",
    "1e3",
    "0x1A",
    "0o17",
    "1:30",
    "true",
    "Yes",
    "off",
    "null",
    "~",
    ".inf",
    "2026-01-05",
    "2026-01-05T09:12:33.123Z",
    "-5",
    "+12",
]
PLAIN = ["a1b2c3d4e5f6", "unavailable", "memory/CLAUDE.md:L3", "lesson-foo", "lark:oc_1:ab"]


@pytest.mark.parametrize("value", TRICKY + PLAIN)
def test_value_reads_back_as_the_same_string(value: str) -> None:
    written = f"k: {yaml_value(value)}\n"
    assert load_yaml(written) == {"k": value}  # js-yaml 3's reading
    assert yaml.safe_load(written) == {"k": value}  # a YAML 1.1 reader
    assert (yaml_value(value) == value) is (value in PLAIN)


def _effectiveness(line_hash: str) -> Effectiveness:
    return Effectiveness(
        node_slug="lesson-price",
        line_hash=line_hash,
        line="memory/CLAUDE.md:L3",
        current_line="When asked for a price, give the number first [[lesson-price]]",
        trajectory="STRENGTHENING",
        strengthening=2,
        neutral=0,
        weakening=0,
        samples=(Sample("memory/fragments/2026-01-05/a.md", "STRENGTHENING: applied"),),
        guidance=("KEEP: the line works.",),
    )


def test_all_digit_line_hash_is_quoted_in_effectiveness_files() -> None:
    text = render_effectiveness(_effectiveness("326734373252"))
    assert 'line_hash: "326734373252"\n' in text
    data = parse_front_matter(text).data
    assert data is not None and data["line_hash"] == "326734373252"
    assert parse_effectiveness(text, "e.md").line_hash == "326734373252"
    plain = render_effectiveness(_effectiveness("a1b2c3d4e5f6"))
    assert "line_hash: a1b2c3d4e5f6\n" in plain
    assert parse_effectiveness(plain, "e.md") == _effectiveness("a1b2c3d4e5f6")


def test_fragment_front_matter_reads_back_as_strings() -> None:
    frag = Fragment(
        source_event_id="evt_2f45c67f-9337-440d-98c4-3f5b8de55d78",
        source_ts="2026-01-05T09:12:33.123Z",
        source_kind="5",  # a non-string kind's label
        session_key="stdio:default:1",
        event_type="channel.message",
        signal="correction",
        claude_md_ref="memory/CLAUDE.md:L3",
        source_line=3,
        source_line_hash="326734373252",
        trajectory="WEAKENING",
        activation="missed",
        root_cause=None,
    )
    text = render_fragment(frag)
    data = parse_front_matter(text).data
    assert data is not None
    for key in ("source_ts", "source_kind", "source_line_hash"):
        assert data[key] == getattr(frag, key), key
    assert data["source_line"] == 3
    assert parse_fragment(text, "f.md") == frag
