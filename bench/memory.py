"""Peak memory of a scan worker, measured as the max RSS of a child process.

    python bench/memory.py [--quick] [--json]

The child does what a scan worker does with a whole day: for every slice of the
day's plan it runs the scan task's function (``shared.weaver.pipeline.scan_slice``)
and serialises the result to JSON as Celery would, then drops it. It reports its own
peak RSS (``VmHWM``). Two day sizes show whether the peak depends on the day's size
(target: under 200 MB on the 30 MB day, and about the same on a third of it).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.scan import DAY, MB, make_workload  # noqa: E402
from bench.spine import metric  # noqa: E402

LIMIT_MB = 200.0


def maxrss_mb() -> float:
    """This process's peak RSS in MiB.

    ``VmHWM`` belongs to the process's own address space. ``ru_maxrss`` is only the
    fallback: Linux carries the parent's high-water mark into a child across
    fork/vfork + exec, so a child started by a big parent would report the parent.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    # Linux reports ru_maxrss in KiB.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_scan(kernel: Path, runtime: Path, date: str) -> dict[str, Any]:
    """Run every slice of ``date`` through the scan task's function, one at a time."""
    from shared.kernel.paths import KernelPaths
    from shared.settings import Settings
    from shared.weaver.pipeline import PassPlan, plan_pass, scan_slice

    baseline = maxrss_mb()
    paths = KernelPaths(kernel=kernel, runtime=runtime)
    settings = Settings(kernel_dir=kernel, runtime_dir=runtime)
    plan: PassPlan = plan_pass(paths, settings, interval=f"{date.replace('-', '')}[0,23]")
    turns = sent = 0
    for slice_json in plan.slices:
        result = scan_slice(paths, settings, plan, slice_json)
        turns += len(result.turns)
        sent += len(orjson.dumps(result.to_json()))
        del result
    return {
        "slices": len(plan.slices),
        "turns": turns,
        "result_bytes": sent,
        "import_mb": baseline,
        "maxrss_mb": maxrss_mb(),
    }


def measure(kernel: Path, runtime: Path, date: str) -> dict[str, Any]:
    """Run :func:`child_scan` in a fresh interpreter; returns its report.

    Raises:
        RuntimeError: the child failed.
    """
    proc = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            str(kernel),
            str(runtime),
            date,
        ],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"memory child failed: {proc.stderr.decode(errors='replace')[-2000:]}")
    report: dict[str, Any] = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    return report


def bench_memory(root: Path, sizes_mb: tuple[float, ...], seed: int = 7) -> list[dict[str, Any]]:
    """Peak RSS of the scan child per day size; the last (largest) size carries the target."""
    rows: list[dict[str, Any]] = []
    peaks: list[float] = []
    for size in sizes_mb:
        w = make_workload(root / f"mem{size:g}", int(size * MB), seed)
        w.paths.kernel.mkdir(parents=True, exist_ok=True)
        report = measure(w.paths.kernel, w.paths.runtime, DAY)
        peaks.append(report["maxrss_mb"])
        last = size == sizes_mb[-1]
        rows.append(
            metric(
                f"memory.scan_worker_{size:g}mb_day",
                report["maxrss_mb"],
                "MB",
                f"< {LIMIT_MB:g}" if last else None,
                report["maxrss_mb"] < LIMIT_MB if last else None,
            )
        )
    if len(peaks) > 1:
        growth = peaks[-1] / peaks[0]
        rows.append(
            metric(
                f"memory.growth_{sizes_mb[-1]:g}mb_vs_{sizes_mb[0]:g}mb",
                growth,
                "x",
                "<= 1.25",
                growth <= 1.25,
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/memory.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 and 10 MB days")
    parser.add_argument("--json", action="store_true", help="print a JSON list of metrics")
    parser.add_argument("--child", nargs=3, metavar=("KERNEL", "RUNTIME", "DATE"), help="internal")
    args = parser.parse_args(argv)
    if args.child:
        kernel, runtime, date = args.child
        print(json.dumps(child_scan(Path(kernel), Path(runtime), date)))
        return 0
    with tempfile.TemporaryDirectory(prefix="subcon-bench-mem-") as tmp:
        rows = bench_memory(Path(tmp), (3, 10) if args.quick else (10, 30))
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['name']:<32} {r['value']:>10,.1f} {r['unit']}")
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
