"""Scan benchmark: the weaver's scanner (judgement included) vs a bare orjson loop.

    python bench/scan.py [--quick] [--json]

The scan is what one weaver pass does with a day before it writes anything: plan the
day's slices, read each slice's turns (``read_slice_turns``, what a scan worker runs),
merge them in file order and judge every turn against a 100-line board
(``scan_turns``, what crystallize runs). Target: at most 3x the bare loop's time over
the same file. Both sides are interleaved and best-of-N so they see the same load.
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.conversation import board_bullets  # noqa: E402
from bench.spine import metric  # noqa: E402
from bench.workloads import write_spine_day  # noqa: E402
from shared.constants import INTERNAL_KINDS  # noqa: E402
from shared.formats.board import Board, parse_board  # noqa: E402
from shared.kernel.paths import KernelPaths  # noqa: E402
from shared.language.text import token_set  # noqa: E402
from shared.settings import Settings  # noqa: E402
from shared.spine.interval import Band  # noqa: E402
from shared.spine.reader import ReadStats  # noqa: E402
from shared.spine.slices import plan_slices  # noqa: E402
from shared.weaver.scan.judge import JudgeContext  # noqa: E402
from shared.weaver.scan.scanner import read_slice_turns, scan_turns  # noqa: E402
from shared.weaver.scan.turns import Turn, order_turns  # noqa: E402

DAY = "2026-01-05"
MB = 1024 * 1024
BOARD_LINES = 100


@dataclass(frozen=True)
class ScanWorkload:
    """A kernel/runtime pair with one spine day and a board of ``BOARD_LINES`` lines."""

    paths: KernelPaths
    settings: Settings
    board: Board
    date: str
    events: int

    @property
    def day_file(self) -> Path:
        return self.paths.day_file(self.date)


def board_text(lines: int = BOARD_LINES, seed: int = 7) -> str:
    """A board (``memory/CLAUDE.md`` text) of ``lines`` bullets, English and Chinese,
    each about its own subject (the subjects the day's messages are drawn from)."""
    return "# Intuition\n\n" + "\n".join(board_bullets(lines, seed)) + "\n"


def make_workload(root: Path, day_bytes: int, seed: int = 7, date: str = DAY) -> ScanWorkload:
    """Write a day of about ``day_bytes`` and a 100-line board under ``root``."""
    paths = KernelPaths(kernel=root / "kernel", runtime=root / "runtime")
    events = write_spine_day(paths.day_file(date), date, int(day_bytes), seed)
    text = board_text(BOARD_LINES, seed)
    paths.board.parent.mkdir(parents=True, exist_ok=True)
    paths.board.write_text(text, encoding="utf-8")
    settings = Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime)
    return ScanWorkload(paths, settings, parse_board(text), date, events)


def bare_loop(path: Path) -> int:
    """The floor: ``orjson.loads`` of every line, nothing else. Returns the line count."""
    n = 0
    with open(path, "rb") as handle:
        for line in handle:
            orjson.loads(line)
            n += 1
    return n


def floor_turns(path: Path) -> list[tuple[str, list[Any]]]:
    """The least a scan can do in Python: the bare loop plus the source gate and one
    session lookup per event, keeping each origin's text and its rows' payloads by
    reference (no text built, no malformed-line accounting, no slices)."""
    loads = orjson.loads
    internal = INTERNAL_KINDS
    open_turns: dict[str, list[Any]] = {}
    turns: list[tuple[str, list[Any]]] = []
    with open(path, "rb") as handle:
        for line in handle:
            event = loads(line)
            source = event.get("source")
            kind = source.get("kind") if type(source) is dict else None
            key = event.get("session_key")
            if kind and kind not in internal:
                payload = event.get("payload") or {}
                rows: list[Any] = []
                turns.append((payload.get("text") or payload.get("result_summary") or "", rows))
                if key:
                    open_turns[key] = rows
            elif key in open_turns:
                open_turns[key].append(event.get("payload"))
    return turns


def floor_scan(path: Path) -> int:
    """:func:`floor_turns` plus tokenising each turn's text once: a lower bound for any
    judge that reads words (no markers, no board lookups, no fragments)."""
    return sum(len(token_set(text)) for text, _ in floor_turns(path))


def read_turns(w: ScanWorkload) -> list[Turn]:
    """Plan the whole day's slices and read every slice's turns (the scan tasks' work)."""
    limit = w.settings.max_line_bytes
    slices = plan_slices(
        w.paths, [Band(w.date, 0, 23)], w.settings.scan_slice_events, max_line_bytes=limit
    )
    return order_turns(read_slice_turns(w.paths, s, ReadStats(), limit) for s in slices)


def scan_day(w: ScanWorkload) -> tuple[int, int]:
    """Read and judge the whole day; returns (turns, fragments)."""
    turns = read_turns(w)
    return len(turns), len(scan_turns(w.board, turns, JudgeContext()))


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bench_scan(w: ScanWorkload, repeat: int) -> list[dict[str, Any]]:
    """Interleaved best-of-``repeat``: the bare loop, then the scan (turn reading, then
    judging those turns; the scan's time is their sum within one repeat)."""
    bare_s = read_s = judge_s = scan_s = floor_s = float("inf")
    lines = 0
    turns: list[Turn] = []
    fragments: list[Any] = []
    for _ in range(repeat):
        once, lines = _timed(functools.partial(bare_loop, w.day_file))
        bare_s = min(bare_s, once)
        floor_s = min(floor_s, _timed(functools.partial(floor_scan, w.day_file))[0])
        read_once, turns = _timed(functools.partial(read_turns, w))
        judge_once, fragments = _timed(
            functools.partial(scan_turns, w.board, turns, JudgeContext())
        )
        read_s, judge_s = min(read_s, read_once), min(judge_s, judge_once)
        scan_s = min(scan_s, read_once + judge_once)
    assert lines == w.events, (lines, w.events)
    ratio = scan_s / bare_s
    return [
        metric("scan.day_mb", w.day_file.stat().st_size / MB, "MB"),
        metric("scan.turns", len(turns), "turns"),
        metric("scan.fragments", len(fragments), "fragments"),
        metric("scan.bare_loop", bare_s, "s"),
        metric("scan.read_turns", read_s, "s"),
        metric("scan.judge_turns", judge_s, "s"),
        metric("scan.events_per_s", w.events / scan_s, "events/s"),
        metric("scan.vs_bare", ratio, "x", "<= 3", ratio <= 3.0),
        # Not a target: how far above the bare loop the barest Python scan already is.
        metric("scan.floor_vs_bare", floor_s / bare_s, "x (turns + tokens only)"),
    ]


def run(root: Path | None, day_bytes: int, seed: int = 7, repeat: int = 3) -> list[dict[str, Any]]:
    """Generate the workload under ``root`` (or a temp dir) and measure."""
    with tempfile.TemporaryDirectory(prefix="subcon-bench-scan-") as tmp:
        w = make_workload((root or Path(tmp)) / "scan", day_bytes, seed)
        return bench_scan(w, repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/scan.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 MB day instead of 30 MB")
    parser.add_argument("--json", action="store_true", help="print a JSON list of metrics")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rows = run(None, (3 if args.quick else 30) * MB, args.seed, 3 if args.quick else 5)
    if args.json:
        sys.stdout.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        for r in rows:
            print(f"{r['name']:<24} {r['value']:>14,.4f} {r['unit']}")
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
