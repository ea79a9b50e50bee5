"""Paths in a claim: where a match starts, now that it starts only where its run does."""

from __future__ import annotations

import pytest

from shared.language.claims.claim import PATH_RE


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("see /abs/path/file.md now", "abs/path/file.md"),
        ("x `docs/a/b.md` y", "`docs/a/b.md`"),
        ("./rel/x.json", "./rel/x.json"),
        ("foo//bar/baz.md", "bar/baz.md"),
        ("a-b/c.d/e.md", "a-b/c.d/e.md"),
        ("中文docs/a.md", "docs/a.md"),
        ("a/" * 50 + "x.md", "a/" * 50 + "x.md"),
    ],
)
def test_a_path_is_matched_whole_from_the_start_of_its_run(text: str, path: str) -> None:
    found = PATH_RE.search(text)
    assert found is not None and found.group(0) == path


def test_a_long_run_with_no_path_has_none() -> None:
    assert PATH_RE.search("." * 5000) is None
    assert PATH_RE.search("a/" * 2000 + "z") is None
