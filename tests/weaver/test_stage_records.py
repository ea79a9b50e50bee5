"""Stage records at the task boundary: the same JSON shape as the messages carry,
decoded once, and a malformed message is one InputError naming the field."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.pipeline import plan_pass, scan_slice
from shared.weaver.plan import PassPlan
from shared.weaver.records import ScanResult, SlicePlan, SliceRole
from tests.weaver.helpers import corpus_events, load_corpus, post_scan_gap, write_day, write_kernel

SLICE_KEYS = [
    "date",
    "partition",
    "token",
    "bands",
    "after_ts",
    "until_ts",
    "byte_start",
    "byte_end",
    "first_line",
    "file_size",
    "part",
    "parts",
    "role",
]


@pytest.fixture
def planned(paths: KernelPaths) -> tuple[KernelPaths, Settings, PassPlan]:
    corpus = load_corpus()
    write_kernel(paths, corpus)
    write_day(paths, corpus_events(corpus))
    post_scan_gap(paths, "20260105[03,14]")
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, scan_slice_events=3)
    return paths, settings, plan_pass(paths, settings)


def _wire(value: Any) -> Any:
    """What a message carries: JSON bytes and back (as Celery's JSON serializer does)."""
    return orjson.loads(orjson.dumps(value))


def test_plan_and_results_keep_their_json_shape_through_a_message(
    planned: tuple[KernelPaths, Settings, PassPlan],
) -> None:
    paths, settings, plan = planned
    data = _wire(plan.to_json())
    assert [list(s) for s in data["slices"]] == [SLICE_KEYS] * len(plan.slices)
    assert {s["role"] for s in data["slices"]} == {"gap"}
    again = PassPlan.from_json(data)
    assert again == plan and again.slices[0].role is SliceRole.GAP
    result = scan_slice(paths, settings, plan, again.slices[0])
    message = _wire(result.to_json())
    assert set(message) == {
        "slice",
        "turns",
        "stats",
        "last_event_id",
        "last_ts",
        "board_hash",
        "context",
        "judge",
        "fragments",
        "judged",
    }
    decoded = ScanResult.from_json(message)
    assert decoded.to_json() == message
    assert decoded.slice == result.slice and decoded.last_ts == result.last_ts


@pytest.mark.parametrize(
    ("broken", "field"),
    [
        (lambda d: d.pop("byte_start"), "field byte_start"),
        (lambda d: d.update(byte_end="far"), "field byte_end"),
        (lambda d: d.update(role="sideways"), "field role"),
        (lambda d: d.update(bands=[[1]]), "field bands.0"),
    ],
)
def test_a_malformed_slice_is_one_input_error_naming_the_field(
    planned: tuple[KernelPaths, Settings, PassPlan], broken: Any, field: str
) -> None:
    data = _wire(planned[2].slices[0].to_json())
    broken(data)
    with pytest.raises(InputError, match=f"bad slice: {field}"):
        SlicePlan.from_json(data)


def test_a_malformed_result_or_plan_names_the_field(
    planned: tuple[KernelPaths, Settings, PassPlan],
) -> None:
    paths, settings, plan = planned
    message = _wire(scan_slice(paths, settings, plan, plan.slices[0]).to_json())
    with pytest.raises(InputError, match="bad scan result: field last_ts"):
        ScanResult.from_json({**message, "last_ts": 5})
    with pytest.raises(InputError, match="bad scan result: field turns"):
        ScanResult.from_json({k: v for k, v in message.items() if k != "turns"})
    with pytest.raises(InputError, match="bad slice: field byte_start"):
        ScanResult.from_json({**message, "slice": {"date": "2026-01-05"}})
    with pytest.raises(InputError, match="bad pass plan: field slices"):
        PassPlan.from_json({**_wire(plan.to_json()), "slices": "all"})
    with pytest.raises(InputError, match=r"bad pass plan: field \(message\)"):
        PassPlan.from_json(["not", "a", "plan"])
