"""The intuition updater: evidence decisions on memory/CLAUDE.md, and nothing cosmetic."""

from __future__ import annotations

import pytest

from shared.constants import PATTERN_TRACKER
from shared.effectiveness import Effectiveness, Sample, render_effectiveness
from shared.kernel import KernelPaths
from shared.settings import Settings
from shared.weaver.updater import update_board
from tests.weaver.helpers import TinyLease

BOARD = (
    "# Intuition\n"
    "\n"
    "## Replies\n"
    "\n"
    "- When asked for a price, explain the factors first [[lesson-price]]\n"
    "- When a reply opens with filler, lead with the answer [[lesson-answer]]\n"
    "- 当用户要求写周报时，先写总结 [[lesson-weekly]]\n"
    "- Old habit nobody follows [[lesson-old]]\n"
    "\n"
    "## Clients\n"
    "\n"
    "- Check the contract before quoting [[acme-corp]]\n"
)


def _eff(slug: str, trajectory: str, s: int, n: int, w: int, guidance: str) -> Effectiveness:
    return Effectiveness(
        node_slug=slug,
        line_hash="unavailable",
        line="memory/CLAUDE.md:L5",
        current_line="x",
        trajectory=trajectory,
        strengthening=s,
        neutral=n,
        weakening=w,
        samples=(Sample("memory/fragments/2026-01-05/a.md", "why"),),
        guidance=(guidance,),
    )


@pytest.fixture
def kernel(paths: KernelPaths) -> KernelPaths:
    paths.memory_dir.mkdir()
    paths.board.write_text(BOARD, encoding="utf-8")
    paths.topics_dir.mkdir()
    paths.entities_dir.mkdir()
    for slug in ("lesson-price", "lesson-answer", "lesson-weekly", "lesson-old"):
        (paths.topics_dir / f"{slug}.md").write_text(f"# Lesson: {slug}\n", encoding="utf-8")
    (paths.entities_dir / "acme-corp.md").write_text("# acme\n", encoding="utf-8")
    paths.effectiveness_dir.mkdir()
    return paths


def _write(paths: KernelPaths, eff: Effectiveness) -> None:
    (paths.effectiveness_dir / f"{eff.node_slug}.md").write_text(render_effectiveness(eff))


def test_neutral_and_strengthening_lines_stay_byte_stable(
    kernel: KernelPaths, settings: Settings
) -> None:
    _write(kernel, _eff("lesson-price", "NEUTRAL", 0, 3, 0, "KEEP: waiting"))
    _write(kernel, _eff("lesson-answer", "STRENGTHENING", 4, 0, 1, "KEEP: strong"))
    report = update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD
    assert report.status == "NO_NEW_GRADIENT:" and not report.changed
    assert "memory/effectiveness/lesson-price.md" in report.read


def test_weakening_with_a_wanted_direction_is_rewritten(
    kernel: KernelPaths, settings: Settings
) -> None:
    _write(
        kernel,
        _eff(
            "lesson-price",
            "WEAKENING",
            0,
            0,
            2,
            'REWRITE: direction that would have helped: "give the exact number first"',
        ),
    )
    _write(
        kernel,
        _eff(
            "lesson-weekly",
            "WEAKENING",
            0,
            0,
            3,
            'REWRITE: direction that would have helped: "先列出关键数字"; '
            "root_cause direction-wrong = 1",
        ),
    )
    report = update_board(kernel, settings, TinyLease())
    lines = kernel.board.read_text().split("\n")
    assert lines[4] == "- When asked for a price, give the exact number first [[lesson-price]]"
    assert lines[6] == "- 当用户要求写周报时，先列出关键数字 [[lesson-weekly]]"
    assert lines[:4] == BOARD.split("\n")[:4] and lines[7:] == BOARD.split("\n")[7:]
    assert report.status == "UPDATED:"
    review = kernel.inbox_dir(PATTERN_TRACKER) / "review-direction-wrong-lesson-weekly.pending"
    assert "[[lesson-weekly]]" in review.read_text() and ":" not in review.name
    again = update_board(kernel, settings, TinyLease())
    assert not again.changed


def test_weakening_below_threshold_is_kept(kernel: KernelPaths, settings: Settings) -> None:
    _write(kernel, _eff("lesson-old", "WEAKENING", 0, 0, 1, "REMOVE: nothing better"))
    update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD


def test_weakening_without_direction_is_removed_to_its_topic(
    kernel: KernelPaths, settings: Settings
) -> None:
    _write(kernel, _eff("lesson-old", "WEAKENING", 0, 0, 2, "REMOVE: nothing better"))
    report = update_board(kernel, settings, TinyLease())
    assert "Old habit" not in kernel.board.read_text()
    topic = (kernel.topics_dir / "lesson-old.md").read_text()
    assert "## Retired from memory/CLAUDE.md" in topic and "- Old habit nobody follows" in topic
    assert report.topics_written == ["memory/topics/lesson-old.md"]


def test_recall_miss_weakening_is_kept(kernel: KernelPaths, settings: Settings) -> None:
    _write(kernel, _eff("lesson-answer", "WEAKENING", 0, 0, 3, "SHARPEN: not recalled"))
    update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD


def test_broken_pointers_are_repaired_or_the_line_removed(
    kernel: KernelPaths, settings: Settings
) -> None:
    (kernel.topics_dir / "lesson-old.md").unlink()
    (kernel.entities_dir / "acme-corp.md").rename(kernel.entities_dir / "entity-acme-corp.md")
    report = update_board(kernel, settings, TinyLease())
    text = kernel.board.read_text()
    assert "Old habit" not in text
    assert "- Check the contract before quoting [[entity-acme-corp]]" in text
    actions = {d["ref"]: d["action"] for d in report.decisions}
    assert (
        actions["memory/CLAUDE.md:L8"] == "remove" and actions["memory/CLAUDE.md:L12"] == "repair"
    )


def test_no_effectiveness_means_no_compression(kernel: KernelPaths, settings: Settings) -> None:
    report = update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD
    assert all(d["action"] == "keep" for d in report.decisions)
    assert all(d["reason"] for d in report.decisions)
