"""Fan-out through Redis, measured side by side: 1 vs 2 scan workers, and a weaver
pass through Redis and real workers vs the same pass in-process.

    python bench/fanout.py [--quick] [--json] [--repeat N]

Built on ``bench/weave.py`` (its redis-server, worker processes, demo kernel and
scan-stage timer); what this adds is interleaving. Both scan workers stay up for the
whole run, and the second one is switched off and on with Celery's
``cancel_consumer`` / ``add_consumer`` between rounds, so every "one worker" round
runs next to a "two workers" round under the same machine load. Likewise each round
times a pass through Redis and then the same pass in-process, each on a fresh copy of
the same kernel. Best of N per side.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.weave import (  # noqa: E402
    DAY,
    MB,
    SLICES,
    Workers,
    copy_kernel,
    make_kernel,
    metric,
    redis_server,
    time_scan_stage,
)
from shared.kernel.paths import KernelPaths  # noqa: E402
from shared.settings import Settings  # noqa: E402

Row = dict[str, Any]


def _reset(base: KernelPaths, dest: KernelPaths) -> None:
    """Make ``dest`` an exact fresh copy of ``base`` again (same paths, so running
    workers configured for ``dest`` see a pristine kernel)."""
    for src, out in ((base.kernel, dest.kernel), (base.runtime, dest.runtime)):
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(src, out, symlinks=True)


def _second_worker(app: Any, name: str, on: bool) -> None:
    """Start or stop ``name`` consuming the scan queue, and wait for its answer."""
    destination = [f"{name}@{socket.gethostname()}"]
    if on:
        replies = app.control.add_consumer("scan", destination=destination, reply=True)
    else:
        replies = app.control.cancel_consumer("scan", destination=destination, reply=True)
    if not replies:
        raise RuntimeError(f"{destination[0]} did not answer a consumer change")


def run(
    quick: bool = False, seed: int = 7, repeat: int | None = None, day_bytes: int | None = None
) -> list[Row]:
    """Interleaved best-of-``repeat`` measurements (see the module docstring) over a
    day of ``day_bytes`` (default 30 MB; 3 MB with ``quick``)."""
    from shared.constants import WEAVER
    from workers.app import make_app
    from workers.canvas import dispatch_weaver
    from workers.embedded import run_partition

    day_bytes = day_bytes or int((3 if quick else 30) * MB)
    rounds = repeat or (2 if quick else 3)
    interval = f"{DAY.replace('-', '')}[00,23]"
    one = two = remote_s = local_s = float("inf")
    reports_agree = True
    with tempfile.TemporaryDirectory(prefix="subcon-bench-fanout-") as tmp:
        root = Path(tmp)
        base, events = make_kernel(root / "base", day_bytes, seed)
        # Round up so the day splits into exactly SLICES slices: an even count keeps
        # both workers busy to the end (17 slices on 2 workers leave one running alone).
        slice_events = max(1, -(-events // SLICES))
        remote = copy_kernel(base, root / "remote")
        logdir = root / "logs"
        logdir.mkdir()
        with redis_server(root) as url:
            workers = Workers(remote, url, logdir, slice_events)
            try:
                workers.start("scan1", "scan")
                workers.start("scan2", "scan")
                workers.start("kernel", "kernel")
                settings = workers.settings()
                app = make_app(settings)
                slices = 0
                # Scan rounds are short next to passes; two extra rounds steady the ratio.
                for _ in range(rounds + 2):
                    _second_worker(app, "scan2", on=False)
                    once, slices = time_scan_stage(settings, interval, 1)
                    one = min(one, once)
                    _second_worker(app, "scan2", on=True)
                    once, _ = time_scan_stage(settings, interval, 1)
                    two = min(two, once)
                for n in range(rounds):
                    _reset(base, remote)
                    began = time.perf_counter()
                    remote_report = dispatch_weaver(app, interval=interval, commit=False).get(
                        timeout=1800
                    )
                    remote_s = min(remote_s, time.perf_counter() - began)
                    local = copy_kernel(base, root / f"local{n}")
                    local_settings = Settings(
                        kernel_dir=local.kernel,
                        runtime_dir=local.runtime,
                        scan_slice_events=slice_events,
                    )
                    began = time.perf_counter()
                    local_report = run_partition(
                        local_settings, WEAVER, interval=interval, commit=False
                    )
                    local_s = min(local_s, time.perf_counter() - began)
                    reports_agree &= remote_report.get("text") == local_report.get("text")
            finally:
                workers.stop()
    speedup = one / two
    ratio = remote_s / local_s
    return [
        metric("scan_stage_one_worker", one, "s"),
        metric("scan_stage_two_workers", two, "s"),
        metric("scan_events_per_s_per_worker", events / one, "events/s"),
        metric(
            "two_vs_one_scan_workers",
            speedup,
            f"x faster ({slices} slices, {events} events)",
            ">= 1.6",
            speedup >= 1.6,
        ),
        metric("pass_redis", remote_s, "s"),
        metric("pass_inprocess", local_s, "s"),
        metric(
            "pass_redis_vs_inprocess",
            ratio,
            "x" if reports_agree else "x (REPORTS DIFFER)",
            "<= 2",
            ratio <= 2 and reports_agree,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/fanout.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 MB day instead of 30 MB")
    parser.add_argument("--json", action="store_true", help="print rows as JSON")
    parser.add_argument("--repeat", type=int, help="rounds per side (default 3; 2 quick)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if shutil.which("redis-server") is None:
        print("redis-server is not installed", file=sys.stderr)
        return 2
    rows = run(quick=args.quick, seed=args.seed, repeat=args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['name']:<32} {r['value']:>12,.4f} {r['unit']}")
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
