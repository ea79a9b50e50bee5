"""Front matter split and YAML scalar resolution as gray-matter + js-yaml 3 do it."""

from __future__ import annotations

import pytest

from shared.errors import InputError
from shared.formats.frontmatter import js_trim, parse_front_matter, split_front_matter

WEAVER = """---
schedule:
  enabled: true
  cooldown_ticks: 5
  max_duration_ms: 2100000
contract:
  partition: memory-weaver
  consumes:
    - scan-gap.v1
---

# memory-weaver

I coordinate.
"""


def test_partition_file_round_trips_byte_for_byte() -> None:
    parsed = parse_front_matter(WEAVER)
    assert parsed.render() == WEAVER
    assert parsed.data is not None
    assert parsed.data["schedule"]["cooldown_ticks"] == 5
    assert parsed.body == "\n# memory-weaver\n\nI coordinate.\n"
    assert parsed.prompt_content == "# memory-weaver\n\nI coordinate."


def test_with_body_keeps_front_matter_text_untouched() -> None:
    parsed = parse_front_matter(WEAVER).with_body("new body\n")
    assert parsed.render() == WEAVER.split("---\n\n#")[0] + "---\nnew body\n"


@pytest.mark.parametrize(
    ("scalar", "expected"),
    [
        ("no", "no"),
        ("yes", "yes"),
        ("on", "on"),
        ("off", "off"),
        ("true", True),
        ("False", False),
        ("TRUE", True),
        ("tRUE", "tRUE"),
        ("2026-01-05", "2026-01-05"),
        ("2026-02-30", "2026-02-30"),
        ("1e3", 1000.0),
        ("1:30", 90),
        ("0x10", 16),
        ("~", None),
        ('"5"', "5"),
    ],
)
def test_scalars_resolve_like_js_yaml_3(scalar: str, expected: object) -> None:
    data, _ = split_front_matter(f"---\nvalue: {scalar}\n---\nbody\n")
    assert data == {"value": expected}
    assert type(data["value"]) is type(expected)


def test_no_front_matter_gives_none_and_the_whole_text() -> None:
    assert split_front_matter("# title\n---\nx\n") == (None, "# title\n---\nx\n")
    # Four dashes are not an opening delimiter.
    assert split_front_matter("----\na: 1\n---\n")[0] is None


def test_bom_is_kept_for_the_round_trip_but_not_in_data() -> None:
    text = "\ufeff---\na: 1\n---\nbody"
    parsed = parse_front_matter(text)
    assert parsed.data == {"a": 1}
    assert parsed.body == "body"
    assert parsed.render() == text


def test_unclosed_front_matter_makes_the_body_empty() -> None:
    data, body = split_front_matter("---\na: 1\n")
    assert data == {"a": 1}
    assert body == ""


def test_comment_only_block_is_empty_data() -> None:
    assert split_front_matter("---\n# only a comment\n---\nbody") == ({}, "body")


def test_non_mapping_document_reads_as_empty_mapping() -> None:
    assert split_front_matter("---\n- a\n- b\n---\nx")[0] == {}


def test_broken_yaml_names_file_and_line() -> None:
    with pytest.raises(InputError) as err:
        split_front_matter("---\nschedule:\n  enabled: [true\n---\nbody\n", "p/CLAUDE.md")
    assert str(err.value).startswith("p/CLAUDE.md:")
    assert err.value.line is not None and err.value.line >= 3


def test_duplicate_keys_are_an_error_like_js_yaml() -> None:
    with pytest.raises(InputError, match="duplicated mapping key"):
        split_front_matter("---\na: 1\na: 2\n---\n", "x.md")


def test_unknown_language_is_rejected() -> None:
    with pytest.raises(InputError, match="language"):
        split_front_matter("---toml\na = 1\n---\n")


def test_yaml_language_tag_is_accepted() -> None:
    assert split_front_matter("---yaml\na: 1\n---\nb")[0] == {"a": 1}


def test_cjk_values_and_js_trim() -> None:
    data, body = split_front_matter("---\n名字: 记忆\n---\n\u3000正文\u3000\n")
    assert data == {"名字": "记忆"}
    assert js_trim(body) == "正文"
    # Python's strip would also remove U+001F; JS trim does not.
    assert js_trim("\x1fa\x1f") == "\x1fa\x1f"


def test_tab_indented_schedule_block_reads_as_js_yaml_does() -> None:
    """js-yaml 3 counts only spaces as indentation: duoduo reads this file as two
    top-level keys and schedules the partition (PyYAML refuses the tab)."""
    text = "---\nschedule:\n\tcooldown_ticks: 4\n---\ntab\n"
    assert split_front_matter(text) == ({"schedule": None, "cooldown_ticks": 4}, "tab\n")
    spaced = "---\nschedule:\n  \tcooldown_ticks: 4\n---\nx\n"
    assert split_front_matter(spaced)[0] == {"schedule": {"cooldown_ticks": 4}}


def test_tab_indentation_js_yaml_refuses_is_still_an_error() -> None:
    text = "---\nschedule:\n \t cooldown_ticks: 4\n  enabled: false\n---\nx\n"
    with pytest.raises(InputError, match=r"p\.md:3: front matter YAML"):
        split_front_matter(text, "p.md")


def test_json_opener_uses_json_parse() -> None:
    text = '---json\n{"schedule": {"cooldown_ticks": 4}}\n---\nlang json\n'
    assert split_front_matter(text) == ({"schedule": {"cooldown_ticks": 4}}, "lang json\n")
    assert split_front_matter("---json\n[1, 2]\n---\nx\n")[0] == {}
    with pytest.raises(InputError, match=r"p\.md:3: front matter JSON"):
        split_front_matter('---json\n{\n"a": }\n---\nx\n', "p.md")
    with pytest.raises(InputError, match="NaN is not JSON"):
        split_front_matter('---json\n{"a": NaN}\n---\nx\n', "p.md")
    # gray-matter knows "json" only in lower case; its javascript engine runs code.
    for opener in ("---JSON", "---js", "---javascript"):
        with pytest.raises(InputError, match="not supported"):
            split_front_matter(f"{opener}\n{{}}\n---\nx\n")


def test_sequence_and_mapping_keys_become_js_strings() -> None:
    """js-yaml 3 stores String(key): duoduo schedules these files (PyYAML refused them)."""
    assert split_front_matter("---\n? [a, b]\n: complex key\n---\nx\n")[0] == {"a,b": "complex key"}
    assert split_front_matter("---\n? {a: 1}\n: v\n---\nx\n")[0] == {"[object Object]": "v"}
    with pytest.raises(InputError, match="nested arrays"):
        split_front_matter("---\n? [a, [b, c]]\n: v\n---\nx\n", "p.md")


def test_explicit_bool_tag_takes_only_js_yaml_booleans() -> None:
    """`!!bool yes` is an error in js-yaml 3 (duoduo drops the partition), true in PyYAML."""
    assert split_front_matter("---\nenabled: !!bool true\n---\nx\n")[0] == {"enabled": True}
    with pytest.raises(
        InputError, match=r"p\.md:3: front matter YAML: cannot resolve !!bool 'yes'"
    ):
        split_front_matter("---\nschedule:\n  enabled: !!bool yes\n---\nx\n", "p.md")
