"""Helpers of the hostile-input tests: event builders, a demo kernel copy, a whole
embedded pass, and the containment check for fragment files."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from shared.kernel.paths import KernelPaths
from shared.settings import Settings
from testing.kernels import copy_roots
from tests.faults.harness import WEAVER
from workers.embedded import run_partition

DATE = "2026-02-03"
DATE_RE = r"\d{4}-\d{2}-\d{2}"
MAX_LINE = 4 * 1024 * 1024


def event(text: str, **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": "channel.message",
        "source": {"kind": "stdio", "name": "stdio-default", "channel_id": "stdio-default"},
        "session_key": "stdio:default:28d3ca682f86",
        "payload": {"text": text},
        "id": "evt_2f45c67f-9337-440d-98c4-3f5b8de55d78",
        "ts": f"{DATE}T09:12:33.123Z",
    }
    base.update(over)
    return base


def line_of(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def fresh(demo_base: KernelPaths, root: Path) -> KernelPaths:
    if root.exists():
        shutil.rmtree(root)
    return copy_roots(demo_base, root)


def pass_over(paths: KernelPaths, interval: str = "20260203[00,23]") -> dict[str, Any]:
    """A whole embedded weaver pass over ``interval`` (file lock, no broker).

    The day counts as covered already (its fragments dir exists), so an operator
    interval writes its fragments instead of deferring them.
    """
    (paths.fragments_dir / DATE).mkdir(parents=True, exist_ok=True)
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    return run_partition(settings, WEAVER, interval=interval, commit=False)


def assert_fragments_contained(paths: KernelPaths) -> int:
    """Every fragment is a plain file directly inside ``fragments/<YYYY-MM-DD>/``."""
    count = 0
    root = paths.fragments_dir
    for dirpath, dirs, files in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        assert len(rel.parts) <= 1, f"nested directory {rel}"
        if rel.parts:
            assert re.fullmatch(DATE_RE, rel.parts[0]), rel
        else:
            assert all(re.fullmatch(DATE_RE, d) for d in dirs), dirs
            assert not files, f"files directly under fragments/: {files}"
        for name in files:
            assert "/" not in name and "\0" not in name and "\n" not in name
            assert not (Path(dirpath) / name).is_symlink()
            count += 1
    return count
