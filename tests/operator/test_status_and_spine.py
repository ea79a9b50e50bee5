"""`status` roots, manual runs and escaped names; malformed spine lines in every reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from workers.cli import main


def cli(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def test_status_on_a_missing_kernel_exits_2_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = KernelPaths(kernel=tmp_path / "nope", runtime=tmp_path / "rt")
    assert cli(missing, "status") == 2
    err = capsys.readouterr()
    assert "gap: none" not in err.out
    assert f"kernel dir {missing.kernel} does not exist" in err.err and "init" in err.err


def test_status_on_a_missing_runtime_exits_2(
    paths: KernelPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = KernelPaths(kernel=paths.kernel, runtime=tmp_path / "no-runtime")
    assert cli(gone, "status") == 2
    assert "SUBCON_RUNTIME_DIR" in capsys.readouterr().err


def test_status_lists_manual_runs(demo: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(demo, "status", "--json") == 0
    assert json.loads(capsys.readouterr().out)["manual_runs"] == {}
    assert cli(demo, "weave", "--no-commit") == 0
    assert cli(demo, "commit") == 0
    capsys.readouterr()
    assert cli(demo, "status") == 0
    out = capsys.readouterr().out.splitlines()
    weaver = out.index(next(x for x in out if x.startswith("  memory-weaver: ")))
    committer = out.index(next(x for x in out if x.startswith("  memory-committer: ")))
    assert out[weaver + 1].startswith("    last manual run: NO_NEW_GRADIENT: at 20")
    assert out[committer + 1].startswith("    last manual run: committed at 20")
    assert cli(demo, "status", "--json") == 0
    manual = json.loads(capsys.readouterr().out)["manual_runs"]
    assert manual["memory-committer"]["result"] == "committed"


def test_status_prints_odd_names_escaped(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    inbox = demo.inbox_dir("memory-weaver")
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / "a\ngap: none — forged.pending").write_text("x\n", "utf-8")
    assert cli(demo, "status") == 0
    out = capsys.readouterr().out
    assert "    a\\ngap: none — forged.pending" in out
    assert "gap: none — forged.pending" not in out.splitlines()


DAY = "2026-02-01"


@pytest.fixture
def spiny(paths: KernelPaths) -> KernelPaths:
    """A kernel whose only spine day has two malformed lines, at lines 2 and 4."""
    from shared.setup.bootstrap import init_kernel
    from shared.spine.writer import append_event

    init_kernel(paths, demo=False, force=False)
    for n, hour in enumerate((3, 3, 9)):
        append_event(
            paths,
            {
                "type": "channel.message",
                "source": {"kind": "feishu"},
                "session_key": "lark:a:b",
                "payload": {"text": f"message {n}"},
                "ts": f"{DAY}T{hour:02d}:00:0{n}.000Z",
            },
        )
    day = paths.day_file(DAY)
    lines = day.read_bytes().splitlines(keepends=True)
    day.write_bytes(lines[0] + b'{"type": "channel.mess\n' + lines[1] + b"[1]\n" + lines[2])
    return paths


def where(paths: KernelPaths, line: int) -> str:
    return f"{paths.day_file(DAY)}:{line}"


def test_gap_reports_malformed_lines(
    spiny: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(spiny, "gap", "--dry-run") == 0
    out = capsys.readouterr().out
    (summary,) = [x for x in out.splitlines() if x.startswith("malformed spine lines skipped")]
    assert summary.startswith(f"malformed spine lines skipped: 2 (first: {where(spiny, 2)}: ")
    assert summary.endswith("(-v or --json lists them)")
    assert cli(spiny, "gap", "--dry-run", "-v") == 0
    listed = [x.strip() for x in capsys.readouterr().out.splitlines() if x.startswith("  /")]
    assert [x.split(": ", 1)[0] for x in listed] == [where(spiny, 2), where(spiny, 4)]
    assert cli(spiny, "gap", "--dry-run", "--json") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["malformed_count"] == 2 and len(doc["malformed"]) == 2
    # a second run answers from the gap cache and still reports them
    assert cli(spiny, "gap", "--dry-run", "--json") == 0
    assert json.loads(capsys.readouterr().out)["malformed"] == doc["malformed"]


def test_check_and_status_report_malformed_lines(
    spiny: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(spiny, "check") in (0, 1)
    out = capsys.readouterr().out
    assert f"malformed spine lines skipped: 2 (first: {where(spiny, 2)}: " in out
    assert cli(spiny, "check", "--json", "--dry-run") in (0, 1)
    assert json.loads(capsys.readouterr().out)["spine"]["malformed_count"] == 2
    assert cli(spiny, "status", "-v") == 0
    out = capsys.readouterr().out
    assert "malformed spine lines skipped: 2" in out
    assert f"  {where(spiny, 4)}: not a JSON object" in out
    assert cli(spiny, "status", "--json") == 0
    assert json.loads(capsys.readouterr().out)["spine"]["malformed_count"] == 2


def test_weave_reports_the_malformed_lines_its_scan_skipped(
    spiny: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(spiny, "check") in (0, 1)
    capsys.readouterr()
    assert cli(spiny, "weave", "--no-commit", "-v") == 0
    out = capsys.readouterr().out
    # the scan reads only the hour bands with external events: line 2 lies in band 03
    assert f"malformed spine lines skipped: 1 (first: {where(spiny, 2)}: " in out
    assert f"  {where(spiny, 2)}: invalid JSON" in out
    assert cli(spiny, "weave", "--no-commit", "--json") == 0
    assert "read_stats" in json.loads(capsys.readouterr().out)


def test_spine_read_reports_malformed_lines_on_stderr(
    spiny: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(spiny, "spine", "read", "20260201[00,23]") == 0
    captured = capsys.readouterr()
    assert len([json.loads(x) for x in captured.out.splitlines()]) == 3
    assert captured.err.startswith(f"malformed spine lines skipped: 2 (first: {where(spiny, 2)}: ")
    assert cli(spiny, "spine", "read", "20260201[00,23]", "-v") == 0
    err = capsys.readouterr().err.splitlines()
    assert err[2].startswith(f"  {where(spiny, 4)}: ")
