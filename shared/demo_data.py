"""Facade over :mod:`shared.demo`: the demo board, dossiers and synthetic spine.

The interface names ``shared.demo_data``; the content lives in the ``shared.demo``
package (board + dossiers, conversation scripts, spine generator).
"""

from __future__ import annotations

from shared.demo.board import (
    BOARD,
    ENTITY,
    ENTITY_SLUG,
    REJECT_LINES,
    TOPICS,
    board_with_rejects,
    committed_files,
    uncommitted_edits,
)
from shared.demo.spine import (
    DEMO_DATES,
    SpineFiles,
    SpineLine,
    SpineSummary,
    generate_spine,
    render_spine,
    summarize,
    write_spine,
)

__all__ = [
    "BOARD",
    "DEMO_DATES",
    "ENTITY",
    "ENTITY_SLUG",
    "REJECT_LINES",
    "TOPICS",
    "SpineFiles",
    "SpineLine",
    "SpineSummary",
    "board_with_rejects",
    "committed_files",
    "generate_spine",
    "render_spine",
    "summarize",
    "uncommitted_edits",
    "write_spine",
]
