"""``<kernel>/subconscious/playlist.md``: the round-robin schedule (docs/formats.md §7.2).

All functions on text are pure; :func:`read_playlist` / :func:`write_playlist` are the
thin file edges. Lines are split on LF only and every comparison uses JS ``trim``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from shared.formats.frontmatter import js_trim, js_trim_end
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths

DEFAULT_PLAYLIST: Final = "# Subconscious Playlist\n\n## Current Round\n\n## History\n"
CURRENT_ROUND: Final = "## Current Round"
HISTORY: Final = "## History"
_DONE: Final = "- [x] "
_PENDING: Final = "- [ ] "


@dataclass(frozen=True)
class PlaylistItem:
    """One checkbox of the current round; ``line`` is its 0-based line index."""

    name: str
    done: bool
    line: int


@dataclass(frozen=True)
class Playlist:
    """The playlist file as lines; ``render()`` gives back the parsed text exactly."""

    lines: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Playlist:
        """Split ``text`` on LF (never fails: unknown lines are kept as they are)."""
        return cls(tuple(text.split("\n")))

    def render(self) -> str:
        """The text, byte for byte as parsed."""
        return "\n".join(self.lines)

    @property
    def items(self) -> list[PlaylistItem]:
        """Checkboxes under the first ``## Current Round`` up to the next ``## `` heading."""
        return parse_items(self.render())


def _find_heading(lines: list[str] | tuple[str, ...], heading: str) -> int | None:
    for index, line in enumerate(lines):
        if js_trim(line) == heading:
            return index
    return None


def parse_items(text: str | None) -> list[PlaylistItem]:
    """Items of the current round (docs/formats.md §7.2); ``- [X]`` and other lines are ignored."""
    if text is None:
        return []
    lines = text.split("\n")
    start = _find_heading(lines, CURRENT_ROUND)
    if start is None:
        return []
    items: list[PlaylistItem] = []
    for index in range(start + 1, len(lines)):
        trimmed = js_trim(lines[index])
        if trimmed.startswith("## "):
            break
        if trimmed.startswith(_DONE):
            items.append(PlaylistItem(js_trim(trimmed[len(_DONE) :]), True, index))
        elif trimmed.startswith(_PENDING):
            items.append(PlaylistItem(js_trim(trimmed[len(_PENDING) :]), False, index))
    return items


def is_round_complete(text: str | None) -> bool:
    """True when there are no items or all are done; a missing file (None) is complete."""
    return all(item.done for item in parse_items(text))


def unchecked_count(text: str | None) -> int:
    """Number of pending items in the current round."""
    return sum(1 for item in parse_items(text) if not item.done)


def rebuild(text: str | None, enabled_names: Iterable[str]) -> str:
    """A fresh round of ``- [ ] <name>`` lines (call only when the round is complete).

    Byte for byte as the original's rebuild: the lines strictly between
    ``## Current Round`` and the next ``## `` heading (other than another
    ``## Current Round``) become the items plus one empty line; without the heading,
    it and the items are appended as further lines (no blank line is added); a
    missing file starts from the default template. The result is trimmed of
    trailing whitespace and ends in one LF.
    """
    new_lines = [f"- [ ] {name}" for name in enabled_names]
    lines = (DEFAULT_PLAYLIST if text is None else text).split("\n")
    start = _find_heading(lines, CURRENT_ROUND)
    if start is None:
        lines.extend([CURRENT_ROUND, *new_lines])
    else:
        end = len(lines)
        for index in range(start + 1, len(lines)):
            trimmed = js_trim(lines[index])
            if trimmed.startswith("## ") and trimmed != CURRENT_ROUND:
                end = index
                break
        lines[start + 1 : end] = [*new_lines, ""]
    return js_trim_end("\n".join(lines)) + "\n"


def check_off(text: str | None, name: str, now_iso: str) -> str | None:
    """Tick ``name`` off and log ``- <now_iso> executed=<name>`` under ``## History``.

    The first line of the whole file whose trimmed text is ``- [ ] <name>`` gets its first
    ``- [ ]`` replaced by ``- [x]`` (indentation kept). The entry goes right after the
    first ``## History`` line, or, without one, an empty line, the heading and the
    entry are appended as lines. As in the original, the result is trimmed of trailing
    whitespace and ends in one LF. Returns None when no such line exists (then nothing
    is to be written, not even History).
    """
    if text is None:
        return None
    lines = text.split("\n")
    target = f"- [ ] {name}"
    for index, line in enumerate(lines):
        if js_trim(line) == target:
            lines[index] = line.replace("- [ ]", "- [x]", 1)
            break
    else:
        return None
    entry = f"- {now_iso} executed={name}"
    history = _find_heading(lines, HISTORY)
    if history is not None:
        lines.insert(history + 1, entry)
    else:
        lines.extend(["", HISTORY, entry])
    return js_trim_end("\n".join(lines)) + "\n"


def read_playlist(paths: KernelPaths) -> str | None:
    """The playlist text, or None when the file does not exist.

    Raises:
        OSError: the file exists but cannot be read.
    """
    try:
        return paths.playlist.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None


def write_playlist(paths: KernelPaths, text: str) -> None:
    """Write the playlist atomically."""
    atomic_write_text(paths.playlist, text)
