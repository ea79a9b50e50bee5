"""The gap check (docs/formats.md §9.2, §8.9 worked example, §9.5 incremental tail)."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from shared.constants import SCAN_GAP_PENDING, WEAVER
from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.spine.coverage import ScanProgress, mark_day_covered, scan_progress
from shared.spine.event import render_event
from shared.spine.gap import Gap, find_gap, post_gap, scan_gap_body
from shared.spine.gapcache import CACHE_VERSION
from shared.spine.interval import Window, parse_interval
from shared.spine.reader import ReadStats, iter_slice
from shared.spine.scangap import ScanGapBody, parse_scan_gap_body, render_scan_gap_body
from shared.spine.slices import plan_slices
from tests.spine.helpers import event, msg, write_day
from workers.cli import main


def _worked_example(paths: KernelPaths) -> None:
    """The worked example (docs/formats.md §8.9): 2026-01-04 covered; 2026-01-05 with a
    mix of sources."""
    write_day(paths, "2026-01-04", [msg("stdio", "2026-01-04T10:00:00.000Z")])
    write_day(
        paths,
        "2026-01-05",
        [
            event(
                "system.cadence_tick",
                "system",
                "2026-01-05T01:00:00.000Z",
                name="cadence",
                payload={"count": 0},
            ),
            msg("feishu", "2026-01-05T03:10:00.000Z", "以后回复先给结论"),
            msg("feishu", "2026-01-05T04:20:00.000Z", "谢谢"),
            event(
                "job.complete",
                "job",
                "2026-01-05T05:00:00.000Z",
                name="daily-digest",
                session_key="job:daily-digest.1a2b3c4",
                payload={"job_id": "daily-digest", "result_summary": "ok"},
            ),
            event(
                "agent.result",
                "runner",
                "2026-01-05T06:00:00.000Z",
                name="runner",
                payload={"text": "done"},
            ),
            msg("stdio", "2026-01-05T14:00:00.000Z", "lead with the answer"),
            msg("stdio", "2026-01-05T15:30:00.000Z", "thanks"),
        ],
    )
    paths.fragment_day_dir("2026-01-04").mkdir(parents=True)


def _inbox_item(paths: KernelPaths) -> Path:
    return paths.inbox_dir(WEAVER) / SCAN_GAP_PENDING


def test_worked_example_bands_tokens_count_and_body(paths: KernelPaths, settings: Settings) -> None:
    _worked_example(paths)
    gap = find_gap(paths, settings)
    assert gap is not None
    assert gap.date == "2026-01-05"
    assert gap.bands == [(3, 5), (14, 15)]
    assert gap.tokens == ["20260105[03,05]", "20260105[14,15]"]
    assert gap.external_events == 5
    assert not gap.incremental
    lines = scan_gap_body(gap).split("\n")
    assert lines[0] == "[scan-gap] 20260105[03,05] 20260105[14,15]"
    assert lines[1] == "partition: var/events/2026-01-05.jsonl"
    assert lines[2] == "external events in window: 5"
    assert lines[3].startswith("action: ")
    assert "This day has no fragments/2026-01-05/ dir yet." in lines[3]
    assert lines[4:] == [""]  # exactly one trailing LF


def test_post_then_second_run_is_withheld(paths: KernelPaths, settings: Settings) -> None:
    _worked_example(paths)
    gap = find_gap(paths, settings)
    assert gap is not None
    first = post_gap(paths, gap)
    assert first.posted == [str(_inbox_item(paths))] and first.withheld == []
    body = _inbox_item(paths).read_text("utf-8")
    second = post_gap(paths, gap)
    assert second.posted == []
    assert second.withheld == [
        {"kind": "scan-gap.v1", "partition": WEAVER, "reason": "already-pending"}
    ]
    assert _inbox_item(paths).read_text("utf-8") == body


def test_dry_run_writes_nothing(paths: KernelPaths, settings: Settings) -> None:
    _worked_example(paths)
    gap = find_gap(paths, settings)
    assert gap is not None
    assert post_gap(paths, gap, dry_run=True).posted == [str(_inbox_item(paths))]
    assert not _inbox_item(paths).exists()


def test_empty_fragments_dir_covers_a_day_and_the_check_moves_on(
    paths: KernelPaths, settings: Settings
) -> None:
    _worked_example(paths)
    write_day(paths, "2026-01-03", [msg("acp", "2026-01-03T08:00:00.000Z")])
    mark_day_covered(paths, "2026-01-05", None)
    gap = find_gap(paths, settings)
    assert gap is not None and gap.date == "2026-01-03"
    assert gap.tokens == ["20260103[08,08]"]
    mark_day_covered(paths, "2026-01-03", None)
    assert find_gap(paths, settings) is None


def test_days_with_only_internal_events_are_skipped(paths: KernelPaths, settings: Settings) -> None:
    write_day(paths, "2026-01-02", [msg("stdio", "2026-01-02T23:00:00.000Z")])
    write_day(
        paths,
        "2026-01-03",
        [
            event("agent.result", "runner", "2026-01-03T01:00:00.000Z"),
            event("route.deliver", "route", "2026-01-03T02:00:00.000Z"),
            {"type": "x", "source": {"kind": ""}, "ts": "2026-01-03T03:00:00.000Z"},
        ],
    )
    gap = find_gap(paths, settings)
    assert gap is not None and gap.date == "2026-01-02" and gap.bands == [(23, 23)]


def test_symlinked_fragment_dir_and_files_do_not_cover(
    paths: KernelPaths, settings: Settings, tmp_path: Path
) -> None:
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    write_day(paths, "2026-01-04", [msg("stdio", "2026-01-04T03:00:00.000Z")])
    paths.fragments_dir.mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", paths.fragments_dir / "2026-01-05")
    (paths.fragments_dir / "2026-01-04").write_text("a file, not a dir")
    gap = find_gap(paths, settings)
    assert gap is not None and gap.date == "2026-01-05"


def test_no_spine_means_no_gap(paths: KernelPaths, settings: Settings) -> None:
    assert find_gap(paths, settings) is None


def test_non_partition_names_are_ignored(paths: KernelPaths, settings: Settings) -> None:
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    (paths.events_dir / "notes.jsonl").write_text(render_event(msg("stdio", "2026-02-01")))
    (paths.events_index_dir).mkdir()
    gap = find_gap(paths, settings)
    assert gap is not None and gap.date == "2026-01-05"


def test_bare_date_ts_counts_as_hour_zero(paths: KernelPaths, settings: Settings) -> None:
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05"), msg("stdio", "2026-01-05Txx:00")])
    gap = find_gap(paths, settings)
    assert gap is not None and gap.bands == [(0, 0)] and gap.external_events == 1


def _count_reads(paths: KernelPaths, settings: Settings) -> tuple[Gap | None, list[Path]]:
    reads: list[Path] = []
    gap = find_gap(paths, settings, on_read=reads.append)
    return gap, reads


def test_cache_means_unchanged_days_are_not_read_again(
    paths: KernelPaths, settings: Settings
) -> None:
    for day in range(1, 11):
        date = f"2026-01-{day:02d}"
        write_day(paths, date, [event("agent.result", "runner", f"{date}T01:00:00.000Z")])
    write_day(paths, "2025-12-31", [msg("stdio", "2025-12-31T22:00:00.000Z")])
    cold_gap, cold_reads = _count_reads(paths, settings)
    assert len(cold_reads) == 11
    warm_gap, warm_reads = _count_reads(paths, settings)
    assert warm_reads == []
    assert warm_gap == cold_gap
    # Appending to a day changes its size: only that day is read again.
    with open(paths.day_file("2026-01-04"), "ab") as handle:
        handle.write(render_event(msg("stdio", "2026-01-04T07:00:00.000Z")).encode() + b"\n")
    gap, reads = _count_reads(paths, settings)
    assert reads == [paths.day_file("2026-01-04")]
    assert gap is not None and gap.date == "2026-01-04"


def test_cache_is_trusted_for_same_size_and_mtime(paths: KernelPaths, settings: Settings) -> None:
    """Proof that a warm check reads no spine bytes: replace a day's content with
    different bytes of the same size and mtime; the cached answer still stands."""
    path = write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    first = find_gap(paths, settings)
    st = path.stat()
    path.write_bytes(b"x" * st.st_size)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert find_gap(paths, settings) == first


def test_cache_disabled_reads_every_time(paths: KernelPaths) -> None:
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, gap_cache=False)
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    _, first = _count_reads(paths, settings)
    _, second = _count_reads(paths, settings)
    assert len(first) == len(second) == 1
    assert not (paths.subcon_state_dir / "gap-cache.json").exists()


def test_damaged_cache_is_ignored(paths: KernelPaths, settings: Settings) -> None:
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    paths.subcon_state_dir.mkdir(parents=True)
    (paths.subcon_state_dir / "gap-cache.json").write_text("{not json")
    gap = find_gap(paths, settings)
    assert gap is not None and gap.external_events == 1
    cache = orjson.loads((paths.subcon_state_dir / "gap-cache.json").read_bytes())
    assert cache["version"] == CACHE_VERSION


def _append(paths: KernelPaths, date: str, events: list[dict[str, object]]) -> None:
    with open(paths.day_file(date), "ab") as handle:
        for e in events:
            handle.write(render_event(e).encode("utf-8") + b"\n")


def test_incremental_tail_of_a_covered_day(paths: KernelPaths, settings: Settings) -> None:
    write_day(
        paths,
        "2026-01-05",
        [
            msg("stdio", "2026-01-05T03:00:00.000Z"),
            msg("stdio", "2026-01-05T09:00:00.000Z"),
        ],
    )
    progress = scan_progress(paths, "2026-01-05")
    assert progress.last_ts == "2026-01-05T09:00:00.000Z"
    assert progress.byte_offset == paths.day_file("2026-01-05").stat().st_size
    mark_day_covered(paths, "2026-01-05", progress)
    assert find_gap(paths, settings) is None  # nothing new yet
    _append(
        paths,
        "2026-01-05",
        [
            event("system.cadence_tick", "system", "2026-01-05T10:00:00.000Z"),
            msg("feishu", "2026-01-05T11:00:00.000Z", "新的消息"),
            msg("stdio", "2026-01-05T12:30:00.000Z"),
            # appended after the read with an older ts (an imported overlapping session):
            # never judged, so the window opens just before it
            msg("stdio", "2026-01-05T08:00:00.000Z"),
        ],
    )
    gap = find_gap(paths, settings)
    assert gap is not None and gap.incremental
    assert gap.tokens == ["2026-01-05[2026-01-05T07:59:59.999Z,2026-01-05T12:30:00.000Z]"]
    assert gap.external_events == 3
    body = scan_gap_body(gap)
    assert body.startswith(f"[scan-gap] {gap.tokens[0]}\npartition: var/events/2026-01-05.jsonl\n")
    parsed = parse_scan_gap_body(body)
    assert parsed.items() == [
        Window("2026-01-05", "2026-01-05T07:59:59.999Z", "2026-01-05T12:30:00.000Z")
    ]
    # the window's slices read the three new external events, and the 09:00 one again
    # (judged before; a fragment's name is its key, so judging it again rewrites it)
    slices = plan_slices(paths, parsed.items(), 100)
    got = [
        r.event["ts"]
        for s in slices
        for r in iter_slice(paths, s, ReadStats(), 1 << 20, external_only=True)
    ]
    assert got == [
        "2026-01-05T09:00:00.000Z",
        "2026-01-05T11:00:00.000Z",
        "2026-01-05T12:30:00.000Z",
        "2026-01-05T08:00:00.000Z",
    ]
    # after the tail pass records new progress, the gap is closed
    mark_day_covered(paths, "2026-01-05", scan_progress(paths, "2026-01-05"))
    assert find_gap(paths, settings) is None


def test_uncovered_days_come_before_tails(paths: KernelPaths, settings: Settings) -> None:
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    mark_day_covered(paths, "2026-01-05", scan_progress(paths, "2026-01-05"))
    _append(paths, "2026-01-05", [msg("stdio", "2026-01-05T04:00:00.000Z")])
    write_day(paths, "2026-01-02", [msg("stdio", "2026-01-02T03:00:00.000Z")])
    gap = find_gap(paths, settings)
    assert gap is not None and (gap.date, gap.incremental) == ("2026-01-02", False)
    mark_day_covered(paths, "2026-01-02", None)
    gap = find_gap(paths, settings)
    assert gap is not None and (gap.date, gap.incremental) == ("2026-01-05", True)


def test_covered_day_without_progress_never_yields_a_tail(
    paths: KernelPaths, settings: Settings
) -> None:
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    mark_day_covered(paths, "2026-01-05", None)
    _append(paths, "2026-01-05", [msg("stdio", "2026-01-05T04:00:00.000Z")])
    assert find_gap(paths, settings) is None


def test_broken_progress_file_is_ignored_not_fatal(paths: KernelPaths, settings: Settings) -> None:
    write_day(paths, "2026-01-05", [msg("stdio", "2026-01-05T03:00:00.000Z")])
    mark_day_covered(paths, "2026-01-05", ScanProgress(None, 0, None))
    (paths.fragment_day_dir("2026-01-05") / ".scan.json").write_text("{oops")
    assert find_gap(paths, settings) is None


def test_scan_gap_body_round_trip() -> None:
    body = ScanGapBody(("20260105[03,05]", "20260105[14,15]"), "2026-01-05", 5, "dream — 梦")
    text = render_scan_gap_body(body)
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert parse_scan_gap_body(text) == body


def test_scan_gap_body_minimal_hand_written_item() -> None:
    parsed = parse_scan_gap_body("[scan-gap] 20260105[3,5]\n")
    assert parsed == ScanGapBody(("20260105[03,05]",), "2026-01-05", 0, "")
    assert parse_interval(" ".join(parsed.tokens))[0].date == "2026-01-05"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("scan-gap 20260105[03,05]\n", "p:1:"),
        ("[scan-gap]20260105[03,05]\n", "p:1:"),
        ("[scan-gap] 20260105[05,03]\n", "p:1:"),
        ("[scan-gap]\n", "p:1:"),
        ("[scan-gap] 20260105[03,05]\npartition: /etc/passwd\n", "p:2:"),
        ("[scan-gap] 20260105[03,05]\npartition: var/events/2026-01-06.jsonl\n", "p:2:"),
        (
            "[scan-gap] 20260105[03,05]\npartition: var/events/2026-01-05.jsonl\n"
            "external events in window: many\n",
            "p:3:",
        ),
        ("[scan-gap] 20260105[03,05]\nrm -rf /\n", "p:2:"),
    ],
)
def test_scan_gap_body_errors_name_the_line(text: str, where: str) -> None:
    with pytest.raises(InputError) as info:
        parse_scan_gap_body(text, "p")
    assert str(info.value).startswith(where)


def test_cli_gap_posts_then_withholds(
    paths: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    _worked_example(paths)
    root = ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime)]
    assert main([*root, "gap", "--dry-run", "--json"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert not _inbox_item(paths).exists()
    assert out["date"] == "2026-01-05" and out["bands"] == [[3, 5], [14, 15]]
    assert main([*root, "gap"]) == 0
    text = capsys.readouterr().out
    assert "20260105[03,05] 20260105[14,15]" in text and "posted" in text
    assert _inbox_item(paths).read_text("utf-8").startswith("[scan-gap] 20260105[03,05]")
    assert main([*root, "gap", "--json"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert out["tokens"] == ["20260105[03,05]", "20260105[14,15]"]
    assert out["external_events"] == 5
    assert out["posted"] == [] and out["withheld"][0]["reason"] == "already-pending"


def test_cli_gap_none(paths: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    root = ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime)]
    assert main([*root, "gap"]) == 0
    assert capsys.readouterr().out == "gap: none — all external days dreamt\n"
    assert main([*root, "gap", "--json"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert out["date"] is None and out["posted"] == [] and out["withheld"] == []


def test_cli_gap_missing_kernel_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--kernel", str(tmp_path / "nope"), "--runtime", str(tmp_path), "gap"])
    assert code == 2
    assert "does not exist" in capsys.readouterr().err


def test_truthy_non_string_kinds_count_as_external_events(
    paths: KernelPaths, settings: Settings
) -> None:
    """Interop finding: duoduo posts 20260107[09,09] 20260107[11,11] for these lines."""
    day = paths.day_file("2026-01-07")
    day.parent.mkdir(parents=True)
    day.write_bytes(
        b'{"type":"channel.message","source":{"kind":"stdio"},"payload":{},"id":"evt_a","ts":"2026-01-07T09:00:00.000Z"}\n'
        b'{"type":"channel.message","source":{"kind":["stdio"]},"payload":{},"id":"evt_b","ts":"2026-01-07T11:00:00.000Z"}\n'
        b'{"type":"channel.message","source":{"kind":5},"payload":{},"id":"evt_c","ts":"2026-01-07T11:30:00.000Z"}\n'
        b'{"type":"channel.message","source":{"kind":0},"payload":{},"id":"evt_d","ts":"2026-01-07T13:00:00.000Z"}\n'
    )
    gap = find_gap(paths, settings)
    assert gap is not None
    assert gap.bands == [(9, 9), (11, 11)] and gap.external_events == 3


def test_day_files_with_non_ascii_digits_are_not_days(
    paths: KernelPaths, settings: Settings
) -> None:
    """Interop finding: duoduo ignores ２０２６-01-08.jsonl (full-width digits)."""
    write_day(paths, "2026-01-07", [msg("stdio", "2026-01-07T09:00:00.000Z")])
    (paths.events_dir / "２０２６-01-08.jsonl").write_bytes(
        b'{"source":{"kind":"stdio"},"id":"evt_fw","ts":"2026-01-08T10:00:00.000Z"}\n'
    )
    paths.fragments_dir.mkdir(parents=True)
    (paths.fragments_dir / "２０２６-01-07").mkdir()
    gap = find_gap(paths, settings)
    assert gap is not None and gap.date == "2026-01-07" and gap.bands == [(9, 9)]
