"""Files the committer is holding back, with each rejected line's gate and reason.

A file is held back when it is allowlisted, dirty in ``git status`` and the
committer's latest wake that decided on it held it. The rejections come from that
wake's audit records when the file has not changed since; otherwise (never decided,
or edited after the wake) the committer's own review runs on the working tree, read
only, exactly as the next wake would (``shared.committer``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from shared.committer.audit import AuditRecord
from shared.committer.candidates import load_candidates, split_paths
from shared.committer.diffing import changed_lines
from shared.committer.gitstate import head_commit, head_entries, read_status, repo_info
from shared.errors import GitError, InputError
from shared.report.model import HeldFile, RejectedLine
from shared.review.reviewer import review_text
from shared.timestamps import iso, parse_iso


def _mtime(path: Path) -> str | None:
    try:
        return iso(datetime.fromtimestamp(os.lstat(path).st_mtime, UTC))
    except OSError:
        return None


def _latest_by_file(records: Iterable[AuditRecord]) -> dict[str, list[AuditRecord]]:
    """Per file, the records of the newest wake that decided on it (dry runs ignored)."""
    out: dict[str, list[AuditRecord]] = {}
    for record in records:
        if record.file is None or record.dry_run:
            continue
        current = out.get(record.file)
        if current is None or record.ts > current[0].ts:
            out[record.file] = [record]
        elif record.ts == current[0].ts:
            current.append(record)
    return out


def _after(a: str, b: str) -> bool:
    try:
        return parse_iso(a) > parse_iso(b)
    except ValueError:
        return a > b


def held_files(kernel: Path, records: list[AuditRecord]) -> tuple[list[HeldFile], list[str]]:
    """Held-back files in status order, and problems met while finding them.

    Raises nothing: a kernel that is not a repository simply holds nothing back.
    """
    problems: list[str] = []
    if repo_info(kernel) is None:
        return [], [f"{kernel} is not its own git repository: nothing is committed or held back"]
    try:
        entries = read_status(kernel)
    except (GitError, InputError) as exc:
        return [], [f"git status failed: {exc}"]
    allowed, _outside, _unmerged = split_paths(entries)
    status = {e.path: (e.x + e.y) for e in entries}
    latest = _latest_by_file(records)
    out: list[HeldFile] = []
    to_review: list[str] = []
    for path in allowed:
        decided = latest.get(path)
        modified = _mtime(kernel / path)
        fresh = modified is None or (decided is not None and not _after(modified, decided[0].ts))
        if decided and decided[0].decision == "held" and fresh:
            lines = tuple(
                RejectedLine(r.line, r.gate, r.reason, r.quote)
                for r in decided
                if r.decision == "held"
            )
            out.append(HeldFile(path, status.get(path, "  "), "audit", decided[0].ts, lines))
            continue
        to_review.append(path)
    if to_review:
        try:
            head = head_commit(kernel)
            candidates = load_candidates(kernel, to_review, head_entries(kernel, head))
        except (GitError, InputError, OSError) as exc:
            return out, [*problems, f"review of dirty files failed: {exc}"]
        for cand in candidates:
            rejected: tuple[RejectedLine, ...]
            if cand.hold is not None:
                rejected = (RejectedLine(None, None, cand.hold, None),)
            elif cand.change in ("added", "modified") and cand.trivial is None:
                decisions = review_text(
                    cand.path, cand.kind, cand.text, changed_lines(cand.old_text, cand.text)
                )
                rejected = tuple(
                    RejectedLine(d.line, d.gate, d.reason, d.text) for d in decisions if d.rejected
                )
            else:
                rejected = ()
            if rejected:
                out.append(
                    HeldFile(cand.path, status.get(cand.path, "  "), "review", None, rejected)
                )
    order = {p: i for i, p in enumerate(allowed)}
    out.sort(key=lambda h: order.get(h.path, len(order)))
    return out, problems
