"""Layout of a fresh kernel and runtime (docs/formats.md §3)."""

from __future__ import annotations

from typing import Any, Final

from shared.constants import GITIGNORE_ENTRIES

# Runtime dirs relative to the runtime root, in the order the original creates them.
RUNTIME_DIRS: Final = (
    "var",
    "run",
    "var/events",
    "var/events/index",
    "var/registry",
    "var/outbox",
    "var/sessions",
    "var/jobs",
    "var/ingress",
    "var/telemetry",
    "var/usage",
    "var/cadence",
    "var/cadence/inbox",
    "run/locks",
    "run/queue_offsets",
    "var/subconscious",
    "var/meta/partitions",
)

# Kernel dirs relative to the kernel root.
KERNEL_DIRS: Final = (
    "memory",
    "memory/entities",
    "memory/topics",
    "memory/fragments",
    "memory/state",
    "subconscious",
    ".claude",
)

QUEUE_MD: Final = "# Cadence Queue\n\n## Queue\n\n## Notes\n"
PLAYLIST_MD: Final = "# Subconscious Playlist\n\n## Current Round\n\n## History\n"
META_STATE_JSON: Final = "{}\n"
EMPTY_BOARD: Final = ""

GITIGNORE_COMMENT: Final = "# subcon kernel: runtime-derived layers and temp files stay out of git"


def render_gitignore() -> str:
    """The genesis ``.gitignore``: one comment line, then the seven entries of
    docs/formats.md §3.2."""
    return "\n".join((GITIGNORE_COMMENT, *GITIGNORE_ENTRIES)) + "\n"


def missing_gitignore_entries(text: str) -> list[str]:
    """Entries of docs/formats.md §3.2 absent from ``text`` (compared as trimmed lines),
    in that order."""
    present = {line.strip() for line in text.split("\n")}
    return [entry for entry in GITIGNORE_ENTRIES if entry not in present]


def sync_gitignore(text: str) -> tuple[str, list[str]]:
    """Append the missing docs/formats.md §3.2 entries to an existing ``.gitignore`` text.

    Returns the new text (newline-terminated whenever something was appended) and the
    entries that were added; an up-to-date text is returned unchanged.
    """
    missing = missing_gitignore_entries(text)
    if not missing:
        return text, []
    prefix = text if not text or text.endswith("\n") else text + "\n"
    return prefix + "\n".join(missing) + "\n", missing


def status_document(
    *, generated_at: str, kernel_root: str, work_root: str, event_log: str
) -> dict[str, Any]:
    """``var/registry/status.json`` as the original creates it (docs/formats.md §3.3)."""
    return {
        "generated_at": generated_at,
        "kernel": {"root": kernel_root, "version": "unknown"},
        "workspaces": [{"root": work_root, "active_sessions": 0}],
        "cadence": {"mode": "layered", "last_tick": None},
        "spine": {"event_log": event_log},
        "health": {"gateway": "starting", "meta_session": "starting"},
        "limits": {"context_budget_tokens": 18000},
    }
