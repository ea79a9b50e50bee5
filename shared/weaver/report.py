"""The coordinator's final report (memory-weaver Output) and its runtime-side log.

Counts follow the count discipline: per line ``<N> new + <M> prior = <T> total
evidence`` (or ``<N> new`` when nothing prior was reused), every number re-derivable
from the fragment files on disk. Reports name paths and line references, never
private labels from the memory text.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

from shared.jsontext import compact, shown
from shared.kernel.paths import KernelPaths
from shared.timestamps import iso

NOTHING = "NO_NEW_GRADIENT: no external evidence changed memory."


def evidence_phrase(new: int, prior: int) -> str:
    """``"N new + M prior = T total evidence"``, or ``"N new"`` when nothing prior."""
    if prior == 0:
        return f"{new} new"
    return f"{new} new + {prior} prior = {new + prior} total evidence"


def render_report(data: dict[str, Any]) -> str:
    """The report text for a settled pass (see :func:`shared.weaver.pipeline.settle`)."""
    changed: list[str] = data.get("changed", [])
    acked: list[str] = data.get("acked", [])
    pending: list[str] = data.get("pending", [])
    directed = data.get("directed")
    scanner = data.get("scanner_line")
    if not changed and not acked and directed is None and scanner is None and not pending:
        return NOTHING
    status = data.get("status", "NO_NEW_GRADIENT:")
    out = [f"{status} memory-weaver pass settled."]
    if scanner:
        out.append(f"scanner: {scanner}")
    subagents = data.get("subagents") or []
    if subagents:
        out.append("subagents: " + ", ".join(subagents))
    for row in data.get("per_line", []):
        out.append(
            f"line evidence: {row['ref']} ({row['effectiveness']}): "
            f"{evidence_phrase(row['new'], row['prior'])}"
        )
    for row in data.get("line_changes", []):
        out.append(f"updater: {row}")
    if directed is not None:
        out.append(f"directed: {shown(directed['name'])} -> {shown(directed['result'])}")
    # Names are data (an inbox item may be called "a\nb.pending"): each is printed
    # escaped, so every item is one line and no name can forge a report line.
    out.append("changed: " + (", ".join(map(shown, changed)) if changed else "none"))
    out.append("acked: " + (", ".join(map(shown, acked)) if acked else "none"))
    out.append("pending: " + (", ".join(map(shown, pending)) if pending else "none"))
    for note in data.get("notes", []):
        out.append(f"note: {shown(note)}")
    return "\n".join(out)


def append_report(paths: KernelPaths, record: dict[str, Any], now: datetime | None = None) -> str:
    """Append ``record`` as one compact JSON line to ``<weaver_report_dir>/<date>.jsonl``.

    An append of one whole line (single write + fsync): the log is append-only.
    Returns the log path (runtime-relative).
    """
    moment = now or datetime.now(UTC)
    directory = paths.weaver_report_dir
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{moment.strftime('%Y-%m-%d')}.jsonl"
    line = (compact({"ts": iso(moment), **record}) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)
    return path.relative_to(paths.runtime).as_posix()
