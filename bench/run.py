"""subcon's one benchmark runner: every figure is a ratio measured side by side.

    python bench/run.py [--quick] [--json] [--only SECTION[,SECTION...]] [--seed N]

Sections (in order): spine, scan, workers, hosts, gap, commit, memory, report, quality,
attribution, import. Workloads are generated deterministically from ``--seed``: a spine day
(30 MB; 3 MB with ``--quick``) with a realistic mix of sessions and noise, a year of days, a board
of 100 lines, 1,000 changed dossier files (200 with ``--quick``), Claude Code transcripts
(a 64 MB session directory, one 1 GB session and 1,000 small ones; 8 MB and 128 MB with
``--quick``). Absolute times on a shared machine are noise, so each comparison runs both
sides in the same process, interleaved, and keeps the best of N. ``--json`` prints a list
of ``{"name", "value", "unit", "target", "met"}``; skipped measurements have ``value``
null, ``met`` null and the reason in ``unit``. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

MB = 1024 * 1024
SECTIONS = (
    "spine",
    "scan",
    "workers",
    "hosts",
    "gap",
    "commit",
    "memory",
    "report",
    "quality",
    "attribution",
    "import",
    "kernels",
)
Row = dict[str, Any]


@dataclass(frozen=True)
class Scale:
    """How big each workload is and how often each side is repeated."""

    day_mb: float
    gap_days: int
    gap_day_bytes: int
    dossiers: int
    memory_mb: tuple[float, ...]
    repeat: int
    quick: bool

    @classmethod
    def full(cls) -> Scale:
        return cls(30, 365, 64 * 1024, 1000, (10, 30), 5, quick=False)

    @classmethod
    def quick_scale(cls) -> Scale:
        return cls(3, 365, 16 * 1024, 200, (3, 10), 3, quick=True)

    @classmethod
    def tiny(cls) -> Scale:
        """For the runner's own tests: seconds, not minutes."""
        return cls(0.25, 20, 4 * 1024, 10, (0.25, 0.5), 1, quick=True)


def row(
    name: str, value: float | None, unit: str, target: str | None = None, met: bool | None = None
) -> Row:
    """One result in the runner's JSON shape."""
    return {
        "name": name,
        "value": None if value is None else round(float(value), 4),
        "unit": unit,
        "target": target,
        "met": met,
    }


def skipped(name: str, reason: str, target: str | None = None) -> Row:
    return row(name, None, f"skipped: {reason}", target, None)


def normalise(rows: Sequence[Row]) -> list[Row]:
    """Rows from the section modules in one shape (targets as text like ``<= 2``)."""
    out = []
    for r in rows:
        target = r.get("target")
        if isinstance(target, int | float) and not isinstance(target, bool):
            target = f"<= {target:g}"
        value = r.get("value")
        out.append(
            {
                "name": str(r["name"]),
                "value": None if value is None else round(float(value), 4),
                "unit": str(r.get("unit", "")),
                "target": target,
                "met": r.get("met") if target is not None else None,
            }
        )
    return out


def section_spine(root: Path, scale: Scale, seed: int) -> list[Row]:
    """Gated streaming read vs a bare ``orjson.loads`` loop (``bench/spine.py``)."""
    from bench.spine import bench_read

    # Each read takes a fraction of a second: more repeats are cheap and steady the ratio.
    rows = bench_read(root, int(scale.day_mb * MB), seed, max(7, scale.repeat))
    return [r for r in rows if r["name"] != "spine.plan_and_read_slices"]


def section_scan(root: Path, scale: Scale, seed: int) -> list[Row]:
    """The scanner with judgement and a 100-line board vs the same bare loop."""
    from bench.scan import bench_scan, make_workload

    # The scan takes seconds per repeat on a full day; three repeats cut the noise enough.
    return bench_scan(make_workload(root, int(scale.day_mb * MB), seed), min(3, scale.repeat))


def section_gap(root: Path, scale: Scale, seed: int) -> list[Row]:
    """Gap check over a year of day files, cold (first) and warm (cached)."""
    from bench.spine import bench_gap

    return bench_gap(root, scale.gap_days, scale.gap_day_bytes, seed)


def section_commit(root: Path, scale: Scale, seed: int) -> list[Row]:
    """A committer wake with N changed dossiers vs plain ``git add`` + ``git commit``
    of the same files in an identical repo (``bench/commit.py``'s ``bench_wake``: fresh
    repos per run, best of N each side), and the review gates' throughput on a board."""
    from bench.commit import REVIEW_TARGET, bench_review, bench_wake

    n = scale.dossiers
    # Both sides write 1,000 git objects; writeback noise on a shared disk only ever adds
    # time, so more rounds (best of each) steady the ratio.
    got = {r["name"]: r["value"] for r in bench_wake(n, repeat=max(1, scale.repeat))}
    wake, plain = got[f"wake_{n}_dossiers"], got[f"plain_git_{n}_dossiers"]
    ratio = wake / plain
    review = bench_review(max(100, 5 * n))
    return [
        row(f"commit.wake_{n}_dossiers", wake, "ms"),
        row(f"commit.plain_git_{n}_dossiers", plain, "ms"),
        row("commit.wake_vs_plain_git", ratio, "x", "<= 2", ratio <= 2.0),
        row(
            "commit.review_throughput",
            review["value"],
            review["unit"],
            f">= {REVIEW_TARGET:g}",
            review["met"],
        ),
    ]


def section_memory(root: Path, scale: Scale, seed: int) -> list[Row]:
    """Max RSS of a child process scanning a whole day, at two day sizes."""
    from bench.memory import bench_memory

    return bench_memory(root, scale.memory_mb, seed)


def section_report(root: Path, scale: Scale, seed: int) -> list[Row]:
    """``subcon report`` over a year: 365 spine days, a 100-line board with 52 weekly
    commits, 10,000 fragments (``bench/report.py``); collect + render time and size."""
    from bench.report import bench_report

    fragments = 200 if scale.gap_days < 365 else 10_000
    return bench_report(
        root, scale.gap_days, fragments, scale.gap_day_bytes, seed, min(3, scale.repeat)
    )


def section_quality(root: Path, scale: Scale, seed: int) -> list[Row]:
    """The review gates against a careful reader on real memory lines
    (``tests/corpora/gates``): held-out and tune agreement, false rejects of good board
    lines; the held-out confusion by gate goes to stderr. Then the ``real_sessions``
    block: the scanner on real agent sessions (``tests/corpora/real_sessions``), session
    agreement, per-trajectory precision and recall, WEAKENING precision and the rate of
    non-neutral fragments on "nothing" sessions, tune and held-out apart. Pure Python."""
    from bench.quality import bench_quality
    from bench.real_sessions import bench_real_sessions

    # The scanner on real agent sessions (tests/corpora/real_sessions), both parts.
    return bench_quality() + bench_real_sessions()


WORKER_TARGETS = {
    "workers.two_vs_one_scan_workers": ">= 1.6",
    "workers.pass_redis_vs_inprocess": "<= 2",
}


def section_attribution(root: Path, scale: Scale, seed: int) -> list[Row]:
    """Scanner attribution precision / recall on the labelled session corpus."""
    from bench.attribution import bench_attribution

    return bench_attribution()


def section_import(root: Path, scale: Scale, seed: int) -> list[Row]:
    """``subcon import`` of Claude Code transcripts (``bench/importing.py``): a session
    directory vs a bare ``orjson.loads`` loop over its lines, the peak RSS of a child
    importing one 1 GB transcript (and one a quarter of it; skipped without the disk),
    and the re-import of 1,000 unchanged sessions, which must write nothing."""
    from bench.importing import bench_import

    if not scale.quick:
        dir_mb, big_mb, sessions = 64.0, 1024.0, 1000
    elif scale.day_mb >= 1:
        dir_mb, big_mb, sessions = 8.0, 128.0, 1000
    else:  # the runner's own tests
        dir_mb, big_mb, sessions = 0.5, 2.0, 20
    return bench_import(
        root, int(dir_mb * MB), int(big_mb * MB), sessions, seed, min(3, scale.repeat)
    )


def section_workers(root: Path, scale: Scale, seed: int) -> list[Row]:
    """Redis with real worker processes, interleaved (``bench/fanout.py`` on
    ``bench/weave.py``): 1 vs 2 scan workers, and a full weaver pass through Redis vs
    in-process. Skipped without ``redis-server``."""
    if shutil.which("redis-server") is None:
        return [skipped(n, "redis-server not installed", t) for n, t in WORKER_TARGETS.items()]
    try:
        fanout = importlib.import_module("bench.fanout")
    except ImportError as exc:
        reason = f"bench/fanout.py unavailable ({exc})"
        return [skipped(n, reason, t) for n, t in WORKER_TARGETS.items()]
    runner: Callable[..., list[Row]] = fanout.run
    rows = normalise(runner(quick=scale.quick, seed=seed, repeat=min(3, scale.repeat)))
    return [{**r, "name": f"workers.{r['name']}"} for r in rows]


def section_hosts(root: Path, scale: Scale, seed: int) -> list[Row]:
    """The scan stage of the day on one scan host vs two, hosts made of network and mount
    namespaces (``bench/hosts.py``). Skipped, with the reason, without root, ``ip netns``,
    mount namespaces or ``redis-server``."""
    from bench.hosts import run, skipped_rows

    if shutil.which("redis-server") is None:
        rows = skipped_rows("redis-server not installed")
    else:
        day_bytes = int(scale.day_mb * MB)
        rows = run(quick=scale.quick, seed=seed, repeat=min(3, scale.repeat), day_bytes=day_bytes)
    return [{**r, "name": f"hosts.{r['name']}"} for r in normalise(rows)]


def section_kernels(root: Path, scale: Scale, seed: int) -> list[Row]:
    """Many kernels on one cluster (``bench/kernels.py``): N kernels' ticks together vs
    one alone on the same workers, small kernels' tick start delay while one backfills a
    year, Redis memory per kernel and per scanned day. Skipped without ``redis-server``."""
    from bench.kernels import bench_kernels

    if shutil.which("redis-server") is None:
        return [skipped("kernels.shared_vs_alone", "redis-server not installed", "<= 0.5")]
    # The runner's own tests run the smallest scale: two kernels, a short backfill.
    count = None if scale.day_mb >= 1 else 2
    return normalise(bench_kernels(quick=scale.quick, n=count))


SECTION_FUNCS: dict[str, Callable[[Path, Scale, int], list[Row]]] = {
    "spine": section_spine,
    "scan": section_scan,
    "workers": section_workers,
    "hosts": section_hosts,
    "gap": section_gap,
    "commit": section_commit,
    "memory": section_memory,
    "report": section_report,
    "quality": section_quality,
    "attribution": section_attribution,
    "import": section_import,
    "kernels": section_kernels,
}


def run(sections: Sequence[str], scale: Scale, seed: int = 7) -> list[Row]:
    """Run ``sections`` in order in a temp workspace; returns every row.

    A section that fails reports one row naming the error instead of stopping the run.
    """
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="subcon-bench-") as tmp:
        for name in sections:
            root = Path(tmp) / name
            root.mkdir()
            start = time.perf_counter()
            try:
                got = normalise(SECTION_FUNCS[name](root, scale, seed))
            except Exception as exc:
                got = [
                    row(f"{name}.error", None, f"error: {type(exc).__name__}: {exc}", "ok", False)
                ]
            rows += got
            rows.append(row(f"{name}.section_time", time.perf_counter() - start, "s"))
    return rows


def machine() -> str:
    """One line naming the machine: cores, memory, python."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        mem = f"{pages / 1024**3:.1f} GiB RAM"
    except (ValueError, OSError):
        mem = "RAM unknown"
    return f"{os.cpu_count()} CPUs, {mem}, Python {platform.python_version()}, {platform.system()}"


def render_table(rows: Sequence[Row]) -> str:
    """The human table: name, value, target, met/MISSED, unit (last: it may be long)."""
    lines = [f"{'measurement':<38} {'value':>14}  {'target':<8} {'status':<7} unit"]
    lines.append("-" * 80)
    for r in rows:
        if r["value"] is None:
            value, status = "-", "skipped" if r["met"] is None else "MISSED"
        else:
            value = f"{r['value']:,.4f}"
            status = "" if r["met"] is None else ("met" if r["met"] else "MISSED")
        target = r["target"] or ""
        lines.append(f"{r['name']:<38} {value:>14}  {target:<8} {status:<7} {r['unit']}")
    return "\n".join(lines)


def parse_sections(text: str | None) -> list[str]:
    if not text:
        return list(SECTIONS)
    chosen = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown section(s): {', '.join(unknown)}")
    return [s for s in SECTIONS if s in chosen]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python bench/run.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="small workloads, about a minute")
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print a JSON list of results")
    parser.add_argument("--only", type=parse_sections, help=f"comma list of {','.join(SECTIONS)}")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    scale = Scale.tiny() if args.tiny else Scale.quick_scale() if args.quick else Scale.full()
    sections = args.only or list(SECTIONS)
    if not args.json:
        print(f"subcon bench ({'quick' if scale.quick else 'full'}): {machine()}", flush=True)
    rows = run(sections, scale, args.seed)
    if args.json:
        sys.stdout.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(render_table(rows))
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
