"""var/meta/partitions/<name>.json and the backoff formulas (docs/formats.md §7.4)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from shared.kernel.paths import KernelPaths
from shared.partitions.state import (
    PartitionState,
    is_backed_off,
    next_state,
    parse_state,
    read_state,
    render_state,
    write_state,
)

NOW = datetime(2026, 1, 5, 10, 0, 0, tzinfo=UTC)
INTERVAL = 2_220_000

ORIGINAL = """{
  "last_started_at": "2026-01-05T10:00:00.000Z",
  "last_finished_at": "2026-01-05T10:20:01.000Z",
  "last_result": "success",
  "consecutive_failures": 0,
  "backoff_until": null
}
"""


def test_original_file_round_trips() -> None:
    assert render_state(parse_state(ORIGINAL)) == ORIGINAL


def test_last_run_tick_is_an_extra_trailing_key() -> None:
    state = parse_state(
        ORIGINAL.replace('"backoff_until": null', '"backoff_until": null,\n  "last_run_tick": 12')
    )
    assert state.last_run_tick == 12
    assert render_state(state).endswith('"backoff_until": null,\n  "last_run_tick": 12\n}\n')


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"consecutive_failures": "3"}', '{"consecutive_failures": true}', "{}"],
)
def test_unreadable_or_non_number_failures_reset(text: str) -> None:
    assert parse_state(text) == PartitionState()


def test_read_missing_and_write(paths: KernelPaths) -> None:
    assert read_state(paths, "memory-weaver") == PartitionState()
    state = next_state(PartitionState(), "success", NOW, INTERVAL, tick=4)
    write_state(paths, "memory-weaver", state)
    assert paths.partition_state("memory-weaver").read_text().startswith('{\n  "last_started_at"')
    assert read_state(paths, "memory-weaver") == state


def test_success_resets_failures() -> None:
    prev = PartitionState(consecutive_failures=5, backoff_until="2030-01-01T00:00:00.000Z")
    state = next_state(prev, "success", NOW, INTERVAL)
    assert (state.consecutive_failures, state.backoff_until, state.last_result) == (
        0,
        None,
        "success",
    )
    assert state.last_finished_at == "2026-01-05T10:00:00.000Z"


def test_invalid_output_counts_but_never_backs_off() -> None:
    state = next_state(PartitionState(consecutive_failures=9), "invalid_output", NOW, INTERVAL)
    assert (state.consecutive_failures, state.backoff_until) == (10, None)


def test_timeout_backoff() -> None:
    two = next_state(PartitionState(consecutive_failures=1), "timeout", NOW, INTERVAL)
    assert (two.consecutive_failures, two.backoff_until) == (2, None)
    three = next_state(two, "timeout", NOW, INTERVAL)
    assert three.backoff_until == "2026-01-05T11:51:00.000Z"  # 3 × 37 min = 6 660 000 ms
    many = next_state(PartitionState(consecutive_failures=10), "timeout", NOW, INTERVAL)
    assert many.backoff_until == "2026-01-05T12:00:00.000Z"  # capped at 2 h


def test_error_backoff() -> None:
    one = next_state(PartitionState(), "error", NOW, INTERVAL)
    assert one.backoff_until is None
    two = next_state(one, "error", NOW, INTERVAL)
    assert two.backoff_until == "2026-01-05T12:28:00.000Z"  # 2 × 2 × 37 min
    many = next_state(PartitionState(consecutive_failures=10), "error", NOW, INTERVAL)
    assert many.backoff_until == "2026-01-05T14:00:00.000Z"  # capped at 4 h


def test_unknown_outcome_rejected() -> None:
    with pytest.raises(ValueError, match="unknown"):
        next_state(PartitionState(), "crashed", NOW, INTERVAL)


def test_is_backed_off() -> None:
    state = next_state(PartitionState(consecutive_failures=3), "error", NOW, INTERVAL)
    assert is_backed_off(state, NOW)
    assert not is_backed_off(state, NOW + timedelta(hours=5))
    assert not is_backed_off(PartitionState(), NOW)
    assert not is_backed_off(PartitionState(backoff_until="garbage"), NOW)


def test_started_at_and_tick_kept() -> None:
    prev = PartitionState(last_run_tick=3)
    state = next_state(prev, "success", NOW, INTERVAL, started_at=NOW - timedelta(seconds=5))
    assert state.last_started_at == "2026-01-05T09:59:55.000Z"
    assert state.last_run_tick == 3
