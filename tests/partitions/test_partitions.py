"""Partition discovery, schedule quirks, the contract states and the gate (docs/formats.md §6)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from shared.partitions.discovery import (
    NO_CONTRACT,
    PARSE_FAIL,
    SELF_ID_MISMATCH,
    VALID,
    PartitionInfo,
    Schedule,
    discover_partitions,
    enabled_names,
    gate,
    locale_key,
    normalize_kind,
    parse_partition,
    read_partition,
)


def write_partition(paths: KernelPaths, name: str, text: str) -> Path:
    directory = paths.subconscious_dir / name
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "CLAUDE.md").write_text(text, encoding="utf-8")
    return directory


def info_for(text: str, name: str = "memory-weaver") -> PartitionInfo:
    return parse_partition(name, Path("/k/subconscious") / name, text)


def test_defaults_when_front_matter_is_missing() -> None:
    info = info_for("# just a body\n")
    assert info.schedule == Schedule(enabled=True, cooldown_ticks=1, max_duration_ms=60_000)
    assert info.contract_state == NO_CONTRACT
    assert info.contract_enabled is True
    assert info.prompt_content == "# just a body"
    assert info.error is None


def test_enabled_no_is_a_truthy_string_for_the_scheduler_but_not_a_bool_contract() -> None:
    info = info_for("---\nschedule:\n  enabled: no\n---\nx")
    assert info.schedule.enabled is True
    assert info.contract_enabled is True  # not a real boolean → true


def test_enabled_false_disables_both_readers() -> None:
    info = info_for("---\nschedule:\n  enabled: false\n---\nx")
    assert info.schedule.enabled is False
    assert info.contract_enabled is False


@pytest.mark.parametrize(
    ("value", "cooldown"),
    [("'5'", 5), ("-3", 0), ("' 7 '", 7), ("2.5", 3), ("''", 0), ("true", 1), ("0x4", 4)],
)
def test_cooldown_numeric_coercion(value: str, cooldown: int) -> None:
    info = info_for(f"---\nschedule:\n  cooldown_ticks: {value}\n---\n")
    assert info.schedule.cooldown_ticks == cooldown
    assert info.warnings == ()


def test_max_duration_floor_is_one() -> None:
    info = info_for("---\nschedule:\n  max_duration_ms: 0\n---\n")
    assert info.schedule.max_duration_ms == 1


def test_non_numeric_string_falls_back_to_default_with_warning() -> None:
    info = info_for("---\nschedule:\n  cooldown_ticks: soon\n  max_duration_ms: abc\n---\n")
    assert info.schedule.cooldown_ticks == 1
    assert info.schedule.max_duration_ms == 60_000
    assert len(info.warnings) == 2
    assert "cooldown_ticks='soon'" in info.warnings[0]


def test_schedule_not_a_mapping_uses_defaults() -> None:
    info = info_for("---\nschedule: 5\n---\n")
    assert info.schedule == Schedule()


def test_broken_yaml_is_parse_fail_with_reason() -> None:
    info = info_for("---\nschedule: [\n---\nbody")
    assert info.error is not None and "CLAUDE.md:" in info.error
    assert info.contract_state == PARSE_FAIL
    assert info.contract_enabled is True
    assert not info.schedulable


@pytest.mark.parametrize(
    ("contract", "state", "consumes"),
    [
        ("", NO_CONTRACT, set()),
        ("contract: null", NO_CONTRACT, set()),
        ("contract: [a]", PARSE_FAIL, set()),
        ("contract:\n  partition: 5", PARSE_FAIL, set()),
        ("contract:\n  consumes: [scan-gap]", PARSE_FAIL, set()),
        ("contract:\n  partition: other\n  consumes: [scan-gap]", SELF_ID_MISMATCH, set()),
        ("contract:\n  partition: memory-weaver\n  consumes: scan-gap", PARSE_FAIL, set()),
        ("contract:\n  partition: memory-weaver\n  consumes: [scan-gap, 3]", PARSE_FAIL, set()),
        ("contract:\n  partition: memory-weaver", PARSE_FAIL, set()),
        (
            "contract:\n  partition: memory-weaver\n  consumes: [' scan-gap ', revise.v2]",
            VALID,
            {"scan-gap.v1", "revise.v2"},
        ),
        ("contract:\n  partition: memory-weaver\n  consumes: []", VALID, set()),
    ],
)
def test_contract_table(contract: str, state: str, consumes: set[str]) -> None:
    info = info_for(f"---\nschedule:\n  enabled: true\n{contract}\n---\nbody")
    assert info.contract_state == state
    assert info.consumes == frozenset(consumes)


def test_normalize_kind() -> None:
    assert normalize_kind("scan-gap") == "scan-gap.v1"
    assert normalize_kind(" revise.v2 ") == "revise.v2"
    assert normalize_kind("x.v") == "x.v.v1"


def test_gate_reason_order() -> None:
    valid = info_for("---\ncontract:\n  partition: memory-weaver\n  consumes: [scan-gap]\n---\n")
    assert gate("scan-gap.v1", valid, False) is None
    assert gate("sink.v1", valid, True) == "kind-not-consumed"
    assert gate("scan-gap.v1", None, True) == "partition-absent"
    mismatch = info_for("---\nschedule: {enabled: false}\ncontract:\n  partition: x\n---\n")
    assert gate("scan-gap.v1", mismatch, True) == "self-id-mismatch"
    disabled = info_for(
        "---\nschedule: {enabled: false}\ncontract:\n  partition: memory-weaver\n"
        "  consumes: [scan-gap]\n---\n"
    )
    assert gate("scan-gap.v1", disabled, True) == "partition-disabled"
    plain = info_for("body")
    assert gate("scan-gap.v1", plain, False) == "no-contract"
    assert gate("scan-gap.v1", plain, True) is None
    broken = info_for("---\na: [\n---\n")
    assert gate("scan-gap.v1", broken, False) == "parse-fail"
    assert gate("scan-gap.v1", broken, True) is None


def test_discovery_filters_and_sorts(paths: KernelPaths, caplog: pytest.LogCaptureFixture) -> None:
    write_partition(paths, "memory-weaver", "---\nschedule:\n  cooldown_ticks: 5\n---\nw")
    write_partition(paths, "Cadence-executor", "c")
    write_partition(paths, "broken", "---\nschedule: [\n---\n")
    write_partition(paths, "inbox", "not a partition")
    (paths.subconscious_dir / "empty-dir").mkdir()
    (paths.subconscious_dir / "CLAUDE.md").write_text("root guide")
    with caplog.at_level(logging.WARNING):
        found = discover_partitions(paths)
    assert [p.name for p in found] == ["Cadence-executor", "memory-weaver"]
    assert "broken" in caplog.text
    everything = discover_partitions(paths, include_errors=True)
    assert [p.name for p in everything] == ["broken", "Cadence-executor", "memory-weaver"]
    assert everything[0].error is not None
    assert enabled_names(everything) == ["Cadence-executor", "memory-weaver"]


def test_read_partition_absent_and_present(paths: KernelPaths) -> None:
    assert read_partition(paths, "pattern-tracker") is None
    (paths.subconscious_dir / "pattern-tracker").mkdir(parents=True)
    assert read_partition(paths, "pattern-tracker") is None
    write_partition(
        paths,
        "pattern-tracker",
        "---\ncontract:\n  partition: pattern-tracker\n  consumes: [revise]\n---\n",
    )
    info = read_partition(paths, "pattern-tracker")
    assert info is not None and info.consumes == frozenset({"revise.v1"})


def test_locale_order_is_case_insensitive_with_punctuation_first() -> None:
    names = ["b", "A", "a", "a-b", "a_b", "ab", "a1", "B"]
    assert sorted(names, key=locale_key) == ["a", "A", "a_b", "a-b", "a1", "ab", "b", "B"]


# Sorted by node's ``a.localeCompare(b)`` (ICU root), as duoduo lists partitions.
LOCALE_COMPARE_ORDER = [
    "_",
    "_.azb",
    "_x",
    "_z --",
    "--A",
    "--BA",
    "-0z",
    "-1B10",
    "-a.",
    "-y",
    ".",
    ".--z1",
    ".1AB",
    ".Aa__",
    ".z-",
    "0 a0",
    "0_ABB",
    "0.",
    "0a__",
    "0Az",
    "0B_",
    "0z.",
    "0z.z",
    "1",
    "1 za",
    "1_z",
    "1-B1b",
    "11.",
    "1AaB",
    "1AB",
    "1bz",
    "1st",
    "1z_",
    "a",
    "A",
    "a b",
    "a_0",
    "A_a",
    "a_b",
    "a_B",
    "A-1A1",
    "a-a",
    "a-b",
    "A.1",
    "a+b",
    "a=b",
    "a~b",
    "a$b",
    "a0",
    "a1",
    "a9b",
    "aa",
    "Aa.A.",
    "AaAaa",
    "ab",
    "aB",
    "Ab",
    "ab-",
    "aza",
    "Azb",
    "B",
    "B_b1B",
    "b.",
    "B.a",
    "B.A",
    "b0B",
    "b1..A",
    "b10",
    "b2",
    "bB",
    "Bb_-b",
    "cadence-executor",
    "e-part",
    "memory_weaver",
    "memory-committer",
    "memory-weaver",
    "Memory-Weaver",
    "memory.weaver",
    "pattern-tracker",
    "x,y",
    "x.y",
    "x(y",
    "x@y",
    "z",
    "z_ B",
    "z_b",
    "z-A",
    "Z-last",
    "z0",
    "zbB",
]


def test_locale_key_matches_locale_compare_for_ascii_names() -> None:
    shuffled = sorted(LOCALE_COMPARE_ORDER, key=lambda n: n.encode()[::-1])
    assert sorted(shuffled, key=locale_key) == LOCALE_COMPARE_ORDER


def test_locale_key_space_accents_and_case_levels() -> None:
    """node: ["a","A","ä","a\tb","a b","a_b","a-a","a-ä","ä-a","a-b","o","ø","ö-x","ox","中文"]."""
    names = [
        "中文",
        "ox",
        "ö-x",
        "ø",
        "o",
        "a-b",
        "ä-a",
        "a-ä",
        "a-a",
        "a_b",
        "a b",
        "a\tb",
        "ä",
        "A",
        "a",
    ]
    assert sorted(names, key=locale_key) == names[::-1]


@pytest.mark.parametrize(
    ("value", "enabled"),
    [("0", False), ("''", False), ("'false'", True), ("[]", True), ("~", True), ("off", True)],
)
def test_scheduler_enabled_uses_js_truthiness(value: str, enabled: bool) -> None:
    assert info_for(f"---\nschedule:\n  enabled: {value}\n---\n").schedule.enabled is enabled


def test_unreadable_prompt_is_parse_fail_and_not_discovered(paths: KernelPaths) -> None:
    (paths.subconscious_dir / "weird" / "CLAUDE.md").mkdir(parents=True)
    info = read_partition(paths, "weird")
    assert info is not None and info.contract_state == PARSE_FAIL and info.error
    assert discover_partitions(paths) == []


def test_non_utf8_prompt_is_read_with_replacement(paths: KernelPaths) -> None:
    directory = paths.subconscious_dir / "memory-weaver"
    directory.mkdir(parents=True)
    (directory / "CLAUDE.md").write_bytes(
        b"---\nschedule:\n  cooldown_ticks: 4\n---\nbad \xff byte\n"
    )
    (info,) = discover_partitions(paths)
    assert info.schedule.cooldown_ticks == 4
    assert info.prompt_content == "bad \ufffd byte"


def test_to_json_is_serialisable() -> None:
    import json

    info = info_for("---\ncontract:\n  partition: memory-weaver\n  consumes: [b, a]\n---\n")
    data = json.loads(json.dumps(info.to_json()))
    assert data["consumes"] == ["a.v1", "b.v1"]
    assert data["contract"] == "valid"


def test_non_ascii_digits_do_not_make_a_versioned_kind() -> None:
    """`.v２` is not a version suffix: only ASCII digits are parsed in names."""
    from shared.partitions.discovery import _VERSIONED

    assert _VERSIONED.search("scan-gap.v2") and not _VERSIONED.search("scan-gap.v２")


@pytest.mark.parametrize(
    ("text", "cooldown"),
    [  # duoduo schedules both (cooldown 1 and 4), contract state no-contract
        ("---\nschedule:\n\tcooldown_ticks: 4\n---\ntab\n", 1),
        ('---json\n{"schedule": {"cooldown_ticks": 4}}\n---\nlang json\n', 4),
    ],
)
def test_tab_block_and_json_opener_are_scheduled_as_in_the_original(
    text: str, cooldown: int
) -> None:
    info = parse_partition("memory-weaver", Path("/k/subconscious/memory-weaver"), text)
    assert info.schedulable and info.schedule.cooldown_ticks == cooldown
    assert info.contract_state == "no-contract"


@pytest.mark.parametrize("opener", ["--", "-- ", "\ufeff--"])
def test_two_dash_opener_is_a_named_error(opener: str) -> None:
    """duoduo silently reads this as no front matter (no contract): subcon says so."""
    text = f"{opener}\nschedule:\n  enabled: false\n--\nbody\n"
    info = parse_partition("memory-weaver", Path("/k/subconscious/memory-weaver"), text)
    assert not info.schedulable and info.contract_state == "parse-fail"
    assert info.error is not None
    assert info.error.startswith("/k/subconscious/memory-weaver/CLAUDE.md:1: front matter opener")
