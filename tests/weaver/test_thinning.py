"""Thin scan results: the same fragments however a day is sliced, a spine re-read when
crystallize must judge a thin turn, and smaller results."""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest

from bench.scan import make_workload
from shared.errors import InputError, ThinTurnError
from shared.formats.board import read_board
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.spine.reader import ReadStats
from shared.spine.slices import SpineSlice
from shared.weaver import pipeline
from shared.weaver.records import ScanResult
from shared.weaver.scan import thinning
from shared.weaver.scan.scanner import is_thin, read_slice_turns, scan_turns
from shared.weaver.scan.turns import Turn
from tests.weaver.helpers import DATE, TinyLease, load_corpus, write_day, write_kernel

WHOLE_DAY = f"{DATE.replace('-', '')}[00,23]"

# (external text, agent rows): a price trigger approved, thanked and corrected; a deploy
# that reads its dossier and is corrected; an approval in words; a Chinese correction;
# a standing instruction. Each session walks the script from its own offset.
SCRIPT: list[tuple[str, list[tuple[str, dict[str, str]]]]] = [
    (
        "What is the price for the enterprise plan? I need a quote for the board.",
        [("agent.result", {"text": "Pricing depends on many factors such as volume."})],
    ),
    ("perfect", []),
    ("ok", []),
    ("No, I told you to give me the exact number first.", []),
    (
        "Deploying the API to production now, anything to check?",
        [
            (
                "agent.tool_use",
                {"tool_name": "Read", "input_summary": "memory/topics/groove-deploy-check.md"},
            ),
            ("agent.result", {"text": "Ran the smoke tests; ready to ship."}),
        ],
    ),
    ("That's wrong: the smoke tests are not enough, you should run the dry-run instead.", []),
    ("thanks", []),
    (
        "Before we deploy this to production, what should I verify?",
        [("agent.result", {"text": "Run the smoke tests first, then check the rollback plan."})],
    ),
    ("That's exactly what I wanted, ship it.", []),
    ("帮我写这周的周报", [("agent.result", {"text": "本周完成了很多工作，团队推进顺利。"})]),
    ("不对，我说过要先列出关键数字", []),
    ("From now on, when I ask for a summary, use bullet points.", []),
    ("Can you check the build status?", [("agent.tool_use", {"tool_name": "Bash"})]),
]


def _event(n: int, kind: str, session: str | None, type_: str, payload: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": type_, "source": {"kind": kind}}
    if session:
        event["session_key"] = session
    event["payload"] = payload
    event["id"] = f"evt_{n:04d}"
    event["ts"] = f"{DATE}T{3 + n // 60:02d}:{n % 60:02d}:00.000Z"
    return event


def session_day(turns: int = 150, sessions: int = 4, seed: int = 5) -> list[dict[str, Any]]:
    """Interleaved sessions walking :data:`SCRIPT`, plus a few sessionless messages, so
    any slicing starts slices on fillers, approvals and corrections."""
    rng = random.Random(seed)
    step = [s * 3 for s in range(sessions)]
    events: list[dict[str, Any]] = []
    for _ in range(turns):
        if rng.random() < 0.05:
            text = "From now on, always cite the source link."
            events.append(_event(len(events), "stdio", None, "channel.message", {"text": text}))
            continue
        s = rng.randrange(sessions)
        text, rows = SCRIPT[step[s] % len(SCRIPT)]
        step[s] += 1
        key = f"stdio:s{s}"
        events.append(_event(len(events), "stdio", key, "channel.message", {"text": text}))
        for row_type, payload in rows:
            events.append(_event(len(events), "runner", key, row_type, payload))
    return events


@pytest.fixture
def day(paths: KernelPaths) -> KernelPaths:
    write_kernel(paths, load_corpus())
    write_day(paths, session_day())
    return paths


def _copy(paths: KernelPaths, root: Path) -> KernelPaths:
    other = KernelPaths(root / "kernel", root / "runtime")
    shutil.copytree(paths.kernel, other.kernel)
    shutil.copytree(paths.runtime, other.runtime)
    return other


def _settings(paths: KernelPaths, events: int) -> Settings:
    return Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, scan_slice_events=events)


def _pass(paths: KernelPaths, events: int) -> tuple[dict[str, bytes], dict[str, Any]]:
    """A whole-day pass: the fragment files it wrote and its report."""
    result = pipeline.run_pass_inprocess(
        paths, _settings(paths, events), TinyLease(), interval=WHOLE_DAY
    )
    day = paths.fragment_day_dir(DATE)
    return {p.name: p.read_bytes() for p in sorted(day.glob("*.md"))}, result


def _report(result: dict[str, Any]) -> dict[str, Any]:
    # Names of the run's own files (stamped with the time) aside, a report is the data.
    return {k: v for k, v in result.items() if k != "report_log"}


class ReadCounter:
    """Counts the slices a :class:`~shared.weaver.scan.thinning.SpineHydrator` reads again."""

    def __init__(self) -> None:
        self.slices: list[SpineSlice] = []

    def __call__(self, paths: KernelPaths, s: SpineSlice, *args: Any, **kw: Any) -> list[Turn]:
        self.slices.append(s)
        return read_slice_turns(paths, s, *args, **kw)


def test_thin_results_give_the_fragments_of_full_results_however_sliced(
    day: KernelPaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        m.setattr(pipeline, "thin_turns", lambda turns, record: turns)
        reference, report = _pass(_copy(day, tmp_path / "full"), 10_000)
    assert len(reference) > 20
    plan = pipeline.plan_pass(day, _settings(day, 40), interval=WHOLE_DAY)
    results = [pipeline.scan_slice(day, _settings(day, 40), plan, s) for s in plan.slices]
    assert sum(map(is_thin, (t for r in results for t in r.turns))) > 20
    reads = ReadCounter()
    monkeypatch.setattr(thinning, "read_slice_turns", reads)
    for events in (1, 2, 3, 5, 8, 13, 40, 10_000):
        files, result = _pass(_copy(day, tmp_path / f"s{events}"), events)
        assert files == reference, events
        assert _report(result) == _report(report), events
    # The turns kept full are those re-judged here: the spine fallback stays idle.
    assert reads.slices == []


def _results(paths: KernelPaths, events: int) -> tuple[pipeline.PassPlan, list[ScanResult]]:
    settings = _settings(paths, events)
    plan = pipeline.plan_pass(paths, settings, interval=WHOLE_DAY)
    return plan, [pipeline.scan_slice(paths, settings, plan, s) for s in plan.slices]


def _crystallize(paths: KernelPaths, plan: Any, results: list[ScanResult]) -> list[str]:
    report = pipeline.crystallize(paths, _settings(paths, 40), plan, results, TinyLease())
    return sorted(report.fragments_new)


def test_crystallize_reads_thinned_turns_again_when_it_must_judge_them(
    day: KernelPaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, results = _results(day, 40)
    reference = _crystallize(_copy(day, tmp_path / "ref"), plan, results)
    # Every turn thin, even those crystallize re-judges (and their previous turns).
    starved = [replace(r, turns=[thinning.thin_turn(t) for t in r.turns]) for r in results]
    reads = ReadCounter()
    monkeypatch.setattr(thinning, "read_slice_turns", reads)
    assert _crystallize(_copy(day, tmp_path / "thin"), plan, starved) == reference
    assert 1 < len(reads.slices) <= len(plan.slices)
    assert len({(s.byte_start, s.byte_end) for s in reads.slices}) == len(reads.slices)


def test_a_board_changed_since_the_scan_rejudges_every_turn_from_the_spine(
    day: KernelPaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, results = _results(day, 40)
    with monkeypatch.context() as m:
        m.setattr(pipeline, "thin_turns", lambda turns, record: turns)
        full = _results(day, 40)[1]
    for paths in (ref := _copy(day, tmp_path / "ref"), moved := _copy(day, tmp_path / "moved")):
        board = paths.board.read_text(encoding="utf-8")
        paths.board.write_text(board + "- When the user says hi, say hi back [[x]]\n")
    reads = ReadCounter()
    monkeypatch.setattr(thinning, "read_slice_turns", reads)
    assert _crystallize(moved, plan, results) == _crystallize(ref, plan, full)
    # Each slice holding a thin turn is read once more.
    assert len(reads.slices) == sum(any(map(is_thin, r.turns)) for r in results) > 1


def test_a_turn_the_spine_no_longer_holds_fails_the_pass(day: KernelPaths) -> None:
    plan, results = _results(day, 40)
    starved = [replace(r, turns=[thinning.thin_turn(t) for t in r.turns]) for r in results]
    starved[1].turns[0] = {**starved[1].turns[0], "id": "evt_gone"}
    with pytest.raises(InputError, match="evt_gone must be judged again"):
        _crystallize(day, plan, starved)


def test_scan_turns_will_not_judge_a_thin_turn_without_hydrate(day: KernelPaths) -> None:
    _, results = _results(day, 10_000)
    turns = [thinning.thin_turn(t) for t in results[0].turns]
    with pytest.raises(ThinTurnError, match="only its thin form"):
        scan_turns(read_board(day.board), turns)


def test_the_look_ahead_stops_at_the_size_the_plan_saw(day: KernelPaths) -> None:
    plan, _ = _results(day, 40)
    s = plan.slices[-1].spine

    def read(end: int | None) -> list[Turn]:
        return read_slice_turns(day, s, ReadStats(), 1 << 20, ahead_end=end)

    before = read(thinning.planned_end(s))
    # The file's last turn of a session is still open: a row appended now would join it.
    last = next(t for t in reversed(before) if t["session_key"])
    row = {"type": "agent.result", "source": {"kind": "runner"}}
    late = {"session_key": last["session_key"], "payload": {"text": "appended"}, "ts": last["ts"]}
    write_day(day, [{**row, **late}])
    assert read(thinning.planned_end(s)) == before
    grown = next(t for t in read(None) if t["id"] == last["id"])
    assert len(grown["rows"]) == len(last["rows"]) + 1


def _sizes(results: list[ScanResult]) -> tuple[int, int]:
    return (
        sum(len(orjson.dumps(r)) for r in results),
        sum(len(orjson.dumps(r.turns)) for r in results),
    )


def test_scan_results_of_a_bench_day_are_much_smaller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = make_workload(tmp_path, 2 * 1024 * 1024)
    settings = _settings(w.paths, w.events // 2 + 1)
    plan = pipeline.plan_pass(w.paths, settings, interval=WHOLE_DAY)
    thin = _sizes([pipeline.scan_slice(w.paths, settings, plan, s) for s in plan.slices])
    monkeypatch.setattr(pipeline, "thin_turns", lambda turns, record: turns)
    full = _sizes([pipeline.scan_slice(w.paths, settings, plan, s) for s in plan.slices])
    # Measured: turns 1.8x, whole results 1.3x smaller (the judgements stay).
    assert full[1] > 1.6 * thin[1]
    assert full[0] > 1.2 * thin[0]
