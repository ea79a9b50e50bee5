"""Stage records at the task boundary (slice plans, scan, crystallize and update
results): the same JSON shape as the messages carry, decoded once, and a malformed
message is one InputError naming the field."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from shared.errors import InputError
from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from shared.weaver.judging.verdicts import LineAction, Trajectory
from shared.weaver.pipeline import crystallize, plan_pass, scan_slice, update
from shared.weaver.plan import PassPlan
from shared.weaver.records import ScanResult, SlicePlan, SliceRole
from shared.weaver.results import CrystallizeResult, StageResults, UpdateResult
from tests.weaver.helpers import (
    TinyLease,
    corpus_events,
    load_corpus,
    post_scan_gap,
    write_day,
    write_kernel,
)

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


def _stages(planned: tuple[KernelPaths, Settings, PassPlan]) -> tuple[Any, Any]:
    """One pass's crystallize and update results, as the messages carry them."""
    paths, settings, plan = planned
    lease = TinyLease()
    results = [scan_slice(paths, settings, plan, s) for s in plan.slices]
    crystallized = crystallize(paths, settings, plan, results, lease)
    updated = update(paths, settings, plan, crystallized, lease)
    return _wire(crystallized.to_json()), _wire(updated.to_json())


def test_stage_results_keep_their_json_bytes_through_a_message(
    planned: tuple[KernelPaths, Settings, PassPlan],
) -> None:
    crystallized, updated = _stages(planned)
    assert list(crystallized) == CRYSTALLIZE_KEYS
    assert crystallized["fragments_new"] and crystallized["per_line"]
    assert list(updated) == ["status", "changed", "decisions", *UPDATE_KEYS[3:]]
    # Decoding and encoding again gives the same bytes, key order included.
    again = CrystallizeResult.from_json(crystallized).to_json()
    assert orjson.dumps(again) == orjson.dumps(crystallized)
    assert orjson.dumps(UpdateResult.from_json(updated).to_json()) == orjson.dumps(updated)
    pair = {"crystallized": crystallized, "updated": updated}
    assert _wire(StageResults.from_json(pair).to_json()) == pair
    line = next(iter(CrystallizeResult.from_json(crystallized).per_line.values()))
    assert line.trajectory in set(Trajectory) and line.new >= 1


def test_a_decision_row_keeps_the_shape_it_was_sent_in() -> None:
    unread = {"ref": "memory/CLAUDE.md:L3", "action": "keep", "reason": "bad front matter"}
    edit = {
        "ref": "new",
        "marker": None,
        "action": "add",
        "reason": "recurring new-signals candidate: 3 fragments",
        "class": "new-signal",
        "evidence": "3 fragments",
        "fragments": ["memory/fragments/2026-01-05/a.md"],
        "summary": "new line add [new-signal]: 3 fragments",
    }
    message = {**_wire(UPDATE_EMPTY), "decisions": [unread, edit]}
    decoded = UpdateResult.from_json(message)
    added = decoded.decisions[1]
    assert added.action is LineAction.ADD and added.cls == "new-signal"
    assert [d.ref for d in decoded.edits] == ["new"]
    assert orjson.dumps(decoded.to_json()) == orjson.dumps(message)


@pytest.mark.parametrize(
    ("broken", "error"),
    [
        (lambda c, u: c.pop("covered"), "bad crystallize result: field covered"),
        (lambda c, u: c.update(deferred="some"), "bad crystallize result: field deferred"),
        (lambda c, u: c.update(stats=5), "bad crystallize result: field stats"),
        (lambda c, u: c["stats"].update(lines="many"), "bad crystallize result: field stats"),
        (
            lambda c, u: next(iter(c["per_line"].values())).update(trajectory="SIDEWAYS"),
            r"bad crystallize result: field per_line\.[a-z-]+\.trajectory",
        ),
        (lambda c, u: c["judgements"].append({"fragment": 1}), "field judgements.*fragment"),
        (lambda c, u: u.update(changed=[1]), "bad update result: field changed"),
        (lambda c, u: u["decisions"][0].pop("action"), r"bad update result: field decisions\.0"),
        (lambda c, u: u["decisions"][0].update(action="burn"), "field decisions.0.action"),
    ],
)
def test_a_malformed_stage_result_is_one_input_error_naming_the_field(
    planned: tuple[KernelPaths, Settings, PassPlan], broken: Any, error: str
) -> None:
    crystallized, updated = _stages(planned)
    broken(crystallized, updated)
    with pytest.raises(InputError, match=error):
        StageResults.from_json({"crystallized": crystallized, "updated": updated})
    with pytest.raises(InputError, match="bad stage results: field updated"):
        StageResults.from_json({"crystallized": crystallized})


CRYSTALLIZE_KEYS = [
    "status",
    "fragments_new",
    "fragments_prior",
    "per_line",
    "effectiveness_written",
    "effectiveness_deleted",
    "new_signals_written",
    "entities_written",
    "node_create",
    "malformed",
    "bootstrapped",
    "external_events",
    "stats",
    "covered",
    "deferred",
    "missing_slices",
    "judgements",
    "judgements_total",
]
UPDATE_KEYS = ["status", "changed", "decisions", "effectiveness_read", "reviews", "topics_written"]
UPDATE_EMPTY = {k: [] for k in UPDATE_KEYS} | {"status": "NO_NEW_GRADIENT:", "changed": False}
