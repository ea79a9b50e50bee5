"""At most one commit per tick carries the playlist.

One tick writes ``subconscious/playlist.md`` several times: it rebuilds the round when
it starts, and each run it started checks its item off when it ends. A tick that runs
the committer and a weaver pass (whose settle asks for a commit) would so make two
commits that each "revise the partition playlist". A commit made for a tick (the
tick-started committer run, or a commit a run of that tick asked for) therefore leaves
the playlist out when an earlier commit of the same tick carried it: the playlist stays
dirty and the next tick's commit carries it. ``subcon commit`` by hand always takes it.

The record is ``var/subcon/playlist-commit.json`` (``{"tick": N, "commit": sha}``),
written under the kernel lock with the commit.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths

log = logging.getLogger(__name__)

RECORD = "playlist-commit.json"


def record_path(paths: KernelPaths) -> Path:
    return paths.subcon_state_dir / RECORD


def committed_tick(paths: KernelPaths) -> int | None:
    """The tick whose commit last carried the playlist (None: none recorded, or unreadable)."""
    try:
        data = json.loads(record_path(paths).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    tick = data.get("tick") if isinstance(data, dict) else None
    return tick if isinstance(tick, int) and not isinstance(tick, bool) else None


def remember(paths: KernelPaths, tick: int, commit: str) -> None:
    """Record that ``commit``, made for ``tick``, carried the playlist.

    Best effort: the commit already landed; an unwritable runtime dir only means the
    next commit of this tick may carry the playlist again (logged).
    """
    target = record_path(paths)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, json.dumps({"tick": tick, "commit": commit}) + "\n")
    except OSError as exc:
        log.warning("could not record the playlist commit of tick %s: %s", tick, exc)


def deferral_reason(tick: int) -> str:
    return f"deferred: the playlist was committed in tick {tick}; the next tick's commit takes it"
