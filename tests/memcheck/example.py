"""The worked-example kernel (docs/formats.md §8.9), built in temp roots: its files and
the builder the ``example`` fixture uses."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from shared.kernel.paths import KernelPaths
from shared.setup.templates.partitions import WEAVER_FRONT_MATTER

BOARD = """# Intuition

- When a reply opens with filler, lead with the answer [[lesson-reply-first]]
- Old habit [[pattern-old]] and client [[acme-corp]]
- Research note on 600519.SS thesis
- Broken [[missing-slug]]
"""

WEAVER_MD = WEAVER_FRONT_MATTER + "\n# memory-weaver\n"

TRACKER_MD = """---
schedule:
  enabled: true
  cooldown_ticks: 7
  max_duration_ms: 900000
contract:
  partition: pattern-tracker
  consumes:
    - node-converge.v1
    - revise.v1
    - orphan-newborn.v1
---

# pattern-tracker
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def event(kind: str, type_: str, ts: str, n: int) -> str:
    record = {"type": type_, "source": {"kind": kind}, "payload": {}, "id": f"evt_{n}", "ts": ts}
    return json.dumps(record, separators=(",", ":")) + "\n"


def build_example(paths: KernelPaths) -> None:
    mem = paths.memory_dir
    write(paths.board, BOARD)
    write(
        mem / "topics" / "lesson-reply-first.md",
        "# Lesson: reply first\n\n## Condition\nx\n## Procedure\ny\n## History\nz\n",
    )
    write(
        mem / "topics" / "pattern-old.md",
        "# Pattern: old habit\n\n**Type**: behavioral workflow\n\nbody\n",
    )
    write(mem / "topics" / "groove-new.md", "# Groove: new\n\n## Condition\na\n## Procedure\nb\n")
    island = write(mem / "topics" / "island-node.md", "# island\n")
    old = time.time() - 30 * 24 * 3600
    os.utime(island, (old, old))
    write(mem / "entities" / "acme-corp.md", "# Acme\n\nnotes 2026-01-05\nmore\n")
    write(mem / "entities" / "other.md", "# Other\n\nsee [[island-node]] and [[island-node]]\n")
    write(
        mem / "effectiveness" / "pattern-old.md",
        "Trajectory: WEAKENING\nEvidence: strengthening = 1; neutral = 2; weakening = 3\n\n"
        "Updater guidance:\n\n- REWRITE the line; KEEP the slug\n",
    )
    (mem / "fragments" / "2026-01-04").mkdir(parents=True)
    write(
        paths.day_file("2026-01-04"),
        event("stdio", "channel.ingress", "2026-01-04T09:00:00.000Z", 1),
    )
    day = [
        event("system", "system.cadence_tick", "2026-01-05T01:00:00.000Z", 10),
        event("feishu", "channel.ingress", "2026-01-05T03:10:00.000Z", 11),
        event("feishu", "channel.ingress", "2026-01-05T04:20:00.000Z", 12),
        event("job", "job.complete", "2026-01-05T05:30:00.000Z", 13),
        event("runner", "agent.result", "2026-01-05T06:00:00.000Z", 14),
        event("stdio", "channel.ingress", "2026-01-05T14:00:00.000Z", 15),
        event("stdio", "channel.ingress", "2026-01-05T15:59:00.000Z", 16),
    ]
    write(paths.day_file("2026-01-05"), "".join(day))
    write(paths.partition_prompt("memory-weaver"), WEAVER_MD)
    write(paths.partition_prompt("pattern-tracker"), TRACKER_MD)
