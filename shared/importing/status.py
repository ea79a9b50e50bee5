"""The last import of every source, as ``status`` shows it.

``<runtime>/var/subcon/import/status.json`` (pretty JSON) maps each source
(``format:path``) to its last import: when, how many files and events, how many problems
and the first of them. Kept apart from the run so that ``status`` reads it without
loading the readers or the redactor.
"""

from __future__ import annotations

from typing import Any, Protocol

import orjson

from shared.jsontext import pretty
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths

STATUS_FILE = "status.json"
PROBLEMS_IN_STATUS = 20


class RunSummary(Protocol):
    """What :func:`record_status` needs of an import report."""

    sources: list[dict[str, Any]]
    problems: list[str]
    finished_at: str


def record_status(paths: KernelPaths, report: RunSummary) -> None:
    """Merge this run's sources into the status file (other sources keep their entry)."""
    previous = read_status(paths)
    for entry in report.sources:
        root = str(entry["source"]).split(":", 1)[1]
        problems = [p for p in report.problems if p.startswith(root)]
        previous[entry["source"]] = {
            **entry,
            "last_import": report.finished_at,
            "problems_shown": problems[:PROBLEMS_IN_STATUS],
        }
    atomic_write_text(paths.import_dir / STATUS_FILE, pretty(previous))


def read_status(paths: KernelPaths) -> dict[str, Any]:
    """The last import of every source ever imported ({} when none or unreadable)."""
    try:
        value = orjson.loads((paths.import_dir / STATUS_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}
