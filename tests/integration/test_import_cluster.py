"""Transcript import on every tick, through a real broker: real redis-server, real scan,
kernel and commit workers, ``SUBCON_IMPORT`` pointing at a Claude Code projects dir.

A manual ``subcon tick`` runs on the kernel worker: it imports what is new in the
transcripts before its gap check, so the weaver pass it starts judges the new user
turns in the same tick. A session that grows is imported once per record, and the next
pass scans only the new tail of the day (a ``<date>[t1,t2]`` window); a session of the
same day imported later with older timestamps is still offered and judged.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from shared.constants import COMMITTER, WEAVER
from shared.importing.envelope import event_id
from shared.importing.formats import reader
from shared.importing.records import ReadState, Role, Utterance
from shared.kernel.paths import KernelPaths
from shared.setup.bootstrap import init_kernel
from shared.setup.demo.spine import DEMO_DATES
from shared.setup.demo.transcripts import SessionWriter
from shared.spine.coverage import mark_day_covered, read_progress
from shared.spine.event import is_external
from shared.spine.interval import Window
from shared.timestamps import iso, parse_iso
from testing.cluster import REPO, Cluster

pytestmark = pytest.mark.integration

DAY = "2026-01-06"
SESSION = "3b0e6a52-6f55-4c8e-9a55-2f0f3a6c1d11"
OVERLAP_SESSION = "8c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f"
PROJECT = "-home-demo-shop"
JUDGED = re.compile(r"^scanner: (\S+) \(scan-gap\): (\d+) external turns judged", re.M)


def _set_cooldown(paths: KernelPaths, name: str, ticks: int) -> None:
    """Let the partition run on every tick (the demo's front matter waits 5 and 3)."""
    prompt = paths.partition_prompt(name)
    text, count = re.subn(
        r"(?m)^(\s+cooldown_ticks:).*$", rf"\g<1> {ticks}", prompt.read_text("utf-8"), count=1
    )
    assert count == 1, prompt
    tmp = prompt.with_name(".CLAUDE.md.edit.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, prompt)


def _subcon(cluster: Cluster, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workers", *args],
        cwd=REPO,
        env=cluster.env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _tick(cluster: Cluster) -> dict[str, Any]:
    """One manual tick on the kernel worker, waited for with every run it started."""
    proc = _subcon(cluster, "tick", "--json", "--timeout", "90")
    assert proc.returncode == 0, proc.stderr + cluster.logs()
    report: dict[str, Any] = json.loads(proc.stdout)
    assert report.get("skipped") is not None and not isinstance(report["skipped"], str), report
    return report


def _weaver(report: dict[str, Any]) -> dict[str, Any]:
    """The weaver pass this tick ran (its settled report)."""
    runs = [e for e in report["dispatched"] if e["partition"] == WEAVER]
    assert len(runs) == 1, report
    assert "report" in runs[0], runs[0]
    result: dict[str, Any] = runs[0]["report"]
    return result


def _utterances(path: Path) -> list[Utterance]:
    with path.open("rb") as handle:
        items = reader("claude-code").read(handle, str(path), ReadState(), final=True)
        return [u for u in items if isinstance(u, Utterance)]


def _ids(utterances: list[Utterance], role: Role | None = None) -> list[str]:
    return [
        event_id("claude-code", u.session_id, u.record_id)
        for u in utterances
        if role is None or u.role is role
    ]


def _day_events(paths: KernelPaths) -> list[dict[str, Any]]:
    return [json.loads(line) for line in paths.day_file(DAY).read_bytes().splitlines()]


def _judged(weaver: dict[str, Any]) -> tuple[str, int]:
    """The interval the pass scanned and how many external turns it judged."""
    found = JUDGED.search(str(weaver["text"]))
    assert found is not None, weaver["text"]
    assert weaver["interval"] == found.group(1)
    return found.group(1), int(found.group(2))


def _turns(writer: SessionWriter, turns: list[str]) -> SessionWriter:
    """More user turns (seven seconds apart per record), each answered with one tool
    call and a short reply."""
    for turn in turns:
        n = len(writer.records)
        writer.user(turn)
        writer.tool("Bash", {"command": f"pytest -q -k case{n}"}, f"{n} passed")
        writer.say(f"Done ({n}).")
    return writer


def test_ticks_import_new_records_and_the_weaver_judges_only_the_new_tail(
    tmp_path: Path, cluster_factory: Callable[..., Cluster]
) -> None:
    paths = KernelPaths(kernel=tmp_path / "kernel", runtime=tmp_path / "runtime")
    init_kernel(paths, demo=True, force=False, demo_edits=False)
    for demo_day in DEMO_DATES:  # the demo's own days were dreamt: the transcripts are new
        mark_day_covered(paths, demo_day, None)
    _set_cooldown(paths, WEAVER, 1)
    _set_cooldown(paths, COMMITTER, 1)
    projects = tmp_path / "claude" / "projects"
    spec = f"claude-code:{projects}"
    cluster = cluster_factory(
        paths,
        SUBCON_IMPORT=spec,
        SUBCON_IMPORT_SETTLE_SECONDS="0",
        SUBCON_TICK_SECONDS="600",
    )
    cluster.worker("scan", "scan", 1)
    cluster.worker("kernel", "kernel", 1)
    cluster.commit_worker()

    # ---- a new session: the first tick imports it and the pass judges its user turns
    session = SessionWriter(SESSION, parse_iso(f"{DAY}T09:00:00.000Z"))
    _turns(
        session,
        [
            "Fix the failing checkout test. From now on, always run `ruff check` before "
            "you commit, and remember this for every session.",
            "You skipped the tests again: run the test suite first and quote the failing "
            "test name.",
        ],
    )
    transcript = projects / PROJECT / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(session.jsonl())
    cluster.wait_ready(["scan", "kernel", "commit"])
    said = _utterances(transcript)
    user_ids = _ids(said, Role.USER)
    assert len(user_ids) == 2

    tick1 = _tick(cluster)
    assert tick1["import"]["events_written"] == len(said), tick1["import"]
    assert tick1["import"]["problem_count"] == 0
    events = _day_events(paths)
    external = [e for e in events if e["type"] == "channel.message"]
    assert [e["id"] for e in external] == user_ids
    assert {e["source"]["kind"] for e in external} == {"claude-code"}
    assert all(is_external(e) for e in external)
    gap1 = tick1["memory_check"]["gap"]
    assert gap1["date"] == DAY and gap1["incremental"] is False, gap1
    weaver1 = _weaver(tick1)
    assert _judged(weaver1) == (gap1["tokens"][0], len(user_ids))
    assert DAY in weaver1["covered"]
    progress1 = read_progress(paths, DAY)
    assert progress1 is not None
    assert progress1.byte_offset == paths.day_file(DAY).stat().st_size
    assert progress1.last_ts == max(e["ts"] for e in external)

    # ---- the user's next turns, later the same day: only they are imported and judged
    _turns(
        session,
        [
            "Also add a changelog entry. From now on, always write the changelog in English.",
            "Please quote the failing test name when a test fails, every time.",
            "Run `ruff check` before every commit, I said that this morning.",
        ],
    )
    old_size = paths.day_file(DAY).stat().st_size
    with transcript.open("ab") as handle:  # Claude Code appends to the session file
        handle.write(session.jsonl()[transcript.stat().st_size :])
    grown = _utterances(transcript)
    new_ids = [i for i in _ids(grown) if i not in set(_ids(said))]
    new_user_ids = [i for i in _ids(grown, Role.USER) if i not in set(user_ids)]
    assert len(new_ids) == len(grown) - len(said) and len(new_user_ids) == 3
    before_tick2 = iso()

    tick2 = _tick(cluster)
    assert tick2["import"]["events_written"] == len(new_ids), tick2["import"]
    events = _day_events(paths)
    counts = Counter(e["id"] for e in events)
    assert max(counts.values()) == 1, [i for i, n in counts.items() if n > 1]
    assert set(counts) == set(_ids(grown))
    with paths.day_file(DAY).open("rb") as handle:
        handle.seek(old_size)
        appended = [json.loads(line) for line in handle.read().splitlines()]
    assert [e["id"] for e in appended] == new_ids
    tail_users = [e for e in appended if e["type"] == "channel.message"]
    assert [e["id"] for e in tail_users] == new_user_ids
    assert all(e["source"]["kind"] == "claude-code" for e in tail_users)
    # the gap was the day's tail after what the first pass read: a ts window
    gap2 = tick2["memory_check"]["gap"]
    assert gap2["date"] == DAY and gap2["incremental"] is True, gap2
    assert gap2["after_ts"] == progress1.last_ts
    assert gap2["until_ts"] == max(e["ts"] for e in tail_users)
    assert gap2["tokens"] == [Window(DAY, gap2["after_ts"], gap2["until_ts"]).token()]
    assert gap2["external_events"] == len(new_user_ids)
    weaver2 = _weaver(tick2)
    assert _judged(weaver2) == (gap2["tokens"][0], len(new_user_ids))
    progress2 = read_progress(paths, DAY)
    assert progress2 is not None
    assert progress2.byte_offset == paths.day_file(DAY).stat().st_size > progress1.byte_offset
    assert progress2.last_ts == gap2["until_ts"]

    status = _subcon(cluster, "status", "--json")
    assert status.returncode == 0, status.stderr
    source = json.loads(status.stdout)["import"]["sources"][spec]
    assert source["configured"] is True
    last = source["last"]
    assert last["last_import"] >= before_tick2
    assert (last["files"], last["events"], last["problems"]) == (1, len(new_ids), 0)

    # ---- a session of the same day, stamped among what was scanned, imported later
    overlap = _turns(
        SessionWriter(OVERLAP_SESSION, parse_iso(f"{DAY}T09:00:10.000Z")),
        [
            "In this repo, never push to main directly: open a pull request instead.",
            "Always quote the failing test name in your summary.",
        ],
    )
    assert max(r["timestamp"] for r in overlap.records) < str(progress2.last_ts)
    (projects / PROJECT / f"{OVERLAP_SESSION}.jsonl").write_bytes(overlap.jsonl())
    overlap_said = _utterances(projects / PROJECT / f"{OVERLAP_SESSION}.jsonl")
    overlap_users = _ids(overlap_said, Role.USER)

    tick3 = _tick(cluster)
    assert tick3["import"]["events_written"] == len(overlap_said), tick3["import"]
    counts = Counter(e["id"] for e in _day_events(paths))
    assert max(counts.values()) == 1
    assert set(counts) == set(_ids(grown)) | set(_ids(overlap_said))
    gap3 = tick3["memory_check"]["gap"]
    assert gap3["incremental"] is True and gap3["external_events"] == len(overlap_users), gap3
    window = Window(DAY, gap3["after_ts"], gap3["until_ts"])
    spine = _day_events(paths)
    stamps = [e["ts"] for e in spine if e["id"] in set(overlap_users)]
    assert parse_iso(str(gap3["after_ts"])) == parse_iso(min(stamps)) - timedelta(milliseconds=1)
    assert gap3["until_ts"] == max(stamps)
    # the pass judged the window: the late session's turns and the earlier ones among them
    in_window = [
        e["id"] for e in spine if e["type"] == "channel.message" and window.contains_ts(e["ts"])
    ]
    assert set(overlap_users) < set(in_window)  # its turns fall among the first ones
    weaver3 = _weaver(tick3)
    assert _judged(weaver3) == (window.token(), len(in_window))
    fragments = sorted(p.name for p in paths.fragment_day_dir(DAY).glob("*.md"))
    assert all(any(f"_{i}_" in name for name in fragments) for i in overlap_users), fragments

    # The late pass cannot tell the day's later, already judged turns from unjudged ones,
    # so the next pass may offer them once more (docs: judging twice rewrites the same
    # fragment): it adds no fragment, and after it the day is done.
    for _ in range(2):
        tick = _tick(cluster)
        assert tick["import"]["events_written"] == 0
        if tick["memory_check"]["gap"] is None:
            break
        assert re.search(r"fragments 0 new, [1-9][0-9]* prior reused", _weaver(tick)["text"])
        assert sorted(p.name for p in paths.fragment_day_dir(DAY).glob("*.md")) == fragments
    else:
        raise AssertionError("the day never settled: a gap is offered on every tick")
