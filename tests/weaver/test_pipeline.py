"""The weaver pass end to end on real files: coverage, acks, idempotency, slicing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shared.constants import PATTERN_TRACKER, WEAVER
from shared.errors import LockLost
from shared.formats.effectiveness import parse_effectiveness
from shared.formats.fragments import parse_fragment, render_fragment
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.pipeline import (
    PassPlan,
    crystallize,
    plan_pass,
    run_pass_inprocess,
    scan_slice,
    settle,
    update,
)
from shared.weaver.report import NOTHING
from tests.weaver.helpers import (
    DATE,
    TinyLease,
    corpus_events,
    load_corpus,
    post_scan_gap,
    snapshot,
    write_day,
    write_kernel,
)

GAP = "20260105[03,14]"


@pytest.fixture
def kernel(paths: KernelPaths) -> KernelPaths:
    corpus = load_corpus()
    write_kernel(paths, corpus)
    write_day(paths, corpus_events(corpus))
    post_scan_gap(paths, GAP)
    return paths


def _fragments(paths: KernelPaths) -> dict[str, bytes]:
    day = paths.fragment_day_dir(DATE)
    return {p.name: p.read_bytes() for p in sorted(day.glob("*.md"))}


def test_no_interval_and_no_item_reports_the_exact_nothing_line(
    paths: KernelPaths, settings: Settings
) -> None:
    write_kernel(paths, load_corpus())
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert result["text"] == NOTHING
    log = list(paths.weaver_report_dir.glob("*.jsonl"))
    assert len(log) == 1 and '"text":"NO_NEW_GRADIENT: no external' in log[0].read_text()


def test_pass_writes_valid_fragments_covers_the_day_and_acks_scan_gap(
    kernel: KernelPaths, settings: Settings
) -> None:
    result = run_pass_inprocess(kernel, settings, TinyLease())
    frags = _fragments(kernel)
    assert len(frags) == len(result["fragments_new"]) > 10
    for data in frags.values():
        text = data.decode()
        assert render_fragment(parse_fragment(text)) == text
    assert (kernel.fragment_day_dir(DATE) / ".scan.json").is_file()
    assert not (kernel.inbox_dir(WEAVER) / "scan-gap.md.pending").exists()
    assert result["acked"] == ["scan-gap.md.pending"]
    assert result["text"].startswith("UPDATED: memory-weaver pass settled.")
    price = sum("_lesson-price-number_" in name for name in frags)
    assert price >= 3
    assert (
        f"memory/CLAUDE.md:L6 (memory/effectiveness/lesson-price-number.md): {price} new\n"
        in result["text"]
    )


def test_effectiveness_counts_equal_fragment_files_on_disk(
    kernel: KernelPaths, settings: Settings
) -> None:
    run_pass_inprocess(kernel, settings, TinyLease())
    frags = [parse_fragment(b.decode()) for b in _fragments(kernel).values()]
    files = sorted(p for p in kernel.effectiveness_dir.glob("*.md") if p.name != "new-signals.md")
    assert files
    for path in files:
        eff = parse_effectiveness(path.read_text(), path)
        mine = [f for f in frags if f.marker == path.stem]
        assert eff.node_slug == path.stem
        assert eff.strengthening == sum(f.trajectory == "STRENGTHENING" for f in mine)
        assert eff.neutral == sum(f.trajectory == "NEUTRAL" for f in mine)
        assert eff.weakening == sum(f.trajectory == "WEAKENING" for f in mine)
        for sample in eff.samples:
            assert (kernel.kernel / sample.path).is_file()


def test_redelivered_scan_and_rerun_are_byte_identical(
    kernel: KernelPaths, settings: Settings
) -> None:
    lease = TinyLease()
    plan = plan_pass(kernel, settings)
    results = [scan_slice(kernel, settings, plan, s) for s in plan.slices]
    first = crystallize(kernel, settings, plan, results + results, lease)
    before = snapshot(kernel.kernel)
    mtimes = {p: p.stat().st_mtime_ns for p in kernel.memory_dir.rglob("*.md")}
    second = crystallize(kernel, settings, plan, results, lease)
    assert snapshot(kernel.kernel) == before
    assert {p: p.stat().st_mtime_ns for p in kernel.memory_dir.rglob("*.md")} == mtimes
    assert second.fragments_new == ()
    assert sorted(second.fragments_prior) == sorted(first.fragments_new)
    assert len(first.fragments_new) == len(set(first.fragments_new))


def test_whole_pass_rerun_reports_prior_evidence_and_changes_nothing(
    kernel: KernelPaths, settings: Settings
) -> None:
    # No board line is added, so the second pass judges against the same board.
    settings = settings.model_copy(update={"new_line_threshold": 99})
    run_pass_inprocess(kernel, settings, TinyLease())
    before = snapshot(kernel.kernel)
    post_scan_gap(kernel, GAP)
    again = run_pass_inprocess(kernel, settings, TinyLease())
    assert snapshot(kernel.kernel) == before
    assert again["fragments_new"] == []
    assert "fragments 0 new," in again["text"]
    assert again["acked"] == ["scan-gap.md.pending"]


def test_slicing_does_not_change_the_fragments(
    kernel: KernelPaths, settings: Settings, tmp_path: Path
) -> None:
    other = KernelPaths(tmp_path / "k2", tmp_path / "r2")
    shutil.copytree(kernel.kernel, other.kernel)
    shutil.copytree(kernel.runtime, other.runtime)
    run_pass_inprocess(kernel, settings, TinyLease())
    sliced = Settings(kernel_dir=other.kernel, runtime_dir=other.runtime, scan_slice_events=2)
    plan = plan_pass(other, sliced)
    assert len(plan.slices) > 10
    result = run_pass_inprocess(other, sliced, TinyLease())
    assert _fragments(other) == _fragments(kernel)
    assert snapshot(other.kernel / "memory") == snapshot(kernel.kernel / "memory")
    assert result["acked"] == ["scan-gap.md.pending"]


def test_scan_gap_stays_when_a_slice_result_is_missing(kernel: KernelPaths, tmp_path: Path) -> None:
    sliced = Settings(kernel_dir=kernel.kernel, runtime_dir=kernel.runtime, scan_slice_events=5)
    lease = TinyLease()
    plan = plan_pass(kernel, sliced)
    results = [scan_slice(kernel, sliced, plan, s) for s in plan.slices[:-1]]
    crystallized = crystallize(kernel, sliced, plan, results, lease)
    assert crystallized.covered == ()
    done = settle(
        kernel, sliced, plan, crystallized, update(kernel, sliced, plan, crystallized, lease), lease
    )
    assert "scan-gap.md.pending" not in done["acked"]
    assert (kernel.inbox_dir(WEAVER) / "scan-gap.md.pending").exists()
    assert not kernel.fragment_day_dir(DATE).joinpath(".scan.json").exists()


def test_crash_after_some_writes_reruns_cleanly(
    kernel: KernelPaths, settings: Settings, tmp_path: Path
) -> None:
    clean = KernelPaths(tmp_path / "k2", tmp_path / "r2")
    shutil.copytree(kernel.kernel, clean.kernel)
    shutil.copytree(kernel.runtime, clean.runtime)
    run_pass_inprocess(
        clean, Settings(kernel_dir=clean.kernel, runtime_dir=clean.runtime), TinyLease()
    )
    with pytest.raises(LockLost):
        run_pass_inprocess(kernel, settings, TinyLease(fail_after=4))
    assert 0 < len(_fragments(kernel)) < len(_fragments(clean))
    assert (kernel.inbox_dir(WEAVER) / "scan-gap.md.pending").exists()
    assert not list(kernel.memory_dir.rglob("*.tmp"))
    result = run_pass_inprocess(kernel, settings, TinyLease())
    assert result["acked"] == ["scan-gap.md.pending"]
    assert _fragments(kernel) == _fragments(clean)
    assert snapshot(kernel.memory_dir) == snapshot(clean.memory_dir)


def _item(paths: KernelPaths, name: str, body: str) -> Path:
    inbox = paths.inbox_dir(WEAVER)
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / name).write_text(body, encoding="utf-8")
    return inbox / name


def test_directed_item_acked_only_on_terminal_result(
    kernel: KernelPaths, settings: Settings
) -> None:
    unclear = _item(kernel, "0-unclear.pending", "please think about life")
    compress = _item(kernel, "1-compress.pending", "- [ ] [memory:claude-compress] lines=6")
    later = _item(kernel, "2-later.pending", "[sink] [[lesson-answer-first]]")
    result = run_pass_inprocess(kernel, settings, TinyLease())
    assert result["directed"]["name"] == "1-compress.pending"
    assert result["directed"]["result"].startswith(("NO-OP:", "UPDATED:"))
    assert not compress.exists()
    assert unclear.exists() and later.exists()
    assert "directed: 1-compress.pending -> " in result["text"]
    assert "0-unclear.pending" in result["text"] and "2-later.pending" in result["text"]


def test_partial_directed_scan_is_not_acked(kernel: KernelPaths, settings: Settings) -> None:
    item = _item(kernel, "0-scan.pending", "scan recent events 20260105[03,05] please")
    lease = TinyLease()
    plan = plan_pass(kernel, settings)
    assert plan.route is not None and plan.route.route == "scan"
    results = [scan_slice(kernel, settings, plan, s) for s in plan.slices if s.role != "directed"]
    crystallized = crystallize(kernel, settings, plan, results, lease)
    done = settle(
        kernel,
        settings,
        plan,
        crystallized,
        update(kernel, settings, plan, crystallized, lease),
        lease,
    )
    assert done["directed"]["result"].startswith("PARTIAL_UPDATE:")
    assert item.exists()
    full = run_pass_inprocess(kernel, settings, TinyLease())
    assert full["directed"]["terminal"] and not item.exists()


def test_operator_can_pick_a_directed_item_and_plan_round_trips(
    kernel: KernelPaths, settings: Settings
) -> None:
    _item(kernel, "0-first.pending", "[merge] [[lesson-answer-first]]")
    _item(
        kernel,
        "1-entity.pending",
        "[entity-converge] [[acme-corp]]\nnode: memory/entities/acme-corp.md",
    )
    plan = plan_pass(kernel, settings, directed="1-entity.pending")
    assert PassPlan.from_json(plan.to_json()) == plan
    result = run_pass_inprocess(kernel, settings, TinyLease(), directed="1-entity.pending")
    assert result["directed"]["result"].startswith("UPDATED:")
    text = (kernel.entities_dir / "acme-corp.md").read_text()
    for heading in (
        "## What it is now",
        "## Relationship / stance",
        "## Open variables",
        "## Trend",
    ):
        assert heading in text
    assert (kernel.inbox_dir(WEAVER) / "0-first.pending").exists()


def test_recurring_new_signal_posts_node_create_and_adds_a_board_line(
    paths: KernelPaths, settings: Settings
) -> None:
    corpus = load_corpus()
    write_kernel(paths, corpus)
    events = corpus_events(corpus)[:1]
    texts = [
        "From now on, when I ask for a summary, use bullet points.",
        "Going forward, whenever I request a summary please use bullet points.",
    ]
    for i, text in enumerate(texts):
        events.append(
            {
                "type": "channel.message",
                "source": {"kind": "stdio"},
                "session_key": f"stdio:s{i}",
                "payload": {"text": text},
                "id": f"evt_new_{i}",
                "ts": f"{DATE}T05:0{i}:00.000Z",
            }
        )
    write_day(paths, events)
    post_scan_gap(paths, "20260105[03,05]")
    result = run_pass_inprocess(paths, settings, TinyLease())
    pending = sorted(p.name for p in paths.inbox_dir(PATTERN_TRACKER).glob("*.pending"))
    assert pending == ["node-create-groove-bullet-points.pending"]
    board = paths.board.read_text()
    # The user's own clause as written (issue #11: no person or case rewriting).
    assert "- When I ask for a summary, use bullet points" in board
    assert "memory/CLAUDE.md" in result["changed"]
    # Headings and every earlier line keep their bytes.
    old = "\n".join(corpus["board"]).split("\n")
    assert [ln for ln in board.split("\n") if ln in old] == [
        ln for ln in old if ln in board.split("\n")
    ]
    assert len(board.split("\n")) == len(old) + 1


def test_crystallize_reuses_slice_judgements_and_rejudges_only_boundaries(
    kernel: KernelPaths,
) -> None:
    from shared.formats.board import read_board
    from shared.spine.reader import ReadStats
    from shared.weaver.judging.rules import RuleJudge
    from shared.weaver.pipeline import _context
    from shared.weaver.scan import scanner
    from shared.weaver.scan.reading import read_slice_turns
    from shared.weaver.scan.thinning import SpineHydrator, merge_turns
    from shared.weaver.scan.turns import order_turns

    sliced = Settings(kernel_dir=kernel.kernel, runtime_dir=kernel.runtime, scan_slice_events=3)
    plan = plan_pass(kernel, sliced)
    results = [scan_slice(kernel, sliced, plan, s) for s in plan.slices]
    assert all(r.fragments is not None and r.judged for r in results if r.turns)
    cache: dict[str, dict[str, object]] = {}
    for r in results:
        cache.update(r.judged)
    # What crystallize does: merge the results (some turns arrive thin) and re-read a
    # thin turn's slice only if one must be judged again.
    turns, sources = merge_turns(results)
    hydrate = SpineHydrator(kernel, sliced.max_line_bytes, sources)
    full = order_turns(
        read_slice_turns(kernel, s.spine, ReadStats(), sliced.max_line_bytes) for s in plan.slices
    )

    class Counting(RuleJudge):
        calls = 0

        def judge(self, *args, **kwargs):
            Counting.calls += 1
            return super().judge(*args, **kwargs)

    board = read_board(kernel.board)
    ctx = _context(kernel, plan.route)
    merged = scanner.scan_turns(board, turns, ctx, Counting(), cache=cache, hydrate=hydrate)
    fresh = scanner.scan_turns(board, full, ctx, RuleJudge())
    assert [t["id"] for t in turns] == [t["id"] for t in full]
    assert [m.fragment for m in merged] == [f.fragment for f in fresh]
    assert 0 < Counting.calls < len(turns) // 2


def test_scan_needs_only_the_spine_and_the_plan(
    kernel: KernelPaths, settings: Settings, tmp_path: Path
) -> None:
    reference = KernelPaths(tmp_path / "k2", tmp_path / "r2")
    shutil.copytree(kernel.kernel, reference.kernel)
    shutil.copytree(kernel.runtime, reference.runtime)
    run_pass_inprocess(
        reference,
        Settings(kernel_dir=reference.kernel, runtime_dir=reference.runtime),
        TinyLease(),
    )
    plan = PassPlan.from_json(plan_pass(kernel, settings).to_json())
    remote = KernelPaths(tmp_path / "no-kernel-here", kernel.runtime)
    results = [scan_slice(remote, settings, plan, s) for s in plan.slices]
    assert any(r.fragments for r in results)
    lease = TinyLease()
    crystallized = crystallize(kernel, settings, plan, results, lease)
    settle(
        kernel,
        settings,
        plan,
        crystallized,
        update(kernel, settings, plan, crystallized, lease),
        lease,
    )
    assert _fragments(kernel) == _fragments(reference)


def test_directed_scan_of_an_uncovered_day_writes_nothing_there(
    paths: KernelPaths, settings: Settings
) -> None:
    corpus = load_corpus()
    write_kernel(paths, corpus)
    write_day(paths, corpus_events(corpus))
    item = _item(paths, "0-scan.pending", "please scan 20260105[03,14]")
    result = run_pass_inprocess(paths, settings, TinyLease())
    assert result["directed"]["result"].startswith("NO_NEW_GRADIENT:")
    assert not paths.fragment_day_dir(DATE).exists()
    assert not item.exists()


def test_operator_whole_day_scan_covers_the_day_but_a_partial_band_does_not(
    paths: KernelPaths, settings: Settings
) -> None:
    corpus = load_corpus()
    write_kernel(paths, corpus)
    write_day(paths, corpus_events(corpus))
    compact = DATE.replace("-", "")

    partial = run_pass_inprocess(paths, settings, TinyLease(), interval=f"{compact}[03,14]")
    assert not paths.fragment_day_dir(DATE).exists()
    assert partial["fragments_new"] == []

    whole = run_pass_inprocess(paths, settings, TinyLease(), interval=f"{compact}[00,23]")
    assert (paths.fragment_day_dir(DATE) / ".scan.json").is_file()
    assert len(_fragments(paths)) == len(whole["fragments_new"]) > 10
    assert plan_pass(paths, settings, interval=f"{compact}[00,11] {compact}[12,23]").full_days == [
        DATE
    ]
