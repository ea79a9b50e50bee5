"""A tick's bookkeeping on a real demo kernel: selection, starts, finishes, front matter."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from shared.cadence.runs import begin_tick, finish_run
from shared.kernel.paths import KernelPaths
from shared.partitions.playlist import parse_items, read_playlist
from shared.partitions.state import read_state
from shared.settings import Settings

T0 = datetime(2026, 1, 6, 8, 0, 0, tzinfo=UTC)
WEAVER = "memory-weaver"
COMMITTER = "memory-committer"


def set_schedule(paths: KernelPaths, name: str, key: str, value: str) -> None:
    prompt = paths.partition_prompt(name)
    text = prompt.read_text(encoding="utf-8")
    text, count = re.subn(rf"(?m)^(\s+{key}:).*$", rf"\g<1> {value}", text, count=1)
    assert count == 1
    prompt.write_text(text, encoding="utf-8")


def settings_for(paths: KernelPaths) -> Settings:
    return Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)


def test_first_tick_picks_both_and_records_starts(demo: KernelPaths) -> None:
    plan = begin_tick(demo, settings_for(demo), 1, T0)
    assert [r.partition for r in plan.runs] == [COMMITTER, WEAVER]
    state = read_state(demo, WEAVER)
    assert state.last_started_at == "2026-01-06T08:00:00.000Z"
    assert state.last_run_tick == 1
    assert state.last_finished_at is None
    assert plan.memory_check is not None
    # picks stay unchecked until they finish
    assert all(not i.done for i in parse_items(read_playlist(demo)))


def test_finish_checks_off_with_history_and_is_idempotent(demo: KernelPaths) -> None:
    settings = settings_for(demo)
    plan = begin_tick(demo, settings, 1, T0)
    run = next(r for r in plan.runs if r.partition == WEAVER)
    done = T0 + timedelta(seconds=5)
    assert finish_run(demo, settings, run, "success", done)
    assert not finish_run(demo, settings, run, "error", done + timedelta(seconds=1))
    state = read_state(demo, WEAVER)
    assert (state.last_result, state.consecutive_failures) == ("success", 0)
    assert state.last_finished_at == "2026-01-06T08:00:05.000Z"
    text = read_playlist(demo)
    assert text is not None
    assert "- [x] memory-weaver" in text
    assert "## History\n- 2026-01-06T08:00:05.000Z executed=memory-weaver\n" in text


def test_running_partition_is_not_picked_again(demo: KernelPaths) -> None:
    settings = settings_for(demo)
    set_schedule(demo, WEAVER, "cooldown_ticks", "0")
    begin_tick(demo, settings, 1, T0)
    plan = begin_tick(demo, settings, 2, T0 + timedelta(seconds=1))
    assert plan.runs == ()


def test_cooldown_edit_takes_effect_at_next_tick(demo: KernelPaths) -> None:
    settings = settings_for(demo)
    set_schedule(demo, WEAVER, "cooldown_ticks", "3")
    set_schedule(demo, COMMITTER, "enabled", "false")
    fired: list[int] = []
    now = T0
    for tick in range(1, 10):
        now += timedelta(seconds=10)
        if tick == 5:
            set_schedule(demo, WEAVER, "cooldown_ticks", "1")
        plan = begin_tick(demo, settings, tick, now)
        for run in plan.runs:
            assert run.partition == WEAVER
            fired.append(tick)
            finish_run(demo, settings, run, "success", now + timedelta(seconds=1))
    assert fired == [1, 4, 5, 6, 7, 8, 9]


def test_disabled_partition_is_checked_off_not_run(demo: KernelPaths) -> None:
    settings = settings_for(demo)
    set_schedule(demo, WEAVER, "enabled", "false")
    plan = begin_tick(demo, settings, 1, T0)
    assert [r.partition for r in plan.runs] == [COMMITTER]
    # disabled partitions are not in a rebuilt round at all
    names = [i.name for i in parse_items(read_playlist(demo))]
    assert WEAVER not in names


def test_error_backoff_skips_partition_until_it_expires(demo: KernelPaths) -> None:
    settings = Settings(kernel_dir=demo.kernel, runtime_dir=demo.runtime, tick_seconds=60)
    set_schedule(demo, WEAVER, "cooldown_ticks", "0")
    set_schedule(demo, COMMITTER, "enabled", "false")
    now = T0
    for tick in (1, 2):
        (run,) = begin_tick(demo, settings, tick, now).runs
        finish_run(demo, settings, run, "error", now)
        now += timedelta(seconds=1)
    state = read_state(demo, WEAVER)
    assert state.consecutive_failures == 2
    # error, 2 failures: backoff = 2 x 2 x 60 s
    assert state.backoff_until == "2026-01-06T08:04:01.000Z"
    assert begin_tick(demo, settings, 3, now).runs == ()
    later = datetime(2026, 1, 6, 8, 4, 2, tzinfo=UTC)
    assert [r.partition for r in begin_tick(demo, settings, 4, later).runs] == [WEAVER]
