"""A spine file not named ``YYYY-MM-DD.jsonl`` is still not read as a day, but ``check``
and ``status`` now say so, naming the file and the name it should have (issue #32, low)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.kernel.paths import KernelPaths
from workers.cli import main

SHAPE = "day files are named YYYY-MM-DD.jsonl"


def cli(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def misplace(demo: KernelPaths) -> None:
    """Two misnamed files: a date written without zero padding, and a non-date."""
    first = sorted(demo.events_dir.glob("*.jsonl"))[0]
    (demo.events_dir / "2026-1-2.jsonl").write_bytes(first.read_bytes())
    (demo.events_dir / "notes\n.jsonl").write_text("{}\n", encoding="utf-8")


def without_misnamed(doc: dict[str, Any]) -> dict[str, Any]:
    spine = dict(doc["spine"])
    spine.pop("misnamed")
    return {**doc, "spine": spine}


@pytest.mark.parametrize("args", [("check", "--dry-run"), ("status",)], ids=["check", "status"])
def test_misnamed_spine_files_are_named_in_a_warning(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code = cli(demo, *args)
    before = capsys.readouterr().out
    assert SHAPE not in before
    misplace(demo)
    assert cli(demo, *args) == code  # the exit code does not change
    out = capsys.readouterr().out
    warnings = [line for line in out.splitlines() if line.startswith("warning: ")]
    assert warnings == [
        "warning: var/events/2026-1-2.jsonl is not read as a spine day: day files are named "
        "YYYY-MM-DD.jsonl (UTC date, zero-padded); rename it to 2026-01-02.jsonl",
        "warning: var/events/notes\\n.jsonl is not read as a spine day: day files are named "
        "YYYY-MM-DD.jsonl (UTC date, zero-padded)",
    ]
    # Nothing else changes: the same lines, plus the warnings.
    assert [line for line in out.splitlines() if not line.startswith("warning: ")] == (
        before.splitlines()
    )


def test_misnamed_files_are_listed_in_json_and_still_not_read(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(demo, "check", "--dry-run", "--json") == 0
    before = json.loads(capsys.readouterr().out)
    assert before["spine"]["misnamed"] == []
    misplace(demo)
    assert cli(demo, "check", "--dry-run", "--json") == 0
    after = json.loads(capsys.readouterr().out)
    assert after["spine"]["misnamed"] == [
        {"file": "var/events/2026-1-2.jsonl", "rename_to": "2026-01-02.jsonl"},
        {"file": "var/events/notes\n.jsonl", "rename_to": None},
    ]
    assert without_misnamed(after) == without_misnamed(before)
    assert cli(demo, "status", "--json") == 0
    status = json.loads(capsys.readouterr().out)
    assert [m["file"] for m in status["spine"]["misnamed"]] == [
        "var/events/2026-1-2.jsonl",
        "var/events/notes\n.jsonl",
    ]
    assert status["gap"] is None or status["gap"]["date"] != "2026-01-02"
