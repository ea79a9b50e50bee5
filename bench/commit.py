"""Committer benchmarks: review throughput and a 1,000-file wake vs plain git.

    python bench/commit.py [--quick] [--json]

Prints one row per measurement; ``--json`` prints a list of
``{"name", "value", "unit", "target", "met"}``. The workload generators
(:func:`board_lines`, :func:`dossier_text`, :func:`seed_kernel`,
:func:`write_changed_dossiers`) are importable for ``bench/run.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shared.committer.run import run_committer  # noqa: E402
from shared.kernel.git import run_git  # noqa: E402
from shared.kernel.lock.file_lock import FileKernelLock  # noqa: E402
from shared.kernel.paths import KernelPaths  # noqa: E402
from shared.review.allowlist import FileKind  # noqa: E402
from shared.review.reviewer import review_text  # noqa: E402
from shared.settings import Settings  # noqa: E402

_TRIGGERS = [
    "When <Person> asks for a status update",
    "If a deploy to staging fails",
    "Before sending a contract draft",
    "With <Person>, when a reply would start with filler",
    "每当用户纠正术语时",
    "当用户发来报错截图时",
]
_DIRECTIONS = [
    "open with the blocker and its owner",
    "quote the failing frame first and propose one fix",
    "confirm the clause numbering against the template",
    "lead with the answer and keep courtesy to the close",
    "先按纠正后的说法复述再回答",
    "先读取错误信息再给出修复步骤",
]
_NOISE = [
    "The memory board is concise and durable.",
    "<Person> prefers concise responses.",
    "The latest run completed and the queue is clear.",
    "用户喜欢简洁的回答。",
]


def board_lines(n: int, seed: int = 7) -> list[str]:
    """``n`` board bullets, mostly gradients, some rejects, English and Chinese."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if rng.random() < 0.2:
            out.append(f"- {rng.choice(_NOISE)}")
        else:
            trig, direction = rng.choice(_TRIGGERS), rng.choice(_DIRECTIONS)
            sep = "，" if trig[-1] == "时" else ", "
            out.append(f"- {trig}{sep}{direction} [[lesson-{i}]]")
    return out


def dossier_text(slug: str, seed: int = 7, revision: int = 0) -> str:
    """An entity dossier in the four-section shape with modal tags."""
    rng = random.Random(f"{seed}:{slug}:{revision}")
    city = rng.choice(["Berlin", "Shanghai", "Austin", "Lyon"])
    return (
        f"# {slug}\n\n## What it is now\n\n"
        f"- [observation] {slug} is a logistics customer based in {city} (rev {revision}).\n"
        f"- [inference] {slug} will likely expand to {rng.randint(2, 9)} new sites.\n\n"
        "## Relationship / stance\n\n- [observation] We own their onboarding.\n\n"
        "## Open variables\n\n- [hypothesis (unratified)] Budget depends on Q3 results.\n\n"
        f"## Trend\n\n- [observation] Volume up {rng.randint(1, 40)}% quarter on quarter.\n"
    )


def seed_kernel(root: Path, files: int, seed: int = 7) -> KernelPaths:
    """A kernel git repo at ``root/kernel`` with ``files`` committed dossiers."""
    paths = KernelPaths(kernel=root / "kernel", runtime=root / "runtime")
    paths.kernel.mkdir(parents=True)
    paths.runtime.mkdir(parents=True)
    run_git(paths.kernel, "init", "-q", "-b", "main")
    for i in range(files):
        target = paths.entities_dir / f"e{i:04d}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dossier_text(f"e{i:04d}", seed), encoding="utf-8")
    run_git(paths.kernel, "add", "-A")
    run_git(paths.kernel, "commit", "-q", "-m", "memory: genesis")
    return paths


def write_changed_dossiers(paths: KernelPaths, files: int, seed: int = 7) -> None:
    """Rewrite ``files`` dossiers with new content (a real, non-trivial change)."""
    for i in range(files):
        target = paths.entities_dir / f"e{i:04d}.md"
        target.write_text(dossier_text(f"e{i:04d}", seed, revision=1), encoding="utf-8")


# Issue #30: a cold pass of the gates, the precedent judge included, over a board.
REVIEW_TARGET = 5000.0  # lines/s


def bench_review(lines: int) -> dict[str, Any]:
    text = "# Intuition\n\n" + "\n".join(board_lines(lines)) + "\n"
    start = time.perf_counter()
    decisions = review_text("memory/CLAUDE.md", FileKind.BOARD, text)
    elapsed = time.perf_counter() - start
    assert len(decisions) == lines
    rate = lines / elapsed
    return _row("review_throughput", rate, "lines/s", REVIEW_TARGET, rate >= REVIEW_TARGET)


def _wake_once(files: int, plain_first: bool = False) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        a = seed_kernel(Path(tmp) / "a", files)
        b = seed_kernel(Path(tmp) / "b", files)
        write_changed_dossiers(a, files)
        write_changed_dossiers(b, files)
        settings = Settings(kernel_dir=a.kernel, runtime_dir=a.runtime)

        def wake_side() -> float:
            start = time.perf_counter()
            report = run_committer(a, settings, lock=FileKernelLock(a.file_lock), tick=1)
            took = time.perf_counter() - start
            assert report.outcome == "committed" and len(report.files) == files, report.text
            return took

        def plain_side() -> float:
            start = time.perf_counter()
            run_git(b.kernel, "add", "--", "memory/entities")
            run_git(b.kernel, "commit", "-q", "-m", "plain")
            return time.perf_counter() - start

        # Flush the set-up's dirty pages first, so neither side pays the other's
        # writeback; alternating which side goes first cancels what remains.
        os.sync()
        if plain_first:
            plain = plain_side()
            os.sync()
            wake = wake_side()
        else:
            wake = wake_side()
            os.sync()
            plain = plain_side()
    return wake, plain


def bench_wake(files: int, repeat: int = 3) -> list[dict[str, Any]]:
    """A committer wake over ``files`` rewritten dossiers vs ``git add`` + ``git commit``
    of the same files in an identical repo; best of ``repeat`` runs each (noise on a
    shared machine only ever adds time)."""
    runs = [_wake_once(files, plain_first=i % 2 == 1) for i in range(repeat)]
    wake = min(w for w, _ in runs)
    plain = min(p for _, p in runs)
    ratio = wake / plain
    return [
        _row(f"wake_{files}_dossiers", wake * 1000, "ms", None, True),
        _row(f"plain_git_{files}_dossiers", plain * 1000, "ms", None, True),
        _row("wake_vs_plain_git_ratio", ratio, "x", 2.0, ratio < 2.0),
    ]


def _row(name: str, value: float, unit: str, target: float | None, met: bool) -> dict[str, Any]:
    return {"name": name, "value": round(value, 3), "unit": unit, "target": target, "met": met}


def run(quick: bool = False) -> list[dict[str, Any]]:
    """All committer measurements (smaller workloads with ``quick``)."""
    rows = [bench_review(500 if quick else 5000)]
    rows += bench_wake(200, repeat=1) if quick else bench_wake(1000, repeat=3)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads")
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    args = parser.parse_args(argv)
    rows = run(args.quick)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            target = "" if r["target"] is None else f" (target {r['target']}, met={r['met']})"
            print(f"{r['name']}: {r['value']} {r['unit']}{target}")
    return 0 if all(r["met"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
