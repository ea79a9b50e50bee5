"""memory-committer: candidate selection, review gates, one commit per wake.

The facade names are loaded lazily so that ``shared.gates`` can import
``shared.committer.allowlist`` without a cycle through ``review``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shared.committer.review import LineDecision, review_paths
    from shared.committer.run import CommitReport, run_committer

__all__ = ["CommitReport", "LineDecision", "review_paths", "run_committer"]


def __getattr__(name: str) -> Any:
    if name in ("LineDecision", "review_paths"):
        from shared.committer import review

        return getattr(review, name)
    if name in ("CommitReport", "run_committer"):
        from shared.committer import run

        return getattr(run, name)
    raise AttributeError(name)
