"""The runtime-side record of the last board edits, which the committer puts in the
commit body of exactly that board text."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.weaver.crystallize.store import write_if_changed
from shared.weaver.results import UpdateResult

EDITS_RECORD = "board-edits.json"


def edits_record(paths: KernelPaths) -> Path:
    """Runtime-side record of the last board edits, for the commit body."""
    return paths.subcon_state_dir / EDITS_RECORD


def record_edits(paths: KernelPaths, board_text: str, report: UpdateResult, lease: Lease) -> None:
    notes = [d.summary for d in report.edits if d.summary]
    digest = hashlib.sha256(board_text.encode("utf-8")).hexdigest()
    body = json.dumps({"board_sha256": digest, "edits": notes}, ensure_ascii=False)
    write_if_changed(edits_record(paths), body + "\n", lease)


def board_edit_notes(paths: KernelPaths, board_text: str) -> list[str]:
    """The updater's edit notes for exactly this board text (none when the board was
    changed since, or the record is unreadable)."""
    try:
        data = json.loads(edits_record(paths).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    digest = hashlib.sha256(board_text.encode("utf-8")).hexdigest()
    if not isinstance(data, dict) or data.get("board_sha256") != digest:
        return []
    return [str(n) for n in data.get("edits", []) if isinstance(n, str)]
