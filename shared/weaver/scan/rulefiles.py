"""Rule files a user names, and the board lines whose dossiers cite them.

Users of coding agents point at a rule by its file: "as is specified by
@user-preferences.mdc", "@testing-session-repo-changes.mdc", "did you read
.cursor/rules/bun_over_node.mdc?". A board line distilled from that file cites it in
its dossier (the provenance the bootstrap and the crystallizer write), so naming the
file names the line (issue #29: rule-file mentions attribute directly). Whole-board
files (``CLAUDE.md``, ``AGENTS.md``) are not rule files here: every line came from
them, so naming one names no line.
"""

from __future__ import annotations

import re

# A Cursor rule (``*.mdc``), a file under a ``rules`` folder, or a one-file rule set
# (``.cursorrules``, ``.windsurfrules``, ``.clinerules``); ``@`` is how the editors
# attach one. The name's own characters only: no spaces, so prose never joins a name.
_RULE_FILE = re.compile(
    r"(?<![\w.-])@?"
    r"((?:[\w.-]+/)*[\w.-]+\.mdc"
    r"|(?:[\w.-]+/)*rules/[\w.-]+\.md"
    r"|\.(?:cursor|windsurf|cline)rules)\b",
    re.IGNORECASE,
)


def rule_files(text: str) -> frozenset[str]:
    """The rule files ``text`` names, as lower-case base names (``user-preferences.mdc``)."""
    if ".mdc" not in text and "rules" not in text.lower():
        return frozenset()  # the common turn: one substring test each
    return frozenset(m[1].rsplit("/", 1)[-1].lower() for m in _RULE_FILE.finditer(text))


def cited_rule_files(dossiers: dict[str, str]) -> dict[str, frozenset[str]]:
    """Per dossier slug (its text given), the rule files it cites; none: left out."""
    cited = {slug: rule_files(text) for slug, text in dossiers.items()}
    return {slug: files for slug, files in cited.items() if files}
