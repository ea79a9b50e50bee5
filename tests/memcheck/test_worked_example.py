"""The worked example of docs/formats.md §8.9, tick by tick."""

from __future__ import annotations

import json
from pathlib import Path

from shared.kernel.paths import KernelPaths
from shared.memcheck.check import run_memory_check
from shared.partitions.inbox import read_ledger, write_item
from shared.settings import Settings

PT = "pattern-tracker"
MW = "memory-weaver"


def check_settings(paths: KernelPaths) -> Settings:
    return Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, memory_check=True)


def names(paths: list[str]) -> set[str]:
    return {f"{Path(p).parent.parent.name}/{Path(p).name}" for p in paths}


def test_first_tick_posts_all_six_signals(example: KernelPaths) -> None:
    report = run_memory_check(example, check_settings(example))
    assert report.errors == []
    assert report.clean
    assert names(report.posted) == {
        f"{PT}/pattern-old.md.pending",
        f"{MW}/entity-converge-acme-corp.md.pending",
        f"{PT}/lesson-reply-first.md.pending",
        f"{MW}/scan-gap.md.pending",
        f"{PT}/orphan-newborn-groove-new.md.pending",
        f"{MW}/orphan-islands.md.pending",
    }
    assert report.withheld == []
    mw = example.inbox_dir(MW)
    pt = example.inbox_dir(PT)
    revise = (pt / "pattern-old.md.pending").read_text()
    assert revise.startswith("[revise] [[pattern-old]]\nmemory/CLAUDE.md:L4\n")
    assert "trajectory: WEAKENING (S=1 N=2 W=3)\n" in revise
    node = (pt / "lesson-reply-first.md.pending").read_text().split("\n")
    assert node[:5] == [
        "[node-converge] [[lesson-reply-first]]",
        "node: topics/lesson-reply-first.md",
        "unexpected-sections: 1",
        "  - ## History",
        "reachable: yes",
    ]
    gap = (mw / "scan-gap.md.pending").read_text().split("\n")
    assert gap[0] == "[scan-gap] 20260105[03,05] 20260105[14,15]"
    assert gap[1] == "partition: var/events/2026-01-05.jsonl"
    assert gap[2] == "external events in window: 5"
    assert (
        (pt / "orphan-newborn-groove-new.md.pending")
        .read_text()
        .startswith("topics/groove-new.md\n")
    )
    islands = (mw / "orphan-islands.md.pending").read_text()
    assert islands.startswith("[orphan-islands]\n")
    assert "- island-node | old | indeg=2 | entities/other.md \n" in islands
    entity = (mw / "entity-converge-acme-corp.md.pending").read_text()
    assert "shape: 1K, 4 lines, 1 dated stamps, reachable from board — " in entity
    assert read_ledger(example, MW) == {
        "entity-converge-acme-corp.md.pending",
        "orphan-islands.md.pending",
        "scan-gap.md.pending",
    }
    assert read_ledger(example, PT) == {
        "lesson-reply-first.md.pending",
        "orphan-newborn-groove-new.md.pending",
        "pattern-old.md.pending",
    }
    assert (mw / ".memory-signals.json").read_text() == (
        '["entity-converge-acme-corp.md.pending","orphan-islands.md.pending",'
        '"scan-gap.md.pending"]\n'
    )


def test_second_tick_sweeps_scan_gap_then_third_posts_next_gap(example: KernelPaths) -> None:
    settings = check_settings(example)
    run_memory_check(example, settings)
    operator = write_item(example, MW, "2026-01-05T10-00-00-000Z-k3j9.pending", "do a thing")
    (example.fragments_dir / "2026-01-05").mkdir()
    second = run_memory_check(example, settings)
    assert second.posted == []
    assert second.swept == ["scan-gap.md.pending"]
    assert len(second.withheld) == 5
    assert {w["reason"] for w in second.withheld} == {"already-pending"}
    assert read_ledger(example, MW) == {
        "entity-converge-acme-corp.md.pending",
        "orphan-islands.md.pending",
    }
    assert not (example.inbox_dir(MW) / "scan-gap.md.pending").exists()
    assert operator.exists()
    # A new uncovered day with external events: the following check posts its gap.
    (example.events_dir / "2026-01-06.jsonl").write_text(
        '{"type":"channel.ingress","source":{"kind":"stdio"},"payload":{},'
        '"id":"evt_x","ts":"2026-01-06T08:00:00.000Z"}\n'
    )
    third = run_memory_check(example, settings)
    assert names(third.posted) == {f"{MW}/scan-gap.md.pending"}
    body = (example.inbox_dir(MW) / "scan-gap.md.pending").read_text()
    assert body.startswith("[scan-gap] 20260106[08,08]\n")
    assert operator.exists()
    assert "scan-gap.md.pending" in read_ledger(example, MW)


def test_stale_gap_blocks_until_swept(example: KernelPaths) -> None:
    settings = check_settings(example)
    run_memory_check(example, settings)
    (example.fragments_dir / "2026-01-05").mkdir()
    (example.events_dir / "2026-01-06.jsonl").write_text(
        '{"type":"x","source":{"kind":"stdio"},"payload":{},"id":"e","ts":"2026-01-06T08:00:00.000Z"}\n'
    )
    second = run_memory_check(example, settings)
    # The newer gap is selected but the stale file blocks it (already-pending), and since
    # the name is still wanted it is not swept.
    assert {"kind": "scan-gap.v1", "partition": MW, "reason": "already-pending"} in second.withheld
    assert second.swept == []
    assert (
        (example.inbox_dir(MW) / "scan-gap.md.pending")
        .read_text()
        .startswith("[scan-gap] 20260105")
    )


def test_operator_items_never_swept_even_with_same_kind_of_name(example: KernelPaths) -> None:
    settings = check_settings(example)
    # Posted by someone else before the first check: not in the ledger, never adopted.
    write_item(example, MW, "scan-gap.md.pending", "[scan-gap] 20260101[01,01]")
    first = run_memory_check(example, settings)
    assert {"kind": "scan-gap.v1", "partition": MW, "reason": "already-pending"} in first.withheld
    assert "scan-gap.md.pending" not in read_ledger(example, MW)
    (example.fragments_dir / "2026-01-05").mkdir()
    second = run_memory_check(example, settings)
    assert second.swept == []
    assert (example.inbox_dir(MW) / "scan-gap.md.pending").exists()


def test_dry_run_writes_nothing(example: KernelPaths) -> None:
    report = run_memory_check(example, check_settings(example), dry_run=True)
    assert len(report.posted) == 6
    assert not example.inbox_dir(MW).exists()
    assert not example.inbox_dir(PT).exists()
    assert "would post 6 .pending" in report.text


def test_contracts_as_shipped_without_flag_still_deliver(example: KernelPaths) -> None:
    settings = Settings(kernel_dir=example.kernel, runtime_dir=example.runtime)
    report = run_memory_check(example, settings)
    assert len(report.posted) == 6


def test_no_consumer_measures_nothing(paths: KernelPaths) -> None:
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    report = run_memory_check(paths, settings)
    assert not report.measured
    assert report.to_json()["posted"] == []
    assert "nothing measured" in report.text


def test_no_contract_partitions_open_only_with_flag(paths: KernelPaths) -> None:
    from tests.memcheck.example import write

    write(paths.partition_prompt(MW), "# weaver without contract\n")
    write(paths.board, "# b\n")
    write(
        paths.day_file("2026-01-05"),
        '{"source":{"kind":"stdio"},"id":"e","ts":"2026-01-05T02:00:00.000Z"}\n',
    )
    closed = run_memory_check(paths, Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime))
    assert not closed.measured
    opened = run_memory_check(paths, check_settings(paths))
    assert names(opened.posted) == {f"{MW}/scan-gap.md.pending"}
    # pattern-tracker is absent: nothing for it is delivered, and no PT ledger appears.
    assert not paths.inbox_dir(PT).exists()


def test_gate_withholds_kinds_not_consumed(example: KernelPaths) -> None:
    from tests.memcheck.example import TRACKER_MD, write

    write(example.partition_prompt(PT), TRACKER_MD.replace("    - revise.v1\n", ""))
    report = run_memory_check(example, check_settings(example))
    assert {"kind": "revise.v1", "partition": PT, "reason": "kind-not-consumed"} in report.withheld
    assert not (example.inbox_dir(PT) / "pattern-old.md.pending").exists()


def test_ledger_entry_no_longer_selected_is_swept(
    example: KernelPaths,
) -> None:
    settings = check_settings(example)
    run_memory_check(example, settings)
    # Give acme-corp its four sections: the entity signal is no longer selected.
    (example.memory_dir / "entities" / "acme-corp.md").write_text(
        "## What it is now\n## Relationship / stance\n## Open variables\n## Trend\n"
    )
    report = run_memory_check(example, settings)
    assert "entity-converge-acme-corp.md.pending" in report.swept
    assert not (example.inbox_dir(MW) / "entity-converge-acme-corp.md.pending").exists()


def test_degraded_tick_skips_the_sweep(example: KernelPaths) -> None:
    settings = check_settings(example)
    run_memory_check(example, settings)
    (example.fragments_dir / "2026-01-05").mkdir()
    # A directory where a dossier should be: EISDIR makes the entity sub-step unclean.
    (example.memory_dir / "entities" / "broken.md").mkdir()
    report = run_memory_check(example, settings)
    assert not report.clean
    assert any("entity-lint" in e for e in report.errors)
    assert report.swept == []
    assert (example.inbox_dir(MW) / "scan-gap.md.pending").exists()


class _LostLease:
    fence = 1
    token = "t"

    def ensure(self) -> None:
        from shared.errors import LockLost

        raise LockLost("lease taken over")


def test_lost_lease_stops_before_any_write(example: KernelPaths) -> None:
    import pytest

    from shared.errors import LockLost

    with pytest.raises(LockLost):
        run_memory_check(example, check_settings(example), lease=_LostLease())
    assert not example.inbox_dir(MW).exists()
    assert not example.inbox_dir(PT).exists()


def test_check_names_board_pointers_without_a_dossier(example: KernelPaths) -> None:
    report = run_memory_check(example, check_settings(example), dry_run=True)
    finding = (
        "memory/CLAUDE.md:L6: [[missing-slug]] has no topic or entity dossier "
        "(the line is kept; the next weave bootstraps one)"
    )
    assert report.board["missing_dossiers"] == [finding]
    assert f"  {finding}" in report.text.split("\n")


def _cover_with_tail(paths: KernelPaths) -> str:
    """Cover 2026-01-04 and 2026-01-05 (as a finished pass would) and append an event
    after the recorded progress, so the only gap is subcon's incremental tail."""
    from shared.spine.coverage import ScanProgress, mark_day_covered

    day = paths.day_file("2026-01-05")
    size = day.stat().st_size
    mark_day_covered(paths, "2026-01-05", ScanProgress("evt_16", size, "2026-01-05T15:59:00.000Z"))
    with open(day, "a", encoding="utf-8") as handle:
        handle.write(
            '{"type":"channel.ingress","source":{"kind":"stdio"},"payload":{},'
            '"id":"evt_tail","ts":"2026-01-05T20:00:00.000Z"}\n'
        )
    return "2026-01-05[2026-01-05T15:59:00.000Z,2026-01-05T20:00:00.000Z]"


def test_tail_scan_gap_is_posted_but_kept_out_of_the_shared_ledger(example: KernelPaths) -> None:
    """Beside a duoduo daemon: its memory check sweeps every ledger-listed name its own
    gap lint does not select, and it never selects a covered day's tail. So subcon
    posts the tail item without listing it, and nothing but the weaver's ack removes it."""
    settings = check_settings(example)
    token = _cover_with_tail(example)
    first = run_memory_check(example, settings)
    assert first.gap is not None and first.gap["incremental"] is True
    item = example.inbox_dir(MW) / "scan-gap.md.pending"
    assert f"{MW}/scan-gap.md.pending" in names(first.posted)
    assert item.read_text().startswith(f"[scan-gap] {token}\n")
    ledger = read_ledger(example, MW)
    assert "scan-gap.md.pending" not in ledger
    assert "entity-converge-acme-corp.md.pending" in ledger  # the original's own signals stay
    second = run_memory_check(example, settings)
    assert second.swept == [] and item.exists()
    assert "scan-gap.md.pending" not in read_ledger(example, MW)


def test_a_listed_tail_item_from_an_older_ledger_is_unlisted_not_swept(
    example: KernelPaths,
) -> None:
    settings = check_settings(example)
    _cover_with_tail(example)
    run_memory_check(example, settings)
    ledger_file = example.inbox_dir(MW) / ".memory-signals.json"
    names_now = sorted(read_ledger(example, MW) | {"scan-gap.md.pending"})
    ledger_file.write_text(json.dumps(names_now, separators=(",", ":")) + "\n")
    again = run_memory_check(example, settings)
    assert again.swept == []
    assert (example.inbox_dir(MW) / "scan-gap.md.pending").exists()
    assert "scan-gap.md.pending" not in read_ledger(example, MW)
