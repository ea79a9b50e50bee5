"""Entity dossiers ``memory/entities/<slug>.md`` (docs/formats.md §10.5).

A dossier is markdown: optional front matter, a preamble (usually ``# <title>``) and
``## `` sections; the four canonical sections are ``## What it is now``,
``## Relationship / stance``, ``## Open variables`` and ``## Trend``. Parsing keeps
every byte (render(parse(x)) == x), so dossiers written by the original runtime are
merged into rather than flattened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from shared.errors import InputError
from shared.kernel.files import read_utf8

SECTIONS: tuple[str, ...] = (
    "What it is now",
    "Relationship / stance",
    "Open variables",
    "Trend",
)
MODAL_TAGS: tuple[str, ...] = (
    "[observation]",
    "[inference]",
    "[instruction]",
    "[conditional:",
    "[hypothesis (unratified)]",
    "[superseded",
)


@dataclass(frozen=True)
class Section:
    """``## heading`` and the raw lines after it (up to the next ``## ``)."""

    heading: str
    lines: tuple[str, ...]

    @property
    def bullets(self) -> list[str]:
        return [ln[2:] for ln in self.lines if ln.startswith("- ")]


@dataclass(frozen=True)
class Dossier:
    """Front matter lines (without the fences), preamble lines, sections."""

    front: tuple[str, ...] | None
    preamble: tuple[str, ...]
    sections: tuple[Section, ...]

    def section(self, heading: str) -> Section | None:
        for sec in self.sections:
            if sec.heading == heading:
                return sec
        return None

    def missing_sections(self) -> list[str]:
        have = {s.heading for s in self.sections}
        return [h for h in SECTIONS if h not in have]


def parse_dossier(text: str, path: Path | str = "<dossier>") -> Dossier:
    """Split dossier text into front matter, preamble and ``## `` sections.

    Raises:
        InputError: front matter opened with ``---`` but never closed, or a section
            heading is repeated.
    """
    lines = text.split("\n")
    front: tuple[str, ...] | None = None
    start = 0
    if lines and lines[0] == "---":
        for idx in range(1, len(lines)):
            if lines[idx] == "---":
                front = tuple(lines[1:idx])
                start = idx + 1
                break
        else:
            raise InputError(str(path), len(lines), "front matter is not closed with '---'")
    preamble: list[str] = []
    sections: list[Section] = []
    heading: str | None = None
    body: list[str] = []
    seen: set[str] = set()
    for idx in range(start, len(lines)):
        raw = lines[idx]
        match = re.match(r"^## (.*)$", raw)
        if match:
            if heading is not None:
                sections.append(Section(heading, tuple(body)))
            heading = match.group(1)
            if heading in seen:
                raise InputError(str(path), idx + 1, f"duplicate section '## {heading}'")
            seen.add(heading)
            body = []
        elif heading is None:
            preamble.append(raw)
        else:
            body.append(raw)
    if heading is not None:
        sections.append(Section(heading, tuple(body)))
    return Dossier(front=front, preamble=tuple(preamble), sections=tuple(sections))


def render_dossier(dossier: Dossier) -> str:
    """The inverse of :func:`parse_dossier`."""
    out: list[str] = []
    if dossier.front is not None:
        out += ["---", *dossier.front, "---"]
    out += list(dossier.preamble)
    for sec in dossier.sections:
        out.append(f"## {sec.heading}")
        out += list(sec.lines)
    return "\n".join(out)


def new_dossier(slug: str, bodies: dict[str, list[str]]) -> Dossier:
    """A fresh dossier for ``slug`` with the four canonical sections in order."""
    sections = []
    for idx, heading in enumerate(SECTIONS):
        lines = ["", *bodies.get(heading, [])]
        if idx < len(SECTIONS) - 1 or lines[-1] != "":
            lines.append("")
        sections.append(Section(heading, tuple(lines)))
    return Dossier(front=None, preamble=(f"# {slug}", ""), sections=tuple(sections))


def merge_bullets(dossier: Dossier, heading: str, bullets: list[str]) -> Dossier:
    """Add ``- bullet`` lines absent from ``heading`` (created at the end if missing)."""
    sec = dossier.section(heading)
    if sec is None:
        fresh = ("", *(f"- {b}" for b in bullets), "") if bullets else ("",)
        new = [Section(heading, fresh)]
        sections = list(dossier.sections)
        if sections and sections[-1].lines and sections[-1].lines[-1] != "":
            last = sections[-1]
            sections[-1] = replace(last, lines=(*last.lines, ""))
        return replace(dossier, sections=tuple(sections + new))
    present = set(sec.bullets)
    add = [b for b in bullets if b not in present]
    if not add:
        return dossier
    body = list(sec.lines)
    insert_at = len(body)
    while insert_at > 0 and body[insert_at - 1].strip() == "":
        insert_at -= 1
    if insert_at == 0:
        body = ["", *body] if not body or body[0] != "" else body
        insert_at = 1
    body[insert_at:insert_at] = [f"- {b}" for b in add]
    updated = tuple(
        replace(s, lines=tuple(body)) if s.heading == heading else s for s in dossier.sections
    )
    return replace(dossier, sections=updated)


def replace_section(dossier: Dossier, heading: str, bullets: list[str]) -> Dossier:
    """Set ``heading``'s body to exactly ``bullets`` (a one-line section like Trend)."""
    if dossier.section(heading) is None:
        return merge_bullets(dossier, heading, bullets)
    body = ("", *(f"- {b}" for b in bullets), "")
    return replace(
        dossier,
        sections=tuple(
            replace(s, lines=body) if s.heading == heading else s for s in dossier.sections
        ),
    )


def read_dossier(path: Path) -> Dossier | None:
    """Read a dossier; None when missing.

    Raises:
        InputError: not UTF-8 or malformed.
    """
    text = read_utf8(path)
    return None if text is None else parse_dossier(text, path)
