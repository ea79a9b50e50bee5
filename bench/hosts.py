"""The scan stage of a day on one scan host vs two, hosts made of Linux namespaces.

    python bench/hosts.py [--quick] [--json] [--repeat N]

A kernel host (redis-server with a password, on its own network namespace) and two
scan hosts joined to it by veth pairs, each with its own mount namespace in which only
``var/events`` is there, read-only (``testing/hosts/fleet.py``, the multi-host test
harness). Each scan host runs ``deploy/scan-worker.sh`` with one process. The timer
runs on the kernel host: dispatch of one scan task per slice of the day (30 MB; 3 MB
with ``--quick``) until every result is stored (``bench/weave.py``'s scan-stage timer).
Rounds are interleaved: scan-b's consumer is switched off and on (Celery's
``cancel_consumer`` / ``add_consumer``) between rounds, so both sides run under the
same machine load; best of N each.

The hosts share one machine: with two cores the ratio cannot exceed 2x, and the
kernel host's Redis and the timer take their share of the same cores.

Needs root, ``ip netns`` and mount namespaces; without them every row is skipped with
the reason.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.weave import DAY, MB, SLICES, make_kernel, metric  # noqa: E402

Row = dict[str, Any]
TARGET = ">= 1.5"
TARGET_RATIO = 1.5
NAMES = ("scan_stage_one_host", "scan_stage_two_hosts", "two_vs_one_scan_hosts")


def _consumer(app: Any, worker: str, on: bool) -> None:
    """Switch ``worker``'s scan consumer on or off and wait for its answer."""
    control = app.control.add_consumer if on else app.control.cancel_consumer
    if not control("scan", destination=[worker], reply=True, timeout=5.0):
        raise RuntimeError(f"{worker} did not answer a consumer change")


def measure(interval: str, rounds: int) -> dict[str, Any]:
    """On the kernel host: interleaved best-of-``rounds`` scan stages, one host vs two."""
    from bench.weave import time_scan_stage
    from shared.settings import load_settings
    from workers.app import make_app

    settings = load_settings()
    app = make_app(settings)
    one = two = float("inf")
    slices = 0
    for _ in range(rounds):
        _consumer(app, "scan@scan-b", on=False)
        once, slices = time_scan_stage(settings, interval, 1)
        one = min(one, once)
        _consumer(app, "scan@scan-b", on=True)
        once, _ = time_scan_stage(settings, interval, 1)
        two = min(two, once)
    return {"one": one, "two": two, "slices": slices}


def skipped_rows(reason: str) -> list[Row]:
    return [
        {
            "name": n,
            "value": None,
            "unit": f"skipped: {reason}",
            "target": TARGET if n == NAMES[2] else None,
            "met": None,
        }
        for n in NAMES
    ]


def run(
    quick: bool = False, seed: int = 7, repeat: int | None = None, day_bytes: int | None = None
) -> list[Row]:
    """Rows for the scan stage on one vs two scan hosts (see the module docstring)."""
    from testing.hosts import fleet as fleet_mod

    reason = fleet_mod.unavailable()
    if reason is not None:
        return skipped_rows(reason)
    fleet_mod.sweep_leftovers()
    day_bytes = day_bytes or int((3 if quick else 30) * MB)
    # Scan rounds are short; extra rounds steady the ratio (as bench/fanout.py does).
    rounds = (repeat or (2 if quick else 3)) + 2
    interval = f"{DAY.replace('-', '')}[00,23]"
    with tempfile.TemporaryDirectory(prefix="subcon-bench-hosts-") as tmp:
        root = Path(tmp)
        paths, events = make_kernel(root / "roots", day_bytes, seed)
        # An even number of equal slices keeps both hosts busy to the end.
        slice_events = max(1, -(-events // SLICES))
        env = {"SUBCON_SCAN_SLICE_EVENTS": str(slice_events), "SUBCON_LOGLEVEL": "WARNING"}
        with fleet_mod.fleet(
            paths, root / "roots", root / "fleet", ["scan-a", "scan-b"], **env
        ) as fl:
            fl.start_scan_host("scan-a")
            fl.start_scan_host("scan-b")
            fl.wait_ready(["scan@scan-a", "scan@scan-b"])
            got = fl.run_on_kernel_host(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--measure",
                    interval,
                    "--rounds",
                    str(rounds),
                ],
                timeout=1800,
            )
            if got.returncode != 0:
                raise RuntimeError(f"measurement failed: {got.stderr[-2000:]}\n{fl.logs()}")
            answer = json.loads(got.stdout.strip().splitlines()[-1])
    one, two, slices = answer["one"], answer["two"], answer["slices"]
    ratio = one / two
    return [
        metric("scan_stage_one_host", one, f"s ({slices} slices, {events} events, 1 process)"),
        metric("scan_stage_two_hosts", two, "s (1 process on each host)"),
        metric(
            "two_vs_one_scan_hosts",
            ratio,
            "x faster (same 2-core machine: at most 2x)",
            TARGET,
            ratio >= TARGET_RATIO,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/hosts.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 MB day instead of 30 MB")
    parser.add_argument("--json", action="store_true", help="print rows as JSON")
    parser.add_argument("--repeat", type=int, help="rounds per side (default 3 + 2; quick 2 + 2)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # on the kernel host
    parser.add_argument("--rounds", type=int, default=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.rounds)))
        return 0
    if shutil.which("redis-server") is None:
        print("redis-server is not installed", file=sys.stderr)
        return 2
    rows = run(quick=args.quick, seed=args.seed, repeat=args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            value = "-" if r["value"] is None else f"{r['value']:,.4f}"
            print(f"{r['name']:<24} {value:>10} {r['unit']}")
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
