"""Task names and the queue each one runs on (``scan``, ``kernel`` or ``commit``)."""

from __future__ import annotations

from typing import Final

from shared.constants import COMMITTER, QUEUE_COMMIT, QUEUE_KERNEL, QUEUE_SCAN, WEAVER

SCAN: Final = f"subcon.{WEAVER}.scan"
CRYSTALLIZE: Final = f"subcon.{WEAVER}.crystallize"
UPDATE: Final = f"subcon.{WEAVER}.update"
SETTLE: Final = f"subcon.{WEAVER}.settle"
COMMIT: Final = f"subcon.{COMMITTER}.commit"
TICK: Final = "subcon.cadence.tick"
RUN_FAILED: Final = "subcon.cadence.run-failed"

# scan is read-only and may run on any host; everything that writes the kernel or the
# runtime stays on the kernel host; every git mutation goes through the single commit queue.
QUEUE_OF: Final[dict[str, str]] = {
    SCAN: QUEUE_SCAN,
    CRYSTALLIZE: QUEUE_KERNEL,
    UPDATE: QUEUE_KERNEL,
    SETTLE: QUEUE_KERNEL,
    TICK: QUEUE_KERNEL,
    RUN_FAILED: QUEUE_KERNEL,
    COMMIT: QUEUE_COMMIT,
}


def task_routes() -> dict[str, dict[str, str]]:
    """Celery ``task_routes``: every subcon task name to its queue."""
    return {name: {"queue": queue} for name, queue in QUEUE_OF.items()}
