"""Round-trip and invariant properties of the text records, on arbitrary (incl. CJK) text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared.errors import InputError
from shared.formats.frontmatter import js_trim, parse_front_matter
from shared.partitions.inbox import parse_ledger, render_ledger
from shared.partitions.playlist import (
    Playlist,
    check_off,
    is_round_complete,
    parse_items,
    rebuild,
)

TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=200)
LINES = st.lists(
    st.sampled_from(
        ["## Current Round", "## History", "- [ ] a", "- [x] b", "  - [ ] 记忆", "", "x", "## Z"]
    )
    | TEXT.filter(lambda s: "\n" not in s),
    max_size=12,
)
# A playlist line is read back through JavaScript's trim(), which also strips U+FEFF
# (category Cf): a name is one only if trimming leaves it whole.
NAME = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Zs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=12,
).filter(lambda n: js_trim(n) == n)


@given(TEXT)
def test_front_matter_round_trips_or_fails_with_input_error(text: str) -> None:
    try:
        parsed = parse_front_matter(text)
    except InputError:
        return
    assert parsed.render() == text


@given(st.dictionaries(st.sampled_from(["a", "b", "名"]), st.integers(), max_size=3), TEXT)
def test_front_matter_with_yaml_block_round_trips(data: dict[str, int], body: str) -> None:
    head = "---\n" + "".join(f"{k}: {v}\n" for k, v in data.items()) + "---\n"
    parsed = parse_front_matter(head + body)
    assert parsed.render() == head + body
    assert parsed.data == data


@given(LINES)
def test_playlist_round_trip(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert Playlist.parse(text).render() == text


@given(LINES, st.lists(NAME, max_size=5))
def test_rebuild_yields_exactly_the_names_pending(lines: list[str], names: list[str]) -> None:
    text = rebuild("\n".join(lines), names)
    items = parse_items(text)
    assert [i.name for i in items] == names
    assert not any(i.done for i in items)
    assert text.endswith("\n") and not text.endswith(" \n")


@given(st.lists(NAME, min_size=1, max_size=5, unique=True))
def test_checking_off_every_name_completes_the_round(names: list[str]) -> None:
    text = rebuild(None, names)
    for index, name in enumerate(names):
        assert not is_round_complete(text)
        result = check_off(text, name, f"T{index}")
        assert result is not None
        text = result
    assert is_round_complete(text)
    assert text.count(" executed=") == len(names)


@given(st.lists(NAME.map(lambda n: n.replace("/", "_").replace("\\", "_") + ".pending")))
def test_ledger_round_trip(names: list[str]) -> None:
    rendered = render_ledger(names)
    assert parse_ledger(rendered) == frozenset(names)
    assert rendered == render_ledger(parse_ledger(rendered))
