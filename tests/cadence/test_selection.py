"""Tick selection (docs/formats.md §7.2, §7.3) as a pure function."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from shared.cadence.selection import (
    SKIP_DISABLED,
    SKIP_MISSING,
    SKIP_UNIMPLEMENTED,
    PartitionView,
    is_running,
    select_partitions,
    time_limits,
)
from shared.partitions.playlist import parse_items

NOW = datetime(2026, 1, 5, 10, 0, 0, tzinfo=UTC)
IMPL = frozenset({"memory-weaver", "memory-committer"})
ALL = ["cadence-executor", "memory-committer", "memory-weaver", "pattern-tracker"]


def views(**overrides: PartitionView) -> dict[str, PartitionView]:
    base = {name: PartitionView(name=name, enabled=True) for name in ALL}
    base.update(overrides)
    return base


def select(text: str | None, vs: dict[str, PartitionView], tick: int = 1, limit: int = 2):
    enabled = [n for n in ALL if n in vs and vs[n].enabled]
    return select_partitions(text, vs, enabled, tick=tick, now=NOW, limit=limit, implemented=IMPL)


def test_missing_playlist_is_rebuilt_and_unimplemented_items_are_checked_off() -> None:
    sel = select(None, views())
    assert sel.picks == ("memory-committer", "memory-weaver")
    assert sel.skipped == (("cadence-executor", SKIP_UNIMPLEMENTED),)
    assert sel.playlist is not None
    assert sel.playlist.startswith(
        "# Subconscious Playlist\n\n## Current Round\n- [x] cadence-executor\n"
    )
    assert "## History\n- 2026-01-05T10:00:00.000Z executed=cadence-executor\n" in sel.playlist
    # picks stay unchecked: their finish checks them off
    pending = [i.name for i in parse_items(sel.playlist) if not i.done]
    assert pending == ["memory-committer", "memory-weaver", "pattern-tracker"]


def test_limit_one_picks_first_due_item() -> None:
    sel = select(None, views(), limit=1)
    assert sel.picks == ("memory-committer",)


def test_cooldown_counts_ticks() -> None:
    text = "# P\n\n## Current Round\n- [ ] memory-weaver\n\n## History\n"
    cooling = views(**{"memory-weaver": PartitionView("memory-weaver", True, 5, None, 3)})
    assert select(text, cooling, tick=7).picks == ()
    assert select(text, cooling, tick=8).picks == ("memory-weaver",)
    zero = views(**{"memory-weaver": PartitionView("memory-weaver", True, 0, None, 8)})
    assert select(text, zero, tick=8).picks == ("memory-weaver",)


def test_backed_off_and_running_items_are_passed_over_for_later_ones() -> None:
    text = "## Current Round\n- [ ] memory-weaver\n- [ ] memory-committer\n"
    backed = views(
        **{
            "memory-weaver": PartitionView(
                "memory-weaver", True, backoff_until=NOW + timedelta(seconds=1)
            )
        }
    )
    assert select(text, backed).picks == ("memory-committer",)
    expired = views(**{"memory-weaver": PartitionView("memory-weaver", True, backoff_until=NOW)})
    assert select(text, expired).picks == ("memory-weaver", "memory-committer")
    running = views(**{"memory-weaver": PartitionView("memory-weaver", True, running=True)})
    assert select(text, running).picks == ("memory-committer",)


def test_disabled_and_missing_items_are_checked_off_with_history() -> None:
    text = (
        "## Current Round\n- [ ] gone\n- [ ] memory-weaver\n- [ ] memory-committer\n\n## History\n"
    )
    vs = views(**{"memory-weaver": PartitionView("memory-weaver", False)})
    sel = select(text, vs)
    assert sel.skipped == (("gone", SKIP_MISSING), ("memory-weaver", SKIP_DISABLED))
    assert sel.picks == ("memory-committer",)
    assert sel.playlist is not None
    assert "- [x] gone\n- [x] memory-weaver\n- [ ] memory-committer" in sel.playlist
    history = sel.playlist.split("## History\n")[1].splitlines()
    assert history == [
        "- 2026-01-05T10:00:00.000Z executed=memory-weaver",
        "- 2026-01-05T10:00:00.000Z executed=gone",
    ]


def test_complete_round_is_rebuilt_from_enabled_partitions() -> None:
    text = "## Current Round\n- [x] memory-weaver\n\n## History\n- old executed=memory-weaver\n"
    vs = views(**{"pattern-tracker": PartitionView("pattern-tracker", False)})
    sel = select(text, vs, limit=1)
    assert sel.picks == ("memory-committer",)
    assert sel.playlist is not None
    names = [i.name for i in parse_items(sel.playlist)]
    assert names == ["cadence-executor", "memory-committer", "memory-weaver"]
    assert "- old executed=memory-weaver" in sel.playlist


def test_nothing_due_leaves_playlist_untouched() -> None:
    text = "## Current Round\n- [ ] memory-weaver\n"
    vs = views(**{"memory-weaver": PartitionView("memory-weaver", True, 5, None, 1)})
    sel = select(text, vs, tick=2)
    assert sel.picks == () and sel.skipped == () and sel.playlist is None


def test_irregular_item_that_cannot_be_checked_off_stalls_with_a_note() -> None:
    text = "## Current Round\n- [ ]  gone\n- [ ] memory-weaver\n"
    sel = select(text, views())
    assert sel.picks == ()
    assert sel.notes == ("stale playlist item did not advance: gone",)


def test_cjk_partition_names_round_trip() -> None:
    text = "## Current Round\n- [ ] 记忆-织工\n- [ ] memory-weaver\n\n## History\n"
    sel = select(text, views())
    assert sel.skipped == (("记忆-织工", SKIP_MISSING),)
    assert sel.playlist is not None and "- [x] 记忆-织工" in sel.playlist


@pytest.mark.parametrize(
    ("ms", "soft", "hard"),
    [(60_000, 54.0, 60.0), (2_100_000, 2070.0, 2100.0), (0, 0.9, 1.0), (500, 0.9, 1.0)],
)
def test_time_limits(ms: int, soft: float, hard: float) -> None:
    assert time_limits(ms) == pytest.approx((soft, hard))


def test_is_running_until_finished_or_stale() -> None:
    started = "2026-01-05T09:59:00.000Z"
    assert is_running(started, None, NOW, 60_000)
    assert is_running(started, "2026-01-05T09:00:00.000Z", NOW, 60_000)
    assert not is_running(started, "2026-01-05T09:59:30.000Z", NOW, 60_000)
    # two hard limits (2 x 20 s) have passed: the finish was lost
    assert not is_running(started, None, NOW, 20_000)
    assert not is_running(None, None, NOW, 60_000)
