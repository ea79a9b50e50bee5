"""The memory-check lints in isolation (docs/formats.md §8.3-§8.7)."""

from __future__ import annotations

import os
import time

import pytest

from shared.kernel.paths import KernelPaths
from shared.memcheck import board_lint, entity_lint, node_lint
from shared.memcheck.links import (
    board_closure,
    is_safe_slug,
    link_targets,
    route_contract_decision,
    scan_links,
)
from shared.memcheck.orphans import ISLAND, NEWBORN, STALE, detect_orphans, islands_selection
from shared.memcheck.reads import MemoryReads
from tests.memcheck.example import write


@pytest.mark.parametrize(
    ("text", "links"),
    [
        ("a [[x]] b [[y z]] [[x]]", ["x", "y z", "x"]),
        ("[[[x]]", ["[x"]),
        ("[[a]b]] [[c]]", ["c"]),
        ("[[]] [[ spaced ]]", [" spaced "]),
        ("[[a|b]] [[多\n行]]", ["a|b", "多\n行"]),
        ("[[unclosed", []),
        ("[[记忆]]与[[复盘-规则]]", ["记忆", "复盘-规则"]),
    ],
)
def test_link_scanner(text: str, links: list[str]) -> None:
    assert scan_links(text) == links


def test_link_targets_distinct_sorted_and_safe_slugs() -> None:
    assert link_targets("[[b]] [[a]] [[b]]") == ["a", "b"]
    assert [s for s in ("a", "", ".", "..", "a/b", "a\\b", "a\0") if is_safe_slug(s)] == ["a"]


def test_route_contract_decision() -> None:
    assert route_contract_decision("topics/lesson-x.md") == "pattern-tracker"
    assert route_contract_decision("topics/groove-x.md") == "pattern-tracker"
    assert route_contract_decision("topics/pattern-x.md") == "memory-weaver"
    assert route_contract_decision("entities/lesson-x.md") == "memory-weaver"


def test_closure_follows_topics_and_entities_but_effectiveness_only_for_resolved(
    paths: KernelPaths,
) -> None:
    mem = paths.memory_dir
    write(mem / "topics" / "a.md", "see [[b]]")
    write(mem / "entities" / "b.md", "see [[c]] and [[../evil]]")
    write(mem / "effectiveness" / "a.md", "eff links [[d]]")
    write(mem / "effectiveness" / "ghost.md", "eff links [[e]]")
    reads = MemoryReads(mem)
    assert board_closure(reads, "[[a]] [[ghost]]") == {"a", "b", "c", "d", "ghost"}


def test_board_lint_fields(paths: KernelPaths) -> None:
    mem = paths.memory_dir
    write(mem / "topics" / "dom.md", "# Research\n**type**: Supply-Chain thesis\n")
    write(mem / "topics" / "dual.md", "# Lesson: x\n**Type**: behavioral\n")
    write(mem / "entities" / "dual.md", "entity")
    write(mem / "topics" / "noeff.md", "# Pattern: x\n**Type**: pattern\n")
    write(mem / "effectiveness" / "dom.md", "---\ntrajectory: strengthened a lot\n---\n")
    write(
        mem / "effectiveness" / "dual.md",
        "Trajectory: sideways\nstrengthening=4 neutral =1\nUpdater guidance:\n"
        "- nothing here\n  - DROP indented\n- sharpen then keep\n",
    )
    board = "# b\n- x [[dual]]\n- y [[dom]] [[noeff]] [[nofile]]\n"
    targets = {t.slug: t for t in board_lint.measure(MemoryReads(mem), board)}
    assert set(targets) == {"dom", "dual", "noeff"}
    dom, dual, noeff = targets["dom"], targets["dual"], targets["noeff"]
    assert (dom.trajectory, dom.cls, dom.fmt, dom.board_line) == (
        "STRENGTHENING",
        "domain",
        "other",
        3,
    )
    assert (dual.trajectory, dual.s, dual.n, dual.w) == ("NEUTRAL", 4, 1, 0)
    assert (dual.verdict, dual.fmt, dual.cls, dual.dual) == (
        "SHARPEN",
        "lesson",
        "behavioral",
        True,
    )
    assert (noeff.trajectory, noeff.fmt) == ("NO-EFF", "legacy")
    ranked = [t.slug for t in board_lint.measure(MemoryReads(mem), board)]
    assert ranked == ["dual", "dom", "noeff"]  # NEUTRAL > STRENGTHENING > NO-EFF
    selected = board_lint.select(list(targets.values()))
    assert [(s.kind, s.filename) for s in selected] == [
        ("sink.v1", "sink-dom.md.pending"),
        ("merge.v1", "merge-dual.md.pending"),
    ]
    assert selected[0].body.startswith("[sink] [[dom]]\nmemory/CLAUDE.md:L3\n")


def test_revise_skips_weakening_lines_marked_for_removal(paths: KernelPaths) -> None:
    mem = paths.memory_dir
    write(mem / "topics" / "pattern-a.md", "# Pattern: a\n**Type**: workflow\n")
    write(
        mem / "effectiveness" / "pattern-a.md",
        "Trajectory: WEAKENING\nUpdater guidance:\n- drop it, do not KEEP\n",
    )
    targets = board_lint.measure(MemoryReads(mem), "[[pattern-a]]")
    assert targets[0].verdict == "DROP"
    assert board_lint.select(targets) == []


def test_board_census() -> None:
    text = "[[pattern-a]] [[pattern-a]] [[lesson-b]] [[groove-c]] [[x]] [[y]] [[x]]"
    assert board_lint.census(text) == {"pattern": 2, "lesson": 1, "groove": 1, "other": 2}


def test_entity_lint_sections_score_and_any_year(paths: KernelPaths) -> None:
    full = "## What it is now\n## Relationship / stance\n## Open variables\n## Trend / direction\n"
    assert entity_lint.has_current_picture(full)
    no_trend = full.replace("## Trend / direction", "## Trend: rising")
    assert not entity_lint.has_current_picture(no_trend)
    assert entity_lint.has_current_picture(full.replace("Relationship / stance", "relationship/x"))
    mem = paths.memory_dir
    write(mem / "entities" / "small.md", "2027-03-01 moved\n20250105 old\nno date\n")
    write(mem / "entities" / "big.md", "x" * 2000 + "\n")
    write(mem / "entities" / "fine.md", full)
    write(mem / "entities" / "客户.md", "## 现在是什么\n2026-01-05 签约\n")
    rows = entity_lint.measure(MemoryReads(mem), {"small"})
    assert [r.slug for r in rows] == ["big", "small", "客户"]
    assert (rows[0].kb, rows[0].dated) == (2, 0)
    assert (rows[1].dated, rows[1].reachable) == (2, True)
    body = entity_lint.body(rows[0])
    assert body.startswith("[entity-converge] [[big]]\nnode: memory/entities/big.md\n")
    assert "shape: 2K, 1 lines, 0 dated stamps, unreachable from board — " in body
    assert "\nnote: " in body


def test_node_lint(paths: KernelPaths) -> None:
    mem = paths.memory_dir
    write(mem / "topics" / "lesson-ok.md", "## Condition\n## Procedure\n")
    write(mem / "topics" / "groove-ok.md", "## Condition\n## Procedure\n## References  \n")
    write(mem / "topics" / "lesson-refs.md", "## Condition\n## References\n## condition\n")
    write(mem / "topics" / "lesson-long.md", "## Condition\n" + "x\n" * 200)
    write(mem / "topics" / "pattern-x.md", "## Whatever\n")
    rows = node_lint.measure(MemoryReads(mem), {"lesson-refs"})
    assert [(r.basename, r.unexpected) for r in rows] == [
        ("lesson-refs", ("References", "condition")),
        ("lesson-long", ()),
    ]
    long_body = node_lint.body(rows[1])
    assert "lines: 201 (over 200)\n" in long_body
    assert "reachable: no\nescalated: WASTED-COMPUTE" in long_body
    assert node_lint.select(rows)[0].filename == "lesson-refs.md.pending"


def test_orphan_states(paths: KernelPaths) -> None:
    mem = paths.memory_dir
    reads = MemoryReads(mem)
    assert detect_orphans(reads, time.time() * 1000) is None  # no universe
    write(paths.board, "[[linked]]\n")
    write(mem / "topics" / "linked.md", "[[linked]] self")
    write(mem / "topics" / "fresh.md", "new")
    stale = write(mem / "topics" / "stale.md", "[[stale]] only links itself")
    write(mem / "topics" / "island.md", "x")
    write(mem / "topics" / "other.md", "[[island]]")
    old = time.time() - 72 * 3600
    os.utime(stale, (old, old))
    report = detect_orphans(MemoryReads(mem), time.time() * 1000)
    assert report is not None
    states = {o.slug: o.state for o in report.orphans}
    assert states == {"fresh": NEWBORN, "stale": STALE, "island": ISLAND, "other": NEWBORN}
    (selection,) = islands_selection(report)
    assert "- island | newborn | indeg=1 | topics/other.md \n" in selection.body
    assert "\n1 topics nodes are unreachable" in selection.body


def test_board_pointer_without_dossier_is_flagged_with_file_and_line(paths: KernelPaths) -> None:
    from shared.memcheck.board_lint import missing_dossiers
    from shared.memcheck.reads import MemoryReads

    mem = paths.memory_dir
    (mem / "topics").mkdir(parents=True)
    (mem / "entities").mkdir()
    (mem / "topics" / "lesson-a.md").write_text("# Lesson: a\n", encoding="utf-8")
    (mem / "entities" / "acme.md").write_text("# acme\n", encoding="utf-8")
    board = "# I\n\n- When x, do y [[lesson-a]] [[acme]]\n- When z, do w [[groove-new]]\n"
    found = missing_dossiers(MemoryReads(mem), board)
    assert found == [
        "memory/CLAUDE.md:L4: [[groove-new]] has no topic or entity dossier "
        "(the line is kept; the next weave bootstraps one)"
    ]
