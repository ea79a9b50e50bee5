"""``subcon check`` and ``subcon status`` through ``workers.cli.main``."""

from __future__ import annotations

import json

import pytest

from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import write_item
from shared.partitions.state import PartitionState, write_state
from workers.cli import main


def run(paths: KernelPaths, *args: str) -> list[str]:
    return ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args]


def test_check_json_posts_and_uses_the_file_lock(
    example: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(run(example, "check", "--json")) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["posted"]) == 6
    assert report["clean"] is True
    assert report["gap"]["tokens"] == ["20260105[03,05]", "20260105[14,15]"]
    assert (example.inbox_dir("memory-weaver") / "scan-gap.md.pending").exists()


def test_check_dry_run_text(example: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(run(example, "check", "--dry-run")) == 0
    out = capsys.readouterr().out
    assert "gap: 2026-01-05 (2 band(s))" in out
    assert "would post 6 .pending" in out
    assert not example.inbox_dir("memory-weaver").exists()


def test_check_with_redis_lock(
    example: KernelPaths,
    redis_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SUBCON_REDIS_URL", redis_url)
    assert main(run(example, "check", "--json")) == 0
    assert len(json.loads(capsys.readouterr().out)["posted"]) == 6


def test_check_missing_kernel_exits_2(
    paths: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = paths.kernel / "nope"
    assert main(["--kernel", str(missing), "--runtime", str(paths.runtime), "check"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_status_json(example: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    write_item(example, "memory-weaver", "2026-01-05T10-00-00-000Z-k3j9.pending", "job")
    write_state(
        example, "memory-weaver", PartitionState(last_result="error", consecutive_failures=2)
    )
    broken = example.subconscious_dir / "broken"
    broken.mkdir()
    (broken / "CLAUDE.md").write_text("---\nschedule: [\n---\n")
    assert main(run(example, "status", "--json")) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["kernel"]["exists"] and status["runtime"]["exists"]
    names = [p["name"] for p in status["partitions"]]
    assert names == ["broken", "memory-weaver", "pattern-tracker"]
    assert status["partitions"][0]["error"]
    weaver = status["partitions"][1]
    assert weaver["contract"] == "valid" and "scan-gap.v1" in weaver["consumes"]
    assert status["inboxes"]["memory-weaver"]["items"] == ["2026-01-05T10-00-00-000Z-k3j9.pending"]
    assert status["last_runs"]["memory-weaver"]["consecutive_failures"] == 2
    assert status["gap"]["date"] == "2026-01-05"
    assert status["tick"] is None
    contracts = {p["name"]: p for p in status["memory_check"]["partitions"]}
    assert contracts["pattern-tracker"]["consumes"] == [
        "node-converge.v1",
        "orphan-newborn.v1",
        "revise.v1",
    ]
    assert contracts["broken"]["contract"] == "parse-fail"


def test_status_text_on_empty_roots(paths: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(run(paths, "status")) == 0
    out = capsys.readouterr().out
    assert f"kernel: {paths.kernel}" in out
    assert "partitions:\n  (none)" in out
    assert "gap: none — all external days dreamt" in out


def test_check_waits_for_the_kernel_lock_and_gives_up_with_exit_3(
    example: KernelPaths,
    redis_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from shared.kernel.lock.factory import open_kernel_lock
    from shared.settings import Settings

    monkeypatch.setenv("SUBCON_REDIS_URL", redis_url)
    monkeypatch.setenv("SUBCON_LOCK_WAIT_SECONDS", "0")
    settings = Settings(kernel_dir=example.kernel, runtime_dir=example.runtime, redis_url=redis_url)
    with open_kernel_lock(settings, example).hold("someone-else", wait=0):
        assert main(run(example, "check")) == 3
    assert not example.inbox_dir("memory-weaver").exists()
    assert main(run(example, "check", "--dry-run")) == 0  # dry run takes no lock


def test_status_reads_the_tick_mirror(
    paths: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    (paths.subcon_state_dir).mkdir(parents=True)
    (paths.subcon_state_dir / "tick.json").write_text('{\n  "tick": 7\n}\n')
    assert main(run(paths, "status", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["tick"] == 7


def _break_prompts(paths: KernelPaths) -> tuple[str, str]:
    weaver = paths.partition_prompt("memory-weaver")
    text = weaver.read_text()
    assert text.startswith("---\n")
    weaver.write_text("--\n" + text[4:])  # a mistyped opener
    tracker = paths.partition_prompt("pattern-tracker")
    tracker.write_text('---\ncontract:\n  partition: pattern-tracker\nkey: "open\n---\nbody\n')
    return f"{weaver}:1: front matter opener is '--'", f"{tracker}:"


def test_check_names_unreadable_partitions_and_exits_1(
    example: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    weaver_reason, tracker_reason = _break_prompts(example)
    assert main(run(example, "check")) == 1
    out = capsys.readouterr().out
    assert f"partition memory-weaver not runnable: {weaver_reason}" in out
    assert f"partition pattern-tracker not runnable: {tracker_reason}" in out
    assert "front matter YAML" in out
    assert main(run(example, "check", "--json", "--dry-run")) == 1
    report = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in report["unreadable_partitions"]] == [
        "memory-weaver",
        "pattern-tracker",
    ]
    assert report["posted"] == []  # parse-fail contracts accept nothing


def test_status_shows_unreadable_partitions_as_not_runnable(
    example: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    weaver_reason, _ = _break_prompts(example)
    assert main(run(example, "status")) == 0
    out = capsys.readouterr().out
    assert "memory-weaver: NOT RUNNABLE, contract parse-fail" in out
    assert f"cannot be read: {weaver_reason}" in out
    assert "memory-weaver: enabled" not in out and "pattern-tracker: enabled" not in out
    assert main(run(example, "status", "--json")) == 0
    parts = {p["name"]: p for p in json.loads(capsys.readouterr().out)["partitions"]}
    assert parts["memory-weaver"]["runnable"] is False
    assert parts["pattern-tracker"]["runnable"] is False


def test_check_exits_0_when_every_partition_reads(
    example: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(run(example, "check", "--dry-run", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["unreadable_partitions"] == []
