"""The intuition updater: evidence decisions on memory/CLAUDE.md, and nothing cosmetic."""

from __future__ import annotations

import pytest

from shared.constants import PATTERN_TRACKER
from shared.formats.effectiveness import Effectiveness, Sample, render_effectiveness
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.update.updater import update_board
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
    assert "memory/effectiveness/lesson-price.md" in report.effectiveness_read


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
    assert report.topics_written == ("memory/topics/lesson-old.md",)


def test_recall_miss_weakening_is_kept(kernel: KernelPaths, settings: Settings) -> None:
    _write(kernel, _eff("lesson-answer", "WEAKENING", 0, 0, 3, "SHARPEN: not recalled"))
    update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD


def test_broken_pointers_are_repaired_or_the_line_kept(
    kernel: KernelPaths, settings: Settings
) -> None:
    (kernel.topics_dir / "lesson-old.md").unlink()
    (kernel.entities_dir / "acme-corp.md").rename(kernel.entities_dir / "entity-acme-corp.md")
    report = update_board(kernel, settings, TinyLease())
    text = kernel.board.read_text()
    # Issue #11: a pointer without a dossier never deletes the line.
    assert "- Old habit nobody follows [[lesson-old]]" in text
    assert "- Check the contract before quoting [[entity-acme-corp]]" in text
    actions = {d.ref: (d.action, d.reason) for d in report.decisions}
    assert actions["memory/CLAUDE.md:L8"][0] == "keep"
    assert "[[lesson-old]] has no dossier: kept" in actions["memory/CLAUDE.md:L8"][1]
    assert actions["memory/CLAUDE.md:L12"][0] == "repair"


def _classified(
    slug: str, s: int, w: int, kinds: tuple[int, int, int], bullet: str
) -> Effectiveness:
    eff = _eff(slug, "WEAKENING" if w > s else "STRENGTHENING", s, 0, w, bullet)
    return Effectiveness(**{**eff.__dict__, "kinds": kinds})


def test_reaffirmed_line_is_kept_however_many_misses(
    kernel: KernelPaths, settings: Settings
) -> None:
    bullet = "KEEP [recall-miss]: reaffirmed (memory/fragments/2026-01-05/a.md)"
    _write(kernel, _classified("lesson-price", 0, 5, (5, 0, 0), bullet))
    report = update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD
    row = next(d for d in report.decisions if d.marker == "lesson-price")
    assert row.cls == "recall-miss" and row.evidence == "0 new + 5 prior = 5 total evidence"


def test_direction_change_keeps_trigger_pointer_and_the_users_case(
    kernel: KernelPaths, settings: Settings
) -> None:
    bullet = (
        "REWRITE [direction-changed]: the user states a different behaviour "
        "(memory/fragments/2026-01-05/b.md); direction that would have helped: "
        '"address them with the formal "Vous" and the Éditions name"'
    ).replace('\\"', '"')
    _write(kernel, _classified("lesson-answer", 2, 1, (0, 1, 0), bullet))
    report = update_board(kernel, settings, TinyLease(), new_evidence={"lesson-answer": 1})
    lines = kernel.board.read_text().split("\n")
    assert lines[5] == (
        '- When a reply opens with filler, address them with the formal "Vous" and the '
        "Éditions name [[lesson-answer]]"
    )
    row = next(d for d in report.decisions if d.marker == "lesson-answer")
    assert row.action == "rewrite" and row.cls == "direction-changed"
    assert row.evidence == "1 new + 2 prior = 3 total evidence"
    assert "memory/fragments/2026-01-05/b.md" in row.fragments
    summary = row.summary or ""
    assert "[direction-changed]" in summary and "3 total evidence" in summary


def test_obsolete_line_goes_to_its_dossier_with_the_reason(
    kernel: KernelPaths, settings: Settings
) -> None:
    bullet = "REMOVE [obsolete]: the practice stopped (memory/fragments/2026-01-05/c.md); move"
    _write(kernel, _classified("lesson-old", 3, 1, (0, 0, 1), bullet))
    report = update_board(kernel, settings, TinyLease())
    assert "Old habit" not in kernel.board.read_text()
    topic = (kernel.topics_dir / "lesson-old.md").read_text()
    assert "- Old habit nobody follows [[lesson-old]]" in topic
    assert "Retired because: obsolete" in topic and "2026-01-05/c.md" in topic
    assert report.topics_written == ("memory/topics/lesson-old.md",)


def test_strengthened_line_is_not_removed_on_unclassified_misses(
    kernel: KernelPaths, settings: Settings
) -> None:
    _write(kernel, _eff("lesson-old", "WEAKENING", 1, 0, 4, "REMOVE: nothing better"))
    update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD


def test_no_effectiveness_means_no_compression(kernel: KernelPaths, settings: Settings) -> None:
    report = update_board(kernel, settings, TinyLease())
    assert kernel.board.read_text() == BOARD
    assert all(d.action == "keep" for d in report.decisions)
    assert all(d.reason for d in report.decisions)
