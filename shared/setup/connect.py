"""What makes a coding agent read the board: one line in a file the agent already loads.

- Claude Code expands ``@path`` imports in ``CLAUDE.md`` (the project's, or
  ``~/.claude/CLAUDE.md`` for every project), so the board is imported whole.
- Codex reads ``AGENTS.md`` (the project's, or ``~/.codex/AGENTS.md``) verbatim and does
  not expand ``@`` imports (openai/codex#6038, still open), so the nearest equivalent is
  a standing instruction naming the board's absolute path; the agent reads it with its
  file tool.
- Cursor (whose chats SpecStory saves) loads ``.cursor/rules/*.mdc`` files marked
  ``alwaysApply``, and a rule's ``@file`` reference attaches that file.
- aider loads read-only context files named under ``read:`` in ``.aider.conf.yml``.

Nothing is written unless asked (``--write``); writing appends the line once (a file that
already holds it is left as it is) and creates the file if it is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from shared.errors import ConfigError
from shared.kernel.files import atomic_write_text

AGENTS = ("claude-code", "codex", "cursor", "aider")


@dataclass(frozen=True)
class Connection:
    """The file an agent loads, the text that makes it read the board, and why."""

    agent: str
    file: Path
    text: str
    note: str

    def present(self) -> bool:
        """True when the file already holds the text (nothing to write)."""
        try:
            return self.text.strip() in self.file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False

    def write(self) -> bool:
        """Append the text (creating the file); False when it was already there."""
        if self.present():
            return False
        try:
            old = self.file.read_text(encoding="utf-8")
        except FileNotFoundError:
            old = ""
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{self.file}: cannot read it to add the board line: {exc}") from None
        sep = "" if not old or old.endswith("\n\n") else ("\n" if old.endswith("\n") else "\n\n")
        self.file.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.file, old + sep + self.text)
        return True


def connection(agent: str, board: Path, project: Path | None, home: Path) -> Connection:
    """How ``agent`` comes to read ``board``: in ``project`` (a directory), else for
    every project of the user whose home is ``home``.

    Raises:
        ConfigError: an unknown agent, or Cursor/aider without a project (they have no
            user-wide file for this).
    """
    board = board.resolve()
    if agent == "claude-code":
        target = (project / "CLAUDE.md") if project else home / ".claude" / "CLAUDE.md"
        return Connection(
            agent,
            target,
            f"@{board}\n",
            "Claude Code imports the file named after @ when it loads CLAUDE.md.",
        )
    if agent == "codex":
        target = (project / "AGENTS.md") if project else home / ".codex" / "AGENTS.md"
        return Connection(
            agent,
            target,
            f"Before you start a task, read {board}: it holds the standing rules learnt "
            "from earlier sessions, and they apply here.\n",
            "Codex does not expand @ imports in AGENTS.md, so this line asks the agent "
            "to read the board.",
        )
    if project is None and agent in ("cursor", "aider"):
        raise ConfigError(f"connect {agent} needs --project DIR (it has no user-wide file)")
    if agent == "cursor":
        assert project is not None
        return Connection(
            agent,
            project / ".cursor" / "rules" / "subcon-board.mdc",
            "---\ndescription: standing rules learnt from earlier sessions (subcon)\n"
            f"alwaysApply: true\n---\n\n@{board}\n",
            "Cursor applies an alwaysApply rule to every chat and attaches its @file.",
        )
    if agent == "aider":
        assert project is not None
        return Connection(
            agent,
            project / ".aider.conf.yml",
            f"read: [{board}]\n",
            "aider adds the files under read: to every chat as read-only context "
            "(merge by hand if the file already has a read: key).",
        )
    raise ConfigError(f"unknown agent {agent!r}: use one of {', '.join(AGENTS)}")
