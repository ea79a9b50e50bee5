"""The judging seams: the registry and ``SUBCON_JUDGE``, the vocabularies, the
judge's provenance in fragments, and the judge in the slice-reuse cache key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from shared.errors import ConfigError
from shared.formats.fragments import (
    ACTIVATIONS,
    ROOT_CAUSES,
    TRAJECTORIES,
    WEAKENING_KINDS,
    Fragment,
    parse_fragment,
    render_fragment,
)
from shared.kernel.paths import KernelPaths
from shared.settings import Settings, load_settings
from shared.weaver.judging.interfaces import JudgeContext, Judgement, JudgeSet, SessionMemory
from shared.weaver.judging.registry import check, judge_set, names, registered
from shared.weaver.judging.rules import VERSION as RULES_VERSION
from shared.weaver.judging.rules import RuleJudge
from shared.weaver.judging.verdicts import Activation, RootCause, Trajectory, WeakeningKind
from shared.weaver.pipeline import crystallize, plan_pass, scan_slice
from shared.weaver.scan.turns import Turn
from tests.weaver.helpers import (
    DATE,
    TinyLease,
    corpus_events,
    load_corpus,
    post_scan_gap,
    write_day,
    write_kernel,
)


def test_the_default_registry_holds_the_rules_and_the_setting_defaults_to_it() -> None:
    assert names() == ("rules",)
    assert Settings().judge == "rules"
    assert judge_set("rules").key == f"rules/{RULES_VERSION}"
    assert isinstance(judge_set(Settings().judge).event(), RuleJudge)


def test_an_unknown_judge_is_a_config_error_naming_the_variable_and_the_known_names(
    monkeypatch: pytest.MonkeyPatch, kernel: KernelPaths
) -> None:
    monkeypatch.setenv("SUBCON_JUDGE", "llm")
    settings = load_settings(kernel_dir=kernel.kernel, runtime_dir=kernel.runtime)
    assert settings.judge == "llm"
    # The pass is refused when it is planned, before any slice is scanned.
    with pytest.raises(ConfigError) as err:
        plan_pass(kernel, settings)
    assert str(err.value) == "invalid setting SUBCON_JUDGE='llm': known judges: rules"
    with pytest.raises(ConfigError, match=r"SUBCON_JUDGE='llm': known judges: rules"):
        judge_set("llm")


def test_a_registered_judge_is_selectable_only_while_registered() -> None:
    rules = judge_set("rules")
    other = JudgeSet("other", "7", RuleJudge, rules.line, rules.dossier)
    with registered("other", lambda: other):
        assert names() == ("rules", "other") and check("other") == "other"
        assert judge_set("other").key == "other/7"
    assert names() == ("rules",)
    with pytest.raises(ConfigError, match=r"known judges: rules$"):
        check("other")


def test_vocabularies_serialise_as_the_bare_strings_of_the_files() -> None:
    assert tuple(Trajectory) == TRAJECTORIES
    assert tuple(Activation) == ACTIVATIONS
    assert tuple(RootCause) == ROOT_CAUSES
    assert tuple(WeakeningKind) == WEAKENING_KINDS
    payload = {"t": Trajectory.WEAKENING, "k": WeakeningKind.OBSOLETE}
    assert json.dumps(payload) == '{"t": "WEAKENING", "k": "obsolete"}'
    assert orjson.loads(orjson.dumps(payload)) == {"t": "WEAKENING", "k": "obsolete"}
    assert f"{Trajectory.NEW_SIGNAL}" == "NEW_SIGNAL" and Trajectory.NEUTRAL == "NEUTRAL"
    # Members hash as their values: sets and dicts of bare strings find them.
    assert "direction-changed" in {WeakeningKind.DIRECTION_CHANGED}
    assert {"obsolete": 1}[WeakeningKind.OBSOLETE] == 1


def _fragment(judge: str | None) -> Fragment:
    return Fragment(
        source_event_id="evt_1",
        source_ts="2026-01-05T09:00:00.000Z",
        source_kind="stdio",
        session_key="stdio:a",
        event_type="channel.message",
        signal="correction",
        claude_md_ref="memory/CLAUDE.md:L3",
        source_line=3,
        source_line_hash="abc",
        trajectory="WEAKENING",
        activation="missed",
        weakening_kind="obsolete",
        evidence=("e",),
        notes=("n",),
        judge=judge,
    )


def test_the_judge_is_a_provenance_key_after_weakening_kind_and_reads_back() -> None:
    text = render_fragment(_fragment("rules/1"))
    head = text.split("---")[1].strip().split("\n")
    assert head[-2:] == ["weakening_kind: obsolete", "judge: rules/1"]
    assert parse_fragment(text).judge == "rules/1"
    assert parse_fragment(text).extra == ()
    # The original's fragments carry none; they render without the key.
    assert "judge:" not in render_fragment(_fragment(None))
    assert Fragment.from_json(_fragment("rules/1").to_json()).judge == "rules/1"


class Counting(RuleJudge):
    """The rules, counting what it judged (to see whether verdicts were replayed)."""

    calls = 0

    def judge(
        self, turn: Turn, previous: SessionMemory, board: Any, ctx: JudgeContext
    ) -> list[Judgement]:
        Counting.calls += 1
        return super().judge(turn, previous, board, ctx)


def _counting() -> JudgeSet:
    rules = judge_set("rules")
    return JudgeSet("counting", "1", Counting, rules.line, rules.dossier)


@pytest.fixture
def kernel(paths: KernelPaths) -> KernelPaths:
    corpus = load_corpus()
    write_kernel(paths, corpus)
    write_day(paths, corpus_events(corpus))
    post_scan_gap(paths, "20260105[03,14]")
    return paths


def _settings(paths: KernelPaths, judge: str) -> Settings:
    return Settings(
        kernel_dir=paths.kernel, runtime_dir=paths.runtime, scan_slice_events=3, judge=judge
    )


@pytest.mark.parametrize("scanned_by", ["rules", "counting"])
def test_recorded_verdicts_are_replayed_only_for_the_judge_that_made_them(
    kernel: KernelPaths, scanned_by: str
) -> None:
    with registered("counting", _counting):
        plan = plan_pass(kernel, _settings(kernel, scanned_by))
        results = [scan_slice(kernel, _settings(kernel, scanned_by), plan, s) for s in plan.slices]
        version = RULES_VERSION if scanned_by == "rules" else "1"
        assert {r.judge for r in results} == {f"{scanned_by}/{version}"}
        Counting.calls = 0
        report = crystallize(kernel, _settings(kernel, "counting"), plan, results, TinyLease())
    turns = report.external_events
    assert turns > 4
    if scanned_by == "counting":
        assert 0 < Counting.calls < turns // 2  # only slice-boundary turns re-judged
    else:
        assert Counting.calls == turns  # another judge's verdicts: every turn re-judged
    written = sorted(kernel.fragment_day_dir(DATE).glob("*.md"))
    assert written
    assert {parse_fragment(p.read_text(encoding="utf-8")).judge for p in written} == {"counting/1"}


def test_scan_results_name_the_judge_beside_the_board_and_context(
    kernel: KernelPaths, tmp_path: Path
) -> None:
    settings = _settings(kernel, "rules")
    plan = plan_pass(kernel, settings)
    result = scan_slice(kernel, settings, plan, plan.slices[0])
    assert result.judge == f"rules/{RULES_VERSION}"
    assert result.board_hash == plan.board_hash and result.context
