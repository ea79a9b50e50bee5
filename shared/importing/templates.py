"""Command templates a tool expands into the person's message.

A custom command (Codex's ``~/.codex/prompts``, Cursor's and Claude Code's command files)
is sent as the command file's text with the typed arguments put in. The GitHub Spec Kit
convention, copied by many command files, puts them first::

    ## User Input

    ```text
    <what the person typed after the command>
    ```

    You **MUST** consider the user input before proceeding (if not empty).

The rest of the message is the command file: the tool's words, not the person's, so only
the typed input is the person's text (an empty command gives none).
"""

from __future__ import annotations

import re

_SPEC_KIT = re.compile(
    r"\A\s*#{1,3} User Input\s*\n+```(?:text)?\n(.*?)\n?```\s*\n+"
    r"You \*\*MUST\*\* consider the user input before proceeding",
    re.S,
)


def typed_input(text: str) -> str | None:
    """The person's typed input when ``text`` is an expanded command template, else
    None (the text is the person's own)."""
    found = _SPEC_KIT.match(text)
    return found.group(1).strip() if found else None
