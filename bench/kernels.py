"""Many kernels on one cluster (issue #31): shared workers, tick fairness, Redis memory.

    python -m bench.kernels [--quick] [--json] [--kernels N]

One redis-server and one set of real workers (2 scan processes, kernel and commit
workers of concurrency 4) serve every kernel; the kernels are demo kernels
(``subcon init --demo``: three spine days, an uncommitted dossier edit) registered in
the cluster's registry. Three measurements:

- **Sharing.** A kernel's whole tick (memory check, weaver pass, commit) alone on the
  cluster, for a few kernels in turn (median), against ticks sent to N kernels at once,
  until every run of every kernel is done. ``kernels.shared_vs_alone`` is the wall time
  of the N together over N times one alone: below 1, the kernels really share the
  workers (their passes overlap). Target: <= 0.5 with 50 kernels.
- **Fairness.** One kernel backfills a year (365 spine days, one pass a tick) while small
  kernels tick too: beat's fan-out tick every period, for several periods. Each small
  kernel's tick start delay is when its tick began on the kernel worker (the tick
  report's ``started_at``) minus when the fan-out tick sent it. Target: p95 under twice
  the tick interval.
- **Redis memory**: per registry entry (``MEMORY USAGE`` of the hash over its entries),
  per kernel tick (``used_memory`` growth over the N ticks: per-kernel keys and the
  results kept for ``result_expires``), and per day the backfill scanned.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.run import Row, row  # noqa: E402
from bench.weave import Workers, redis_server  # noqa: E402
from shared.kernel.paths import KernelPaths  # noqa: E402
from shared.settings import Settings  # noqa: E402
from shared.timestamps import parse_iso  # noqa: E402

SHARED_LIMIT = 0.5
FAIRNESS_LIMIT = 2.0  # p95 start delay, in tick intervals
ALONE_SAMPLES = 5
# Kernel and commit worker processes: their tasks wait on git and the disk about as much
# as they compute, so more processes than cores overlap the waits.
KERNEL_CONCURRENCY = 4


def _demo(root: Path) -> KernelPaths:
    from shared.setup.bootstrap import init_kernel

    paths = KernelPaths(kernel=root / "kernel", runtime=root / "runtime")
    init_kernel(paths, demo=True, force=False)
    return paths


def _cooldown(paths: KernelPaths, partition: str, ticks: int) -> None:
    """Let ``partition`` run on every tick (the demo's front matter waits longer)."""
    prompt = paths.partition_prompt(partition)
    text, count = re.subn(
        r"(?m)^(\s+cooldown_ticks:).*$", rf"\g<1> {ticks}", prompt.read_text("utf-8"), count=1
    )
    if count != 1:
        raise RuntimeError(f"{prompt}: no cooldown_ticks to set")
    prompt.write_text(text, encoding="utf-8")


def _year(paths: KernelPaths, days: int) -> None:
    """``days`` more spine days before the demo's own, a few external events each."""
    from datetime import date, timedelta

    from testing.kernels import add_banded_day

    start = date(2025, 1, 1)
    for n in range(days):
        add_banded_day(paths, (start + timedelta(days=n)).isoformat(), range(9, 10), 3)


class Cluster(Workers):
    """``bench/weave.py``'s worker processes, serving every kernel: the settings name the
    default kernel and the tick interval; no slice size is set (the default)."""

    def __init__(self, default: KernelPaths, url: str, logdir: Path, tick_seconds: float):
        super().__init__(default, url, logdir, slice_events=0)
        self.tick_seconds = tick_seconds

    def env(self) -> dict[str, str]:
        env = super().env()
        env.pop("SUBCON_SCAN_SLICE_EVENTS", None)
        env["SUBCON_TICK_SECONDS"] = str(self.tick_seconds)
        return env

    def settings(self) -> Settings:
        return Settings(
            kernel_dir=self.paths.kernel,
            runtime_dir=self.paths.runtime,
            broker_url=self.url,
            tick_seconds=self.tick_seconds,
        )


@contextmanager
def _cluster(root: Path, default: KernelPaths, tick_seconds: float) -> Iterator[tuple[Any, str]]:
    from workers.app import make_app

    logdir = root / "logs"
    logdir.mkdir(exist_ok=True)
    with redis_server(root) as url:
        cluster = Cluster(default, url, logdir, tick_seconds)
        try:
            for name, queue in (("scan1", "scan"), ("scan2", "scan")):
                cluster.start(name, queue)
            cluster.start("kernel", "kernel", KERNEL_CONCURRENCY)
            cluster.start("commit", "commit", KERNEL_CONCURRENCY)
            app = make_app(cluster.settings())
            yield app, url
        finally:
            # Results' finalisers talk to the backend: let them run while Redis does.
            gc.collect()
            cluster.stop()


def _used_memory(url: str) -> int:
    import redis

    info = redis.Redis.from_url(url).info("memory")
    return int(info["used_memory"])


def _tick_all(app: Any, names: list[str], timeout: float) -> list[dict[str, Any]]:
    """Manual ticks of ``names`` sent at once; each waited for with every run it started."""
    from workers import routing
    from workers.commands.tick import collect_runs

    task = app.tasks[routing.TICK]
    sent = [task.apply_async(kwargs={"manual": True, "kernel": n}) for n in names]
    deadline = time.monotonic() + timeout
    reports = []
    for result in sent:
        report: dict[str, Any] = result.get(timeout=max(1.0, deadline - time.monotonic()))
        collect_runs(app, report, deadline)
        reports.append(report)
    return reports


def _partitions(report: dict[str, Any]) -> set[str]:
    """The partitions whose runs the tick started and that finished with a report."""
    return {str(r["partition"]) for r in report.get("dispatched") or [] if "report" in r}


def _key_bytes(url: str, key: str) -> int:
    import redis

    return int(redis.Redis.from_url(url).memory_usage(key) or 0)


def bench_sharing(root: Path, n: int) -> list[Row]:
    from shared.constants import COMMITTER, WEAVER
    from shared.kernel.keys import KERNEL_REGISTRY
    from shared.kernels.registry import open_registry

    default = _demo(root / "default")
    warm = [f"w{i}" for i in range(KERNEL_CONCURRENCY)]
    names = warm + [f"k{i:03d}" for i in range(n + ALONE_SAMPLES)]
    kernels = {name: _demo(root / name) for name in names}
    for paths in kernels.values():
        for partition in (WEAVER, COMMITTER):
            _cooldown(paths, partition, 1)
    with _cluster(root, default, 3600.0) as (app, url):
        registry = open_registry(Settings(kernel_dir=default.kernel, broker_url=url))
        for name, paths in kernels.items():
            registry.add(name, paths.kernel, paths.runtime)
        per_entry = _key_bytes(url, KERNEL_REGISTRY) / len(kernels)
        # Every worker process does a tick's work once first (imports, caches), so
        # neither side pays a cold start.
        _tick_all(app, warm, 600)
        names = names[len(warm) :]
        alone = []
        for name in names[:ALONE_SAMPLES]:
            began = time.perf_counter()
            (report,) = _tick_all(app, [name], 600)
            alone.append(time.perf_counter() - began)
            if _partitions(report) != {WEAVER, COMMITTER}:
                raise RuntimeError(f"{name}: a tick alone did not pass and commit: {report}")
        one = statistics.median(alone)
        before = _used_memory(url)
        began = time.perf_counter()
        reports = _tick_all(app, names[ALONE_SAMPLES:], 3600)
        together = time.perf_counter() - began
        per_kernel = (_used_memory(url) - before) / n
        done = sum(_partitions(r) == {WEAVER, COMMITTER} for r in reports)
    ratio = together / (n * one)
    return [
        row("kernels.count", n, "kernels"),
        row("kernels.tick_alone_s", one, "s"),
        row("kernels.ticks_together_s", together, "s"),
        row("kernels.passes_completed", done, f"of {n}", f">= {n}", done == n),
        row("kernels.shared_vs_alone", ratio, "x", f"<= {SHARED_LIMIT:g}", ratio <= SHARED_LIMIT),
        row("kernels.redis_bytes_per_entry", per_entry, "bytes"),
        row("kernels.redis_bytes_per_kernel_tick", per_kernel, "bytes"),
    ]


def bench_fairness(root: Path, small: int, days: int, periods: int, period_s: float) -> list[Row]:
    from shared.constants import COMMITTER, WEAVER
    from shared.kernels.registry import open_registry
    from workers import routing

    default = _demo(root / "default")
    big = _demo(root / "big")
    _year(big, days)
    for partition in (WEAVER, COMMITTER):
        _cooldown(big, partition, 1)
    names = [f"s{i:02d}" for i in range(small)]
    kernels = {name: _demo(root / name) for name in names}
    for paths in kernels.values():
        for partition in (WEAVER, COMMITTER):
            _cooldown(paths, partition, 1)
    with _cluster(root, default, period_s) as (app, url):
        registry = open_registry(Settings(kernel_dir=default.kernel, broker_url=url))
        registry.add("big", big.kernel, big.runtime)
        for name, paths in kernels.items():
            registry.add(name, paths.kernel, paths.runtime)
        before = _used_memory(url)
        delays: list[float] = []
        task = app.tasks[routing.TICK]
        for _ in range(periods):
            # What beat does every period: one fan-out tick.
            sent_at = time.time()
            task.apply_async(kwargs={"fanout": True}).get(timeout=period_s * 4)
            deadline = sent_at + period_s
            time.sleep(max(0.0, deadline - time.time()))
            delays += _small_delays(url, names, sent_at)
        scanned = _days_scanned(big)
        grown = _used_memory(url) - before
    delays.sort()
    p95 = delays[max(0, round(0.95 * len(delays)) - 1)] if delays else float("nan")
    limit = FAIRNESS_LIMIT * period_s
    return [
        row("kernels.fairness_tick_interval_s", period_s, "s"),
        row("kernels.fairness_small_ticks", len(delays), "ticks"),
        row("kernels.fairness_backfill_days_scanned", scanned, f"of {days}"),
        row("kernels.fairness_p95_start_delay_s", p95, "s", f"<= {limit:g}", p95 <= limit),
        row("kernels.fairness_max_start_delay_s", delays[-1] if delays else None, "s"),
        row("kernels.redis_bytes_per_scanned_day", grown / max(1, scanned), "bytes"),
    ]


_SEEN: dict[str, set[str]] = {}


def _small_delays(url: str, names: list[str], sent_at: float) -> list[float]:
    """Start delays of the small kernels' ticks sent by the fan-out at ``sent_at``: each
    tick report (result backend, ``started_at``) not counted before."""
    import redis

    client = redis.Redis.from_url(url)
    out = []
    deadline = time.time() + 60
    for name in names:
        seen = _SEEN.setdefault(name, set())
        while time.time() < deadline:
            found = None
            for key in client.scan_iter("celery-task-meta-*", count=1000):
                meta = json.loads(client.get(key) or b"{}")
                result = meta.get("result")
                if (
                    meta.get("name") == "subcon.cadence.tick"
                    and (meta.get("kwargs") or {}).get("kernel") == name
                    and isinstance(result, dict)
                    and result.get("started_at")
                    and meta["task_id"] not in seen
                ):
                    found = meta
                    break
            if found is not None:
                seen.add(found["task_id"])
                started = parse_iso(found["result"]["started_at"]).timestamp()
                out.append(max(0.0, started - sent_at))
                break
            time.sleep(0.2)
    return out


def _days_scanned(paths: KernelPaths) -> int:
    fragments = paths.kernel / "memory" / "fragments"
    return sum(1 for d in fragments.iterdir() if d.is_dir()) if fragments.is_dir() else 0


def bench_kernels(quick: bool = False, n: int | None = None) -> list[Row]:
    count = n or (6 if quick else 50)
    with tempfile.TemporaryDirectory(prefix="subcon-bench-kernels-") as tmp:
        root = Path(tmp)
        rows = bench_sharing(root / "sharing", count)
        shutil.rmtree(root / "sharing", ignore_errors=True)
        rows += bench_fairness(
            root / "fairness",
            small=3 if quick else 6,
            days=30 if quick else 365,
            periods=3 if quick else 8,
            period_s=8.0 if quick else 15.0,
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="6 kernels, a 30-day backfill")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--kernels", type=int, default=None, metavar="N")
    args = parser.parse_args(argv)
    rows = bench_kernels(args.quick, args.kernels)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            value = "n/a" if r["value"] is None else f"{r['value']:,.4f}"
            met = "" if r["met"] is None else ("met" if r["met"] else "MISSED")
            print(f"{r['name']:<44} {value:>16}  {r['unit']:<12} {r['target'] or ''} {met}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
