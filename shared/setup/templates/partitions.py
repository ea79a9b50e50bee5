"""Partition prompt files that `subcon init` installs under ``<kernel>/subconscious/``.

The front matter of each partition file is the one the original runtime ships (its
schedule and contract are machine-read, docs/formats.md §6.2 and §6.3); the prose bodies
are subcon's own short descriptions of what the code does.
"""

from __future__ import annotations

from typing import Final

from shared.constants import COMMITTER, WEAVER

WEAVER_FRONT_MATTER: Final = """\
---
schedule:
  enabled: true
  cooldown_ticks: 5
  max_duration_ms: 2100000
contract:
  partition: memory-weaver
  consumes:
    - entity-converge.v1
    - sink.v1
    - merge.v1
    - orphan-islands.v1
    - orphan-newborn.v1
    - scan-gap.v1
---
"""

COMMITTER_FRONT_MATTER: Final = """\
---
schedule:
  enabled: true
  cooldown_ticks: 3
  max_duration_ms: 1800000
---
"""

WEAVER_BODY: Final = """\
# memory-weaver

I turn the agent's recent history into durable memory. Each wake runs in a fixed
order: first one scanner pass over the interval the gap check handed me, then at
most one directed item from my inbox.

1. Scan: read the external events of the interval (internal kinds `cadence`,
   `meta`, `system`, `runner`, `route` and `gateway` never count as evidence),
   hold each one against the lines of `memory/CLAUDE.md`, and write one fragment
   per piece of evidence under `memory/fragments/<UTC date>/`, naming the line it
   tested and whether that line was followed (STRENGTHENING), missed
   (WEAKENING), not yet triggered (NEUTRAL), or absent (NEW_SIGNAL).
2. Crystallize: rebuild `memory/effectiveness/<marker>.md` for every line from all
   fragments on disk, and promote recurring subjects into `memory/entities/`.
3. Update: keep, sharpen, rewrite, remove or add board lines only where the
   effectiveness evidence asks for it.

I delete `scan-gap.md.pending` once the scanner pass over its interval is done,
and a directed item only after its work reaches a terminal result (`UPDATED:`,
`NO-OP:`, `NO_NEW_GRADIENT:`, `BOOTSTRAPPED:`). Every count in my report can be
re-derived from files on disk. With nothing to do I answer:

NO_NEW_GRADIENT: no external evidence changed memory.
"""

COMMITTER_BODY: Final = """\
# memory-committer

I am the only part of the subconscious that changes git. On each wake I list the
dirty files in the kernel, keep those on the allowlist (`memory/CLAUDE.md`,
`memory/entities/**`, `memory/topics/**`, partition `CLAUDE.md` files,
`subconscious/playlist.md`, `config/**/*.md`), and review every changed line
against the review gates: a board line needs a concrete trigger, a direction for
the next action and an activation; lines about the memory system itself, status
recaps and lines grounded only in internal runtime traffic are rejected.

Files whose lines all pass go into one commit as `aladuo <aladuo@local>`; a file
with a rejected line is held back and each rejected line is written to the audit
log with its file, line number, gate and reason. I never edit memory content,
stash, reset or rewrite history. My answer is `Committed: <hash> (<N> files).
<summary>.` or `NO_NEW_GRADIENT`, followed by the audit lines of held-back files.
"""

WEAVER_CLAUDE_MD: Final = WEAVER_FRONT_MATTER + "\n" + WEAVER_BODY
COMMITTER_CLAUDE_MD: Final = COMMITTER_FRONT_MATTER + "\n" + COMMITTER_BODY

SUBCONSCIOUS_CLAUDE_MD: Final = """\
# Subconscious

Background maintenance that runs beneath the agent's conversations. Each cadence
tick wakes one partition (two when the system is idle); it does its work, writes
its results to files and goes back to sleep with no memory of its own.

- `playlist.md` is the round-robin: the first unchecked, cooled-down partition
  runs next; a finished round is rebuilt from every enabled partition.
- `<partition>/CLAUDE.md` holds a partition's schedule and contract in its front
  matter (machine-read; do not edit `contract:` by hand) and its purpose below.
- Directed work arrives as `.pending` files in
  `<runtime>/var/subconscious/<partition>/inbox/`; the file name is the ack target.
- `memory/CLAUDE.md` is the board every foreground session reads; only
  memory-weaver edits it and only memory-committer commits it.

Spine files under `<runtime>/var/events/` are history: read them, never edit them.
"""

PARTITION_FILES: Final = {
    WEAVER: WEAVER_CLAUDE_MD,
    COMMITTER: COMMITTER_CLAUDE_MD,
}
