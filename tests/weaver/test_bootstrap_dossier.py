"""A board pointer without a dossier: the line stays, a minimal dossier is bootstrapped."""

from __future__ import annotations

from pathlib import Path

from shared.constants import WEAVER
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.pipeline import run_pass_inprocess
from tests.weaver.helpers import TinyLease

BOARD = (
    "# Intuition\n\n"
    "- When a customer mentions a refund, open the refund policy first [[groove-refund]]\n"
    "- Check the contract terms before quoting [[acme-corp]]\n"
    "- Keep answers short [[lesson-short]]\n"
)


def _kernel(paths: KernelPaths) -> None:
    paths.memory_dir.mkdir()
    paths.board.write_text(BOARD, encoding="utf-8")
    paths.topics_dir.mkdir()
    paths.entities_dir.mkdir()
    (paths.topics_dir / "lesson-short.md").write_text("# Lesson: short\n", encoding="utf-8")


def test_missing_dossiers_are_bootstrapped_and_lines_kept(
    paths: KernelPaths, settings: Settings
) -> None:
    _kernel(paths)
    before = (paths.topics_dir / "lesson-short.md").read_bytes()
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert paths.board.read_text(encoding="utf-8") == BOARD
    topic = (paths.topics_dir / "groove-refund.md").read_text(encoding="utf-8")
    assert topic.startswith("---\noccurrences: 0\n---\n\n# Groove: When a customer mentions")
    assert "## Condition\n\n- a customer mentions a refund\n" in topic
    assert "## Procedure\n\n- open the refund policy first\n" in topic
    entity = (paths.entities_dir / "acme-corp.md").read_text(encoding="utf-8")
    assert '[instruction] "Check the contract terms before quoting" (memory/CLAUDE.md:L4)' in entity
    assert (paths.topics_dir / "lesson-short.md").read_bytes() == before
    assert {"memory/topics/groove-refund.md", "memory/entities/acme-corp.md"} <= set(
        result["changed"]
    )
    again = run_pass_inprocess(paths, settings, TinyLease())
    assert not [c for c in again["changed"] if c.startswith(("memory/topics", "memory/entities"))]


def test_missing_dossier_report_is_terminal_bootstrapped(
    paths: KernelPaths, settings: Settings
) -> None:
    _kernel(paths)
    inbox = paths.inbox_dir(WEAVER)
    inbox.mkdir(parents=True)
    item = inbox / "1-missing.pending"
    item.write_text("missing dossier for the pointer [[groove-refund]]\n", encoding="utf-8")
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert result["directed"]["result"].startswith("BOOTSTRAPPED: memory/topics/groove-refund.md")
    assert result["directed"]["terminal"] and "1-missing.pending" in result["acked"]
    assert not item.exists()


def test_no_bootstrap_through_a_dossier_directory_linked_out_of_the_kernel(
    paths: KernelPaths, settings: Settings, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    paths.memory_dir.mkdir()
    paths.board.write_text(BOARD, encoding="utf-8")
    paths.topics_dir.symlink_to(outside, target_is_directory=True)
    paths.entities_dir.mkdir()
    run_pass_inprocess(paths, settings, TinyLease())
    assert list(outside.iterdir()) == []
    assert (paths.entities_dir / "acme-corp.md").is_file()
