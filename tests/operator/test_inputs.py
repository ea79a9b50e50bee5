"""Input handling an operator meets: spine append flags, inbox names, review kinds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from workers.cli import main


def cli(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def _subcon(paths: KernelPaths, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "workers.cli",
            "--kernel",
            str(paths.kernel),
            "--runtime",
            str(paths.runtime),
            *args,
        ],
        stdin=subprocess.PIPE,  # open and never written: a read would block forever
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.parametrize(
    ("args", "missing"),
    [
        (("--text", "hi"), "missing --type and --kind"),
        (("--type", "channel.message", "--text", "hi"), "missing --kind"),
        ((), "missing --type and --kind"),
    ],
)
def test_spine_append_never_waits_on_stdin(
    paths: KernelPaths, args: tuple[str, ...], missing: str
) -> None:
    proc = _subcon(paths, "spine", "append", *args)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 2
    assert missing in err and "`-`" in err
    assert not paths.events_dir.exists()


def test_spine_append_dash_reads_stdin(paths: KernelPaths) -> None:
    proc = _subcon(paths, "spine", "append", "-", "--json")
    out, err = proc.communicate('{"type":"channel.message","source":{"kind":"stdio"}}', 30)
    assert proc.returncode == 0, err
    assert json.loads(out)["type"] == "channel.message"


def test_spine_append_dash_and_flags_is_refused(
    paths: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(paths, "spine", "append", "-", "--type", "x", "--kind", "y") == 2
    assert "not both" in capsys.readouterr().err


def test_a_colon_name_is_refused_by_enqueue_and_never_acked_by_the_weaver(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    from shared.partitions.inbox import name_problem

    assert (
        cli(
            demo,
            "enqueue",
            "--partition",
            "memory-weaver",
            "--name",
            "bad:name.pending",
            "[memory:claude-lint] check the board",
        )
        == 2
    )
    refused = capsys.readouterr().err
    reason = name_problem("bad:name.pending")
    assert reason is not None and reason in refused
    inbox = demo.inbox_dir("memory-weaver")
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / "bad:name.pending").write_text("[memory:claude-lint] check the board\n", "utf-8")
    assert cli(demo, "weave", "--no-commit", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert (inbox / "bad:name.pending").exists()  # the same rule: not processed, not acked
    assert report["directed"] is None
    assert any(
        n.startswith("bad:name.pending: the item name") and reason in n for n in report["notes"]
    )
    assert "bad:name.pending" in report["pending"]


def test_review_says_which_kind_it_applied_and_as_overrides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = "- Alice prefers concise responses.\n"
    lines_md = tmp_path / "lines.md"
    lines_md.write_text(line, "utf-8")
    board = tmp_path / "memory" / "CLAUDE.md"
    board.parent.mkdir()
    board.write_text(line, "utf-8")
    assert main(["review", str(lines_md), str(board)]) == 1
    out = capsys.readouterr().out
    assert f"{lines_md}: reviewed as dossier (from its path): 1 approved, 0 rejected" in out
    assert f"{board}: reviewed as board (from its path): 0 approved, 1 rejected" in out
    assert main(["review", "--as", "board", str(lines_md)]) == 1
    out = capsys.readouterr().out
    assert f"{lines_md}: reviewed as board (--as): 0 approved, 1 rejected" in out
    assert main(["review", "--as", "dossier", "--json", str(board)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and [(r["kind"], r["decision"]) for r in rows] == [
        ("dossier", "approve")
    ]
    assert main(["review", "--help"]) == 0
    assert "one JSON array" in capsys.readouterr().out
