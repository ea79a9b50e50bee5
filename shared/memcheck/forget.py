"""Forget (docs/formats.md §8.8): stale orphan topic nodes that were
warnable are removed, in one commit by the committer.

A node is forgotten only when it is a ``STALE`` orphan (unreachable from the board, no
node links to it, older than 48 h) and its ``orphan-newborn.v1`` signal's partition has
the kind open: "a node must have been warnable before it can be forgotten". ``--force``
(``subcon reclaim --force``) skips that check, never the orphan state.

subcon does not run git here (the committer is its only git user): forgetting deletes the
node from the work tree under the kernel lock and records it in two files under
``memory/state/`` (git-ignored):

- ``forget-pending.json``: ``{rel: reason}`` of deletions the committer has not landed
  yet; the committer commits them (alone: ``forget: <slug>, stale orphan never linked``,
  or ``forget: <N> stale orphan memory nodes``), audits each with that reason, then
  drops them from the file. This is the intended behaviour, not the original's pathspec
  defect (which left the files deleted and staged).
- ``forgotten.json``: ``{slug: ISO time}`` tombstones: a later crystallize never asks for
  the node again unless a fragment newer than the tombstone gives new evidence.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.memcheck.orphans import STALE, Orphan, OrphanReport

PENDING_FILE = "forget-pending.json"
TOMBSTONES_FILE = "forgotten.json"
REASON = "forget: stale orphan never linked"


@dataclass(frozen=True)
class ForgetPlan:
    """What a forget pass removes, and the stale orphans it spares (not warnable)."""

    forget: tuple[Orphan, ...]
    spared: tuple[Orphan, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "forgotten": [o.rel for o in self.forget],
            "spared_unwarnable": [o.rel for o in self.spared],
        }


def plan_forget(
    report: OrphanReport, warnable: Callable[[Orphan], bool], *, force: bool = False
) -> ForgetPlan:
    """The stale orphans to forget (sorted by rel), and the unwarnable ones spared."""
    stale = report.by_state(STALE)
    if force:
        return ForgetPlan(tuple(stale), ())
    return ForgetPlan(
        tuple(o for o in stale if warnable(o)), tuple(o for o in stale if not warnable(o))
    )


def _read(path: Path) -> dict[str, str]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def pending_forgets(paths: KernelPaths) -> dict[str, str]:
    """Kernel-relative path -> reason of forgets the committer has not landed yet."""
    return _read(paths.state_dir / PENDING_FILE)


def tombstones(paths: KernelPaths) -> dict[str, str]:
    """Slug -> when it was forgotten (canonical ISO)."""
    return _read(paths.state_dir / TOMBSTONES_FILE)


def apply_forget(paths: KernelPaths, plan: ForgetPlan, now: str, lease: Lease | None) -> list[str]:
    """Delete the planned nodes from the work tree and record them (see the module
    docstring). Returns the kernel-relative paths deleted."""
    if not plan.forget:
        return []
    pending = pending_forgets(paths)
    stones = tombstones(paths)
    done: list[str] = []
    for orphan in plan.forget:
        node = paths.memory_dir / orphan.rel
        rel = f"memory/{orphan.rel}"
        if lease is not None:
            lease.ensure()
        try:
            node.unlink()
        except FileNotFoundError:
            continue
        pending[rel] = REASON
        stones[orphan.slug] = now
        done.append(rel)
    atomic_write_text(paths.state_dir / PENDING_FILE, pretty(pending))
    atomic_write_text(paths.state_dir / TOMBSTONES_FILE, pretty(stones))
    return done


def landed(paths: KernelPaths, rels: list[str]) -> None:
    """The committer landed these forgets: drop them from the pending record."""
    pending = pending_forgets(paths)
    left = {k: v for k, v in pending.items() if k not in rels}
    if left != pending:
        atomic_write_text(paths.state_dir / PENDING_FILE, pretty(left))
