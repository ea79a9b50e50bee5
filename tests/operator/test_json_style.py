"""One JSON style: every ``--json`` prints exactly one pretty JSON document on stdout,
with snake_case keys, except where an output mirrors the original's own JSON
(``check``: ``memoryDir``, ``dryRun``, docs/formats.md §8.1)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from shared.kernel.paths import KernelPaths
from workers.cli import main

# Keys the original runtime's own JSON spells this way (README: Commands); a tick
# report embeds the memory check's report as ``memory_check``.
MIRRORED = {"check": {"memoryDir", "dryRun"}, "tick": {"memoryDir", "dryRun"}}
CAMEL = re.compile(r"[a-z][A-Z]")


def keys(value: Any) -> set[str]:
    """Every object key, recursively; keys that are data (paths, slugs) are skipped."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, child in value.items():
            if not any(c in key for c in "/.-:[ "):
                found.add(key)
            found |= keys(child)
    elif isinstance(value, list):
        for child in value:
            found |= keys(child)
    return found


COMMANDS = [
    ("status",),
    ("gap", "--dry-run"),
    ("check", "--dry-run"),
    ("scan", "--date", "2026-01-04"),
    ("weave", "--no-commit"),
    ("commit", "--dry-run"),
    ("tick",),
    ("audit",),
    ("enqueue", "--partition", "memory-weaver", "[memory:claude-lint] check pointers"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_json_output_is_one_snake_case_document(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    root = ["--kernel", str(demo.kernel), "--runtime", str(demo.runtime)]
    assert main([*root, *args, "--json"]) in (0, 1)
    out = capsys.readouterr().out
    doc = json.loads(out)  # the whole of stdout is one document
    assert out == json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    camel = {k for k in keys(doc) if CAMEL.search(k)} - MIRRORED.get(args[0], set())
    assert camel == set(), camel


def test_review_json_is_one_pretty_array(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "--json", str(demo.board)]) in (0, 1)
    out = capsys.readouterr().out
    rows = json.loads(out)
    assert isinstance(rows, list) and out == json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    assert not {k for k in keys(rows) if CAMEL.search(k)}


def test_init_json_is_one_snake_case_document(
    paths: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    root = ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime)]
    assert main([*root, "init", "--json"]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert out == json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    assert not {k for k in keys(doc) if CAMEL.search(k)}
