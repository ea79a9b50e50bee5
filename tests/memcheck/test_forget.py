"""Forget that sticks (issue #30 item 4): stale orphan nodes that were warnable are
removed in one commit by the committer, audited, by the tick's memory check or by
``subcon reclaim``, and a forgotten node is not asked for again without new evidence."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from shared.memcheck.check import run_memory_check
from shared.memcheck.forget import pending_forgets, tombstones
from shared.settings import Settings
from shared.setup.bootstrap import init_kernel
from workers.cli import main
from workers.embedded import run_partition

NODE = "---\noccurrences: 1\n---\n# Topic: {slug}\n\n## Condition\n\nx\n\n## Procedure\n\ny\n"
OLD = time.time() - 7 * 24 * 3600


def _git(paths: KernelPaths, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(paths.kernel), *args], capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture
def kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KernelPaths:
    for name in ("SUBCON_BROKER_URL", "SUBCON_REDIS_URL", "SUBCON_RESULT_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(paths, demo=True, force=False)
    _git(paths, "checkout", "--", "memory/CLAUDE.md")  # drop the demo's rejected lines
    paths.topics_dir.mkdir(parents=True, exist_ok=True)
    nodes = {
        "topic-old-stale": OLD,  # unreachable, unlinked, a week old: forgotten
        "topic-new-orphan": time.time(),  # newborn: warned about, kept
        "topic-island": OLD,  # linked from another node: an island, kept
        "topic-linker": OLD,  # links the island; itself stale
    }
    for slug in nodes:
        text = NODE.format(slug=slug)
        if slug == "topic-linker":
            text += "\nSee [[topic-island]].\n"
        node = paths.topics_dir / f"{slug}.md"
        node.write_text(text, encoding="utf-8")
    _git(paths, "add", "-A")
    _git(paths, "commit", "-q", "-m", "nodes")
    for slug, mtime in nodes.items():
        os.utime(paths.topics_dir / f"{slug}.md", (mtime, mtime))
    return paths


def _settings(paths: KernelPaths, **extra: object) -> Settings:
    return Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime, **extra)  # type: ignore[arg-type]


def test_without_the_setting_nothing_is_forgotten(kernel: KernelPaths) -> None:
    report = run_memory_check(kernel, _settings(kernel, memory_check=True))
    assert report.forgotten == [] and (kernel.topics_dir / "topic-old-stale.md").exists()


def test_the_tick_forgets_stale_orphans_and_the_committer_removes_them_in_one_commit(
    kernel: KernelPaths,
) -> None:
    settings = _settings(kernel, memory_check=True, forget=True)
    report = run_memory_check(kernel, settings)
    assert sorted(report.forgotten) == [
        "memory/topics/topic-linker.md",
        "memory/topics/topic-old-stale.md",
    ]
    assert (kernel.topics_dir / "topic-new-orphan.md").exists()
    assert (kernel.topics_dir / "topic-island.md").exists()
    assert set(pending_forgets(kernel)) == set(report.forgotten)
    before = _git(kernel, "rev-parse", "HEAD").strip()
    committed = run_partition(settings, "memory-committer")
    assert committed["outcome"] == "committed"
    assert _git(kernel, "rev-list", "--count", f"{before}..HEAD").strip() == "1"
    assert _git(kernel, "log", "-1", "--format=%s") == "forget: 2 stale orphan memory nodes\n"
    removed = _git(kernel, "show", "--name-status", "--format=", "HEAD").split("\n")
    assert sorted(r for r in removed if r) == [
        "D\tmemory/topics/topic-linker.md",
        "D\tmemory/topics/topic-old-stale.md",
    ]
    assert _git(kernel, "status", "--porcelain") == ""  # nothing left staged or deleted
    audit = [
        json.loads(line)
        for p in kernel.audit_dir.glob("*.jsonl")
        for line in p.read_text(encoding="utf-8").splitlines()
    ]
    reasons = {r.get("file"): r.get("reason") for r in audit if r["decision"] == "committed"}
    assert reasons["memory/topics/topic-old-stale.md"] == "forget: stale orphan never linked"
    assert pending_forgets(kernel) == {}
    assert set(tombstones(kernel)) == {"topic-old-stale", "topic-linker"}


def test_reclaim_by_hand_dry_run_then_for_real(
    kernel: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--kernel", str(kernel.kernel), "--runtime", str(kernel.runtime), "reclaim"]
    assert main([*base, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would forget memory/topics/topic-old-stale.md" in out
    assert (kernel.topics_dir / "topic-old-stale.md").exists()
    assert main(base) == 0
    out = capsys.readouterr().out
    assert "forgot memory/topics/topic-old-stale.md" in out
    assert _git(kernel, "log", "-1", "--format=%s").startswith("forget: ")
    assert not (kernel.topics_dir / "topic-old-stale.md").exists()
    # The island lost its only link with the linker: stale now, forgotten on the next run.
    assert main(base) == 0
    assert "forgot memory/topics/topic-island.md" in capsys.readouterr().out
    assert _git(kernel, "log", "-1", "--format=%s") == (
        "forget: topic-island, stale orphan never linked\n"
    )
    assert main(base) == 0
    assert "nothing to forget" in capsys.readouterr().out
    assert (kernel.topics_dir / "topic-new-orphan.md").exists()  # newborn: kept


def test_a_forgotten_node_is_asked_for_again_only_on_newer_evidence(kernel: KernelPaths) -> None:
    from shared.formats.effectiveness import Candidate, Sample
    from shared.kernel.lock.factory import open_kernel_lock
    from shared.memcheck.forget import TOMBSTONES_FILE
    from shared.weaver.crystallize.promotion import post_node_create

    settings = _settings(kernel, promotion_threshold=2)
    kernel.state_dir.mkdir(parents=True, exist_ok=True)
    (kernel.state_dir / TOMBSTONES_FILE).write_text(
        json.dumps({"groove-run-ruff": "2026-01-06T12:00:00.000Z"}), encoding="utf-8"
    )

    def candidate(*stamps: str) -> Candidate:
        samples = tuple(
            Sample(f"memory/fragments/2026-01-06/{s}_evt_{i}_instruction_none_NEW_SIGNAL.md", "x")
            for i, s in enumerate(stamps)
        )
        return Candidate("run-ruff", "instruction", "before commit", "run ruff", samples)

    with open_kernel_lock(settings, kernel).hold("test") as lease:
        old = candidate("2026-01-06T09-00-00-000Z", "2026-01-06T10-00-00-000Z")
        assert post_node_create(kernel, settings, [old], lease) == []
        new = candidate("2026-01-06T10-00-00-000Z", "2026-01-06T13-00-00-000Z")
        assert post_node_create(kernel, settings, [new], lease) == [
            "node-create-groove-run-ruff.pending"
        ]
