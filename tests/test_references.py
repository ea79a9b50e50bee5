"""Comments cite only what the repository holds.

Source comments and docstrings may point at ``docs/formats.md`` sections (``§N`` or
``§N.M``), and every section they cite must exist there. They must not cite documents
that are not in the repository: the original runtime's format reference, the design
sketch, or the labels of earlier work sessions (``H`` plus a digit), nor bare section
numbers of such a document in parentheses.

The README and the changelog link only to files that exist, every page of ``docs/`` is in
the site's nav (``mkdocs.yml``; ``mkdocs build --strict`` in ``.ci/run`` checks the links
between pages), and ``.ci/run`` ends with the README's test command, verbatim.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ROOT / "docs" / "formats.md"
SOURCE_DIRS = ("shared", "workers", "tests", "bench")

# Built from pieces so that this file does not match its own patterns.
_FOREIGN = re.compile(
    "|".join(
        (
            r"\bkernel" + r"-format\b",
            r"\bdesign" + r"\.md\b",
            r"(?<![\w-])" + "H" + r"[0-9](?![\w-])",
        )
    )
)
_NUM = r"(?:1[0-9]|[0-9])\.[0-9]{1,2}"
_BARE_SECTIONS = re.compile(rf"\({_NUM}(?:[,;] *{_NUM})*(?: step [0-9]+)?\)")
_CITED = re.compile(r"§([0-9]+(?:\.[0-9]+)?)")
_HEADING = re.compile(r"^(#{2,3}) ([0-9]+(?:\.[0-9]+)?)\.? +\S", re.MULTILINE)


_STATEMENT_START = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT})


def source_files() -> list[Path]:
    return sorted(p for d in SOURCE_DIRS for p in (ROOT / d).rglob("*.py"))


def _docstring_rows(source: str) -> set[int]:
    """First lines of string tokens that are statements on their own (docstrings and
    other bare string expressions), which is where prose lives."""
    rows: set[int] = set()
    previous = tokenize.NEWLINE
    depth = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        if tok.type == tokenize.STRING and depth == 0 and previous in _STATEMENT_START:
            rows.add(tok.start[0])
        if tok.type not in (tokenize.COMMENT,):
            previous = tok.type
    return rows


def prose(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of every comment and docstring line in ``path``."""
    source = path.read_text(encoding="utf-8")
    starts = _docstring_rows(source)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start[0] in starts):
            for offset, line in enumerate(tok.string.split("\n")):
                yield tok.start[0] + offset, line


def format_sections(text: str) -> set[str]:
    return {match.group(2) for match in _HEADING.finditer(text)}


def foreign_references(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for lineno, line in prose(path):
        match = _FOREIGN.search(line) or _BARE_SECTIONS.search(line)
        if match:
            found.append(f"{path.relative_to(root)}:{lineno}: {match.group()!r}")
    return found


def missing_sections(path: Path, sections: set[str]) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: §{m.group(1)}"
        for m in _CITED.finditer(text)
        if m.group(1) not in sections
    ]


def test_the_detector_sees_foreign_references(tmp_path: Path) -> None:
    """The checks below would catch each kind of reference they exist for."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Backoff follows kernel' + '-format 5.9."""\n'
        "# see design" + ".md\n"
        "# written by " + "H" + "5\n"
        'def f() -> None:\n    """The state file (7.2, 12.2)."""\n'
        'X = "H' + '1 is a code string, not prose"\n',
        encoding="utf-8",
    )
    found = foreign_references(sample, tmp_path)
    assert [row.split(":")[1] for row in found] == ["1", "2", "3", "5"]


def test_formats_doc_numbers_its_sections_consistently() -> None:
    text = FORMATS.read_text(encoding="utf-8")
    headings = [(m.group(1), m.group(2)) for m in _HEADING.finditer(text)]
    numbers = [n for _, n in headings]
    assert len(numbers) == len(set(numbers)), "a section number is used twice"
    top = [int(n) for level, n in headings if level == "##"]
    assert top == list(range(1, len(top) + 1)), "top-level sections are not 1, 2, 3, ..."
    for level, number in headings:
        assert (level == "##") == ("." not in number), f"§{number} sits at the wrong level"
        if "." in number:
            assert number.split(".")[0] in numbers, f"§{number} has no parent section"


def test_no_reference_to_documents_the_repository_does_not_hold() -> None:
    files = source_files()
    assert len(files) > 100
    assert [row for path in files for row in foreign_references(path)] == []


def test_every_cited_formats_section_exists() -> None:
    sections = format_sections(FORMATS.read_text(encoding="utf-8"))
    cited = [*source_files(), ROOT / "README.md", FORMATS]
    missing = [row for path in cited for row in missing_sections(path, sections)]
    assert missing == []
    # The check is not vacuous: the sources do cite sections.
    assert sum(len(_CITED.findall(p.read_text(encoding="utf-8"))) for p in cited) > 50


# ------------------------------------------------------------------ README, docs site, CI
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(path: Path) -> list[str]:
    """The targets of ``path``'s Markdown links that point inside the repository."""
    return [
        target
        for target in _LINK.findall(path.read_text(encoding="utf-8"))
        if not target.startswith(("http://", "https://", "mailto:", "#"))
    ]


def broken_links(path: Path) -> list[str]:
    return [
        f"{path.name}: {target}"
        for target in relative_links(path)
        if not (path.parent / target.split("#", 1)[0]).exists()
    ]


def test_readme_and_changelog_links_point_at_files_that_exist() -> None:
    # The docs pages are checked by ``mkdocs build --strict`` (.ci/run); these two are not
    # part of the site.
    readme, changelog = ROOT / "README.md", ROOT / "CHANGELOG.md"
    assert len(relative_links(readme)) > 10
    assert broken_links(readme) + broken_links(changelog) == []


def test_the_link_check_sees_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("x", encoding="utf-8")
    page.write_text(
        "[a](there.md#part) [b](gone.md) [c](https://example.org/x) [d](#top)\n", encoding="utf-8"
    )
    assert relative_links(page) == ["there.md#part", "gone.md"]
    assert [row.rsplit(": ", 1)[1] for row in broken_links(page)] == ["gone.md"]


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for entry in nav for page in _nav_pages(entry)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def test_every_docs_page_is_in_the_site_nav_once() -> None:
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    pages = _nav_pages(config["nav"])
    assert len(pages) == len(set(pages))
    assert sorted(pages) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert config["theme"]["name"] == "material" and config["docs_dir"] == "docs"


def test_ci_ends_with_the_readme_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip("\n").splitlines()
    command = ci[-1]
    assert command.startswith("apt-get update") and command.endswith("python -m pytest")
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert command in readme
    # The docs site is built with --strict among the static checks, before the tests.
    static = "\n".join(ci[: ci.index(command)])
    assert '\nmkdocs build --strict --site-dir "$(mktemp -d)"' in static
