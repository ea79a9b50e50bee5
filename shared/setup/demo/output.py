"""How ``subcon demo`` words each step for a newcomer (issue #32, low).

The committer's own answer keeps the original's form (``Committed: <hash> (<N> files).``
and ``- I rejected `<file>:<line>` because …``, docs/formats.md §11.4): the weaver and
operators' scripts read it. The demo prints the same facts in plain words: counts in
the right number, no first person, and which file the rejected lines held back.
"""

from __future__ import annotations

from typing import Any

from shared.jsontext import shown


def counted(count: int, noun: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def committer_text(report: dict[str, Any]) -> str:
    """The committer's report (its JSON) in plain words."""
    files = report.get("files") or []
    if report.get("outcome") == "committed":
        head = f"Committed: {report.get('short')} ({counted(len(files), 'file')})."
        summary = str(report.get("summary") or "")
        lines = [f"{head} {summary}." if summary else head]
    else:
        skipped = report.get("skipped")
        lines = ["NO_NEW_GRADIENT: nothing committed" + (f" ({skipped})" if skipped else "")]
    rejected = [d for d in report.get("rejected") or [] if d.get("decision") == "reject"]
    held = list(dict.fromkeys(str(h["file"]) for h in report.get("holds") or []))
    if held:
        why = (
            f" (review rejected {counted(len(rejected), 'line')}, listed below; uncommitted "
            "until they are fixed or removed)"
            if rejected
            else ""
        )
        lines.append(f"held back: {', '.join(map(shown, held))}{why}")
    for d in rejected:
        where = shown(f"{d.get('file')}:{d.get('line')}")
        why = d.get("why") or "a gate rejected it"
        lines.append(f"- review rejected `{where}`: {why} ({d.get('reason')})")
    return "\n".join(lines)
