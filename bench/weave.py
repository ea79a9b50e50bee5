"""Weaver fan-out benchmark through Redis and real worker processes.

    python bench/weave.py [--quick] [--json]

Measures, on one generated spine day (30 MB; 3 MB with ``--quick``, ``bench/workloads.py``):

* ``scan_events_per_s_per_worker``: the scan stage (one task per slice) on one scan
  worker process, in events per second;
* ``two_vs_one_scan_workers``: the same scan stage on two scan worker processes vs one
  (target >= 1.6x faster);
* ``pass_redis_vs_inprocess``: a whole weaver pass over the day (scan, crystallize,
  update, settle) through Redis and real workers vs the very same tasks in-process
  (embedded mode) on an identical copy of the kernel (target under 2x).

Worker start-up is outside every timing. ``--json`` prints a list of
``{"name", "value", "unit", "target", "met"}``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.workloads import write_spine_day  # noqa: E402
from shared.kernel.paths import KernelPaths  # noqa: E402
from shared.settings import Settings  # noqa: E402
from testing.waiting import poll_until  # noqa: E402

DAY = "2026-02-02"
MB = 1024 * 1024
SLICES = 16
# Fewer, larger slices on the small day: per-task overhead would otherwise dominate.
QUICK_SLICES = 6
Row = dict[str, Any]


def metric(
    name: str, value: float, unit: str, target: str | None = None, met: bool | None = None
) -> Row:
    return {"name": name, "value": round(value, 4), "unit": unit, "target": target, "met": met}


@contextlib.contextmanager
def redis_server(workdir: Path) -> Iterator[str]:
    """A throwaway redis-server on a loopback port (the test suite's launcher); yields its URL."""
    from testing.redis_server import EPHEMERAL, RedisServer

    server = RedisServer(workdir / "redis", *EPHEMERAL)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


class Workers:
    """Celery worker processes for one kernel; all stopped on exit."""

    def __init__(self, paths: KernelPaths, url: str, logdir: Path, slice_events: int) -> None:
        self.paths = paths
        self.url = url
        self.logdir = logdir
        self.slice_events = slice_events
        self.procs: list[subprocess.Popen[bytes]] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SUBCON_")}
        env.update(
            SUBCON_BROKER_URL=self.url,
            SUBCON_KERNEL_DIR=str(self.paths.kernel),
            SUBCON_RUNTIME_DIR=str(self.paths.runtime),
            SUBCON_SCAN_SLICE_EVENTS=str(self.slice_events),
        )
        return env

    def settings(self) -> Settings:
        return Settings(
            kernel_dir=self.paths.kernel,
            runtime_dir=self.paths.runtime,
            broker_url=self.url,
            scan_slice_events=self.slice_events,
        )

    def start(self, name: str, queue: str, concurrency: int = 1) -> None:
        with open(self.logdir / f"{name}.log", "wb") as log:
            self.procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "workers.app",
                        "worker",
                        "-Q",
                        queue,
                        "--pool",
                        "prefork",
                        "-c",
                        str(concurrency),
                        "-n",
                        f"{name}@%h",
                        "--without-gossip",
                        "--without-mingle",
                        "--loglevel",
                        "WARNING",
                    ],
                    cwd=ROOT,
                    env=self.env(),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        self.wait_ready(name)

    def wait_ready(self, name: str) -> None:
        from workers.app import make_app

        app = make_app(self.settings())
        wanted = f"{name}@{socket.gethostname()}"

        def answered() -> bool:
            return any(wanted in reply for reply in app.control.ping(timeout=0.5) or [])

        if poll_until(answered, 60, poll=0) is None:
            raise RuntimeError(f"worker {wanted} did not start; see {self.logdir}")

    def stop(self) -> None:
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        self.procs = []


def make_kernel(root: Path, day_bytes: int, seed: int) -> tuple[KernelPaths, int]:
    """A demo kernel plus one generated day of ``day_bytes``; returns (paths, events)."""
    from shared.setup.bootstrap import init_kernel

    paths = KernelPaths(kernel=root / "kernel", runtime=root / "runtime")
    init_kernel(paths, demo=True, force=False, seed=seed)
    events = write_spine_day(paths.day_file(DAY), DAY, day_bytes, seed)
    return paths, events


def copy_kernel(src: KernelPaths, dest: Path) -> KernelPaths:
    out = KernelPaths(kernel=dest / "kernel", runtime=dest / "runtime")
    shutil.copytree(src.kernel, out.kernel, symlinks=True)
    shutil.copytree(src.runtime, out.runtime, symlinks=True)
    return out


def _all_stored(app: Any, task_ids: list[str]) -> bool:
    """True once every task's final state is in the result backend. Reads only the
    head of each stored record, so the timer does not pay for decoding results (that
    is the next stage's work, done by the chord join and crystallize)."""
    backend = app.backend
    pipe = backend.client.pipeline(transaction=False)
    for task_id in task_ids:
        pipe.getrange(backend.get_key_for_task(task_id), 0, 63)
    heads = pipe.execute()
    return all(b'"SUCCESS"' in head or b'"FAILURE"' in head for head in heads)


def time_scan_stage(settings: Settings, interval: str, repeat: int) -> tuple[float, int]:
    """Best-of-``repeat`` seconds for the scan stage (a group of scan tasks) on the
    running workers, from dispatch until every slice's result is stored in Redis;
    returns (seconds, slices). The results are then fetched and checked, untimed."""
    from celery import group, signature

    from workers import routing
    from workers.app import make_app
    from workers.canvas import plan_weaver

    app = make_app(settings)
    plan = plan_weaver(app, interval=interval)
    best = float("inf")
    for _ in range(repeat):
        sigs = [signature(routing.SCAN, args=(plan, s, None), app=app) for s in plan["slices"]]
        began = time.perf_counter()
        pending = group(sigs).apply_async()
        ids = [r.id for r in pending.results]
        # Coarse polling: on 2 cores a busy poller would slow the workers it times.
        if poll_until(functools.partial(_all_stored, app, ids), 600, poll=0.01) is None:
            raise TimeoutError("scan stage did not finish in 600 s")
        best = min(best, time.perf_counter() - began)
        results = pending.get(timeout=600)
        assert len(results) == len(plan["slices"])
        assert all(isinstance(r, dict) and "turns" in r for r in results)
        pending.forget()
    return best, len(plan["slices"])


def run(quick: bool = False, seed: int = 7) -> list[Row]:
    """Every measurement of this benchmark as rows (see the module docstring)."""
    from shared.constants import WEAVER
    from workers.app import make_app
    from workers.canvas import dispatch_weaver
    from workers.embedded import run_partition

    day_bytes = int((3 if quick else 30) * MB)
    repeat = 2 if quick else 3
    interval = f"{DAY.replace('-', '')}[00,23]"
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="subcon-bench-weave-") as tmp:
        root = Path(tmp)
        base, events = make_kernel(root / "base", day_bytes, seed)
        slice_events = max(1, events // (QUICK_SLICES if quick else SLICES))
        local = copy_kernel(base, root / "local")
        remote = copy_kernel(base, root / "remote")
        logdir = root / "logs"
        logdir.mkdir()
        with redis_server(root) as url:
            workers = Workers(remote, url, logdir, slice_events)
            try:
                workers.start("scan1", "scan")
                one, slices = time_scan_stage(workers.settings(), interval, repeat)
                workers.start("scan2", "scan")
                two, _ = time_scan_stage(workers.settings(), interval, repeat)
                rows.append(metric("scan_events_per_s_per_worker", events / one, "events/s"))
                speedup = one / two
                rows.append(
                    metric(
                        "two_vs_one_scan_workers",
                        speedup,
                        f"x faster ({slices} slices, {events} events)",
                        ">= 1.6",
                        speedup >= 1.6,
                    )
                )
                workers.start("kernel", "kernel")
                app = make_app(workers.settings())
                began = time.perf_counter()
                remote_report = dispatch_weaver(app, interval=interval, commit=False).get(
                    timeout=1800
                )
                remote_s = time.perf_counter() - began
            finally:
                workers.stop()
        local_settings = Settings(
            kernel_dir=local.kernel, runtime_dir=local.runtime, scan_slice_events=slice_events
        )
        began = time.perf_counter()
        local_report = run_partition(local_settings, WEAVER, interval=interval, commit=False)
        local_s = time.perf_counter() - began
        ratio = remote_s / local_s
        same = remote_report.get("text") == local_report.get("text")
        rows.append(
            metric(
                "pass_redis_vs_inprocess",
                ratio,
                f"x in-process time ({remote_s:.2f}s vs {local_s:.2f}s"
                f"{'' if same else '; REPORTS DIFFER'})",
                "<= 2",
                ratio <= 2 and same,
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="3 MB day instead of 30 MB")
    parser.add_argument("--json", action="store_true", help="print rows as JSON")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if shutil.which("redis-server") is None:
        print("redis-server is not installed", file=sys.stderr)
        return 2
    rows = run(quick=args.quick, seed=args.seed)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            flag = "" if r["met"] is None else (" ok" if r["met"] else " MISSED")
            target = f" (target {r['target']})" if r["target"] else ""
            print(f"{r['name']}: {r['value']} {r['unit']}{target}{flag}")
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
