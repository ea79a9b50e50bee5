"""File names, queue names and fixed sets shared by every module."""

from __future__ import annotations

from typing import Final

# Exactly six internal source kinds (docs/formats.md §4.5).
INTERNAL_KINDS: Final = frozenset({"cadence", "meta", "system", "runner", "route", "gateway"})

QUEUE_SCAN: Final = "scan"
QUEUE_KERNEL: Final = "kernel"
QUEUE_COMMIT: Final = "commit"

WEAVER: Final = "memory-weaver"
COMMITTER: Final = "memory-committer"
PATTERN_TRACKER: Final = "pattern-tracker"
IMPLEMENTED_PARTITIONS: Final = frozenset({WEAVER, COMMITTER})

SCAN_GAP_PENDING: Final = "scan-gap.md.pending"
SIGNAL_LEDGER: Final = ".memory-signals.json"
SCAN_PROGRESS_FILE: Final = ".scan.json"

GIT_IDENTITY_NAME: Final = "aladuo"
GIT_IDENTITY_EMAIL: Final = "aladuo@local"

# The kernel .gitignore entries, in order (docs/formats.md §3.2).
GITIGNORE_ENTRIES: Final = (
    "memory/state/",
    "memory/fragments/",
    "memory/effectiveness/",
    "subconscious/inbox/",
    ".claude/",
    "*.tmp",
    "CLAUDE.local.md",
)

TERMINAL_PREFIXES: Final = ("UPDATED:", "NO-OP:", "NO_NEW_GRADIENT:", "BOOTSTRAPPED:")
DEFAULT_CADENCE_INTERVAL_MS: Final = 2_220_000
