"""Transcript import benchmarks: throughput, peak memory on one huge file, re-import.

    python -m bench.importing [--quick] [--json] [--seed N]

``subcon import`` reads coding-agent transcripts that grow to gigabytes (a long Claude
Code session with big tool results) and runs on every tick, so three things matter:

- Throughput, against the floor of reading the same bytes at all: the import of a
  directory of Claude Code sessions into a fresh runtime (parse, cut harness sections,
  redact, cap, hash ids, render, append with journal and indexes) vs a bare loop of
  ``orjson.loads`` over every line of the same files, interleaved, best of N each.
  Target: within 3x of the bare loop.
- Peak memory: a child process imports ONE transcript of 1 GB (and of a quarter of
  that) and reports its own RSS high-water mark (``VmHWM``). The import streams line by
  line and appends in bounded batches, so the peak must not follow the file's size.
  Target: under 150 MB, about the same at both sizes.
- Re-import: a second import of 1,000 unchanged sessions must write nothing and cost
  only a watermark check per file. Target: under 1 s.

The transcripts are generated deterministically from a seed, in the real format (each
session through :class:`~shared.setup.demo.transcripts.SessionWriter`, streamed to disk a
record at a time): user messages in English and Chinese (some with harness-injected
sections), assistant text and thinking, tool calls with Bash commands and file paths,
and tool results of 0.2-20 KB (code, logs, test output, Chinese notes, and ``.env``-like
output holding made-up credentials, so the redactor has real work).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.conversation import Speaker, board_topics  # noqa: E402
from bench.memory import maxrss_mb  # noqa: E402
from bench.run import Row, row, skipped  # noqa: E402
from bench.vocabulary import FILLER_EN, FILLER_ZH, SUBJECTS_EN, SUBJECTS_ZH, VERBS_EN  # noqa: E402
from shared.importing.redaction_rules import ALNUM, HEX, fake  # noqa: E402
from shared.importing.run import ImportReport, run_import  # noqa: E402
from shared.importing.sources import Source  # noqa: E402
from shared.kernel.paths import KernelPaths  # noqa: E402
from shared.setup.demo.transcripts import SessionWriter  # noqa: E402
from shared.timestamps import parse_iso  # noqa: E402

MB = 1024 * 1024
FMT = "claude-code"
PEAK_LIMIT_MB = 150.0
RATIO_LIMIT = 3.0
REIMPORT_LIMIT_S = 1.0
START = "2026-01-05T08:00:00.000Z"
# Disk a peak run needs besides its transcript: the spine it writes (events are capped,
# so well under the transcript's size) and some room for everything else on the disk.
SPINE_SHARE = 0.75
DISK_MARGIN = 512 * MB

_PROJECTS = ("shop", "billing-api", "infra", "文档站")
_MODULES = (
    "checkout", "payments", "refunds", "invoice", "auth", "session", "ledger", "search",
    "reports", "export", "webhooks", "scheduler", "cache", "config", "cli", "models",
)  # fmt: skip
_IDENTS = (
    "order", "cart", "total", "amount", "user_id", "retries", "payload", "result", "rows",
    "client", "ctx", "limit", "cursor", "batch", "token_count", "deadline", "items",
)  # fmt: skip
_TYPES = ("int", "str", "float", "bool", "Order", "Cart", "dict[str, Any]", "list[Row]")


# ---------------------------------------------------------------------------- content


class _Sink(list[dict[str, Any]]):
    """The records list of a :class:`SessionWriter` that writes each record to a file as
    it is finished and keeps none: the writer numbers its ids by ``len(records)``, so
    ``len`` counts every record written."""

    def __init__(self, handle: IO[bytes]) -> None:
        super().__init__()
        self.handle = handle
        self.records = 0
        self.nbytes = 0

    def append(self, record: dict[str, Any], /) -> None:
        line = orjson.dumps(record) + b"\n"
        self.handle.write(line)
        self.records += 1
        self.nbytes += len(line)

    def __len__(self) -> int:
        return self.records


@dataclass(frozen=True)
class Pools:
    """Lines that tool results are made of, drawn once per seed."""

    code: tuple[str, ...]
    logs: tuple[str, ...]
    notes_zh: tuple[str, ...]
    envs: tuple[str, ...]
    secret_commands: tuple[str, ...]


def _env_file(i: int) -> str:
    """A ``.env`` as ``cat .env`` shows it: settings and made-up credentials."""
    s = f"bench-{i}"
    upper = ALNUM[26:]  # A-Z0-9
    lines = [
        "# local settings - do not commit",
        f"APP_ENV={'development' if i % 2 else 'staging'}",
        f"PORT={8000 + i % 100}",
        "DEBUG=false",
        f"DATABASE_URL=postgres://app:{fake('', 18, seed=s + 'db')}@db.internal:5432/shop",
        f"AWS_ACCESS_KEY_ID={fake('AKIA', 16, upper[:36], seed=s + 'ak')}",
        f"AWS_SECRET_ACCESS_KEY={fake('', 40, seed=s + 'sk')}",
        f"ANTHROPIC_API_KEY={fake('sk-ant-api03-', 93, ALNUM + '_-', seed=s + 'an')}AA",
        f"GITHUB_TOKEN={fake('ghp_', 36, seed=s + 'gh')}",
        f"STRIPE_SECRET_KEY={fake('sk_live_', 24, seed=s + 'st')}",
        f"SECRET_KEY={fake('', 50, HEX, seed=s + 'dj')}",
        "REDIS_URL=redis://localhost:6379/0",
        f"# 数据库密码: {fake('', 14, seed=s + 'zh')}",
        "LOG_LEVEL=info",
    ]
    return "\n".join(lines) + "\n"


def make_pools(seed: int) -> Pools:
    rng = random.Random(seed * 7919 + 1)
    code: list[str] = []
    for _ in range(3000):
        mod, var, typ = rng.choice(_MODULES), rng.choice(_IDENTS), rng.choice(_TYPES)
        other, verb, n = rng.choice(_IDENTS), rng.choice(VERBS_EN), rng.randint(1, 90)
        code.append(
            rng.choice(
                (
                    f"def {rng.choice(VERBS_EN)}_{mod}(self, {var}: {typ}) -> {typ}:",
                    f"    {var} = {mod}.{verb}({other}, timeout={n})",
                    f"    if {var} is None or not {other}:",
                    f'        raise ValueError(f"{mod}: {{{var}!r}} is not a valid {typ}")',
                    f"    # {rng.choice(FILLER_EN)}",
                    f"    # {rng.choice(FILLER_ZH)}，{rng.choice(SUBJECTS_ZH)}",
                    f"    return {{'{var}': {var}, '{other}': {other}}}",
                    f"from shop.{mod} import {var.title().replace('_', '')}",
                    "",
                    f"class {mod.title()}{rng.choice(_IDENTS).title().replace('_', '')}:",
                    f"        for {var} in self.{other}[: {rng.randint(2, 500)}]:",
                )
            )
        )
    logs: list[str] = []
    for _ in range(2000):
        mod, ms = rng.choice(_MODULES), rng.randint(1, 4000)
        test = f"tests/test_{mod}.py::test_{rng.choice(VERBS_EN)}_{rng.choice(_IDENTS)}"
        logs.append(
            rng.choice(
                (
                    f"2026-01-05T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                    f"{rng.randint(0, 59):02d}.{ms % 1000:03d}Z INFO  {mod}: "
                    f"{rng.choice(SUBJECTS_EN)} handled in {ms} ms",
                    f"{test} PASSED{' ' * rng.randint(2, 30)}[{rng.randint(0, 100):3d}%]",
                    f"FAILED {test} - AssertionError: assert {ms} == {ms + rng.randint(1, 9)}",
                    f" src/shop/{mod}.py | {rng.randint(1, 80):3d} "
                    f"{'+' * rng.randint(0, 20)}{'-' * rng.randint(0, 12)}",
                    f"WARNING {mod}: retry {rng.randint(1, 5)}/5 after {ms} ms (timeout)",
                    f"-rw-r--r--  1 dev dev {ms * 37:>8} Jan  5 10:{ms % 60:02d} {mod}.py",
                )
            )
        )
    notes: list[str] = []
    for _ in range(800):
        subject = rng.choice(SUBJECTS_ZH)
        notes.append(
            rng.choice(
                (
                    f"## {subject}",
                    f"- {rng.choice(FILLER_ZH)}，{subject}需要在周五之前确认。",
                    f"- {subject}：{rng.choice(FILLER_ZH)}；负责人 @{rng.choice(_IDENTS)}",
                    f"{subject}的流程：先{rng.choice(FILLER_ZH)}，然后提交审核。",
                )
            )
        )
    secrets = tuple(
        rng.choice(
            (
                f"export OPENAI_API_KEY={fake('sk-proj-', 48, ALNUM + '_-', seed=f'o{i}')} "
                "&& python scripts/eval.py",
                "curl -s -H 'Authorization: Bearer "
                f"{fake('', 40, ALNUM, seed=f'b{i}')}' https://api.internal/v1/orders",
                f"git clone https://deploy:{fake('glpat-', 20, seed=f'g{i}')}"
                "@gitlab.example.com/shop/infra.git",
            )
        )
        for i in range(40)
    )
    envs = tuple(_env_file(i) for i in range(40))
    return Pools(tuple(code), tuple(logs), tuple(notes), envs, secrets)


def _sized(rng: random.Random, pool: Sequence[str], size: int, numbered: bool = False) -> str:
    """Lines of ``pool`` until about ``size`` bytes of UTF-8 (``cat -n`` style if
    numbered, as Claude Code's Read shows a file)."""
    sample = pool[:64]
    avg = sum(len(s.encode()) + 1 for s in sample) / len(sample) + (7 if numbered else 0)
    lines = rng.choices(pool, k=max(1, round(size / avg)))
    if numbered:
        lines = [f"{i:>6}→{text}" for i, text in enumerate(lines, 1)]
    return "\n".join(lines)


def _tool_call(rng: random.Random, pools: Pools, cwd: str) -> tuple[str, dict[str, Any], str, bool]:
    """(tool name, input, output, is_error) of one tool call, output 0.2-20 KB."""
    size = int(200 * 100 ** rng.random())  # log-uniform over 200 B .. 20 KB
    mod = rng.choice(_MODULES)
    roll = rng.random()
    if roll < 0.04:
        env = rng.choice(pools.envs)
        return "Bash", {"command": "cat .env", "description": "Show local settings"}, env, False
    if roll < 0.06:
        command = rng.choice(pools.secret_commands)
        return "Bash", {"command": command}, _sized(rng, pools.logs, size), False
    if roll < 0.35:
        path = f"{cwd}/src/shop/{mod}.py"
        return "Read", {"file_path": path}, _sized(rng, pools.code, size, numbered=True), False
    if roll < 0.45:
        path = f"{cwd}/docs/{rng.choice(SUBJECTS_ZH)}.md"
        return "Read", {"file_path": path}, _sized(rng, pools.notes_zh, size, numbered=True), False
    if roll < 0.55:
        edit = {
            "file_path": f"{cwd}/src/shop/{mod}.py",
            "old_string": rng.choice(pools.code),
            "new_string": rng.choice(pools.code),
        }
        return "Edit", edit, f"The file {edit['file_path']} has been updated.", False
    if roll < 0.62:
        pattern = f"{rng.choice(_IDENTS)}\\s*="
        listing = "\n".join(
            f"src/shop/{rng.choice(_MODULES)}.py:{rng.randint(1, 900)}:{rng.choice(pools.code)}"
            for _ in range(max(1, size // 80))
        )
        return "Grep", {"pattern": pattern, "path": "src"}, listing, False
    command = rng.choice(
        (
            f"pytest tests/test_{mod}.py -q",
            "pytest -x -q",
            "git diff --stat",
            f"git log --oneline -n {rng.randint(5, 50)}",
            f"rg -n '{rng.choice(_IDENTS)}' src/shop/{mod}.py",
            f"ls -la src/shop/ && wc -l src/shop/{mod}.py",
            f"docker compose logs {mod} --tail {rng.randint(50, 500)}",
            f"cat 'docs/{rng.choice(SUBJECTS_ZH)}.md'",
        )
    )
    pool = pools.notes_zh if command.startswith("cat 'docs") else pools.logs
    failed = rng.random() < 0.08
    return "Bash", {"command": command, "timeout": 120000}, _sized(rng, pool, size), failed


def _turn(rng: random.Random, speaker: Speaker, pools: Pools, session: SessionWriter) -> None:
    """One exchange: the user's message, the agent's tool calls and reply."""
    msg = speaker.message()
    text = msg.text
    roll = rng.random()
    if roll < 0.08:
        text = (
            "<system-reminder>The user's project memory was loaded: "
            f"{rng.choice(FILLER_EN)}.</system-reminder>\n{text}"
        )
    elif roll < 0.12:
        text = f"{text}\n\n```\n{_sized(rng, pools.logs, rng.randint(500, 4000))}\n```"
    session.user(text)
    if rng.random() < 0.3:
        thought = " ".join(rng.choices(FILLER_EN + FILLER_ZH, k=rng.randint(10, 80)))
        session.assistant([{"type": "thinking", "thinking": thought, "signature": "Eq0C" * 20}])
    for _ in range(rng.randint(0, 6)):
        if rng.random() < 0.3:
            session.say(f"Let me look at `{rng.choice(_MODULES)}` first.")
        name, tool_input, output, error = _tool_call(rng, pools, session.cwd)
        session.tool(name, tool_input, output, error=error)
    if rng.random() < 0.02:
        session.user("[Request interrupted by user]")
        return
    session.say(speaker.reply(msg))


def write_session(
    path: Path, size: int, seed: int, start: datetime, pools: Pools | None = None
) -> tuple[int, int]:
    """Write one Claude Code session of about ``size`` bytes (whole exchanges, at least
    one) to ``path``, a record at a time; returns (bytes, records)."""
    rng = random.Random(seed)
    speaker = Speaker(rng, board_topics(100, seed))
    pools = pools or make_pools(seed)
    session_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    project = _PROJECTS[seed % len(_PROJECTS)]
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb", buffering=1024 * 1024) as handle:
        sink = _Sink(handle)
        session = SessionWriter(session_id, start, cwd=f"/home/dev/{project}", records=sink)
        if rng.random() < 0.2:
            session.user(
                "<command-name>/clear</command-name>\n<command-message>clear</command-message>"
                "\n<command-args></command-args>"
            )
        while sink.nbytes < size or sink.records == 0:
            _turn(rng, speaker, pools, session)
    return sink.nbytes, sink.records


@dataclass(frozen=True)
class Corpus:
    """A directory of sessions laid out as ``~/.claude/projects``."""

    root: Path
    files: tuple[Path, ...]
    bytes: int


def make_corpus(
    root: Path, total_bytes: int, seed: int, session_bytes: tuple[int, int] = (MB // 4, 4 * MB)
) -> Corpus:
    """Sessions of ``session_bytes`` (log-uniform) under ``root/<project dir>/`` until
    ``total_bytes`` in all; deterministic for a seed."""
    rng = random.Random(seed)
    pools = make_pools(seed)
    base = parse_iso(START)
    lo, hi = session_bytes
    files: list[Path] = []
    written = i = 0
    while written < total_bytes:
        size = int(lo * (hi / lo) ** rng.random()) if hi > lo else lo
        size = min(size, max(1, total_bytes - written))
        project = f"-home-dev-{_PROJECTS[i % len(_PROJECTS)]}"
        path = root / project / f"{uuid.UUID(int=rng.getrandbits(128), version=4)}.jsonl"
        start = base + timedelta(minutes=37 * i)
        got, _ = write_session(path, size, seed * 100_003 + i, start, pools)
        files.append(path)
        written += got
        i += 1
    return Corpus(root, tuple(files), written)


# ---------------------------------------------------------------------------- measuring


def bare_loop(files: Sequence[Path]) -> int:
    """The floor: ``orjson.loads`` on every line of every file; returns the lines."""
    n = 0
    for path in files:
        with open(path, "rb") as handle:
            for line in handle:
                orjson.loads(line)
                n += 1
    return n


def fresh_paths(root: Path) -> KernelPaths:
    paths = KernelPaths(kernel=root / "kernel", runtime=root / "runtime")
    paths.runtime.mkdir(parents=True)
    return paths


def import_into(paths: KernelPaths, source: Path) -> ImportReport:
    """What ``subcon import --from claude-code SOURCE`` runs (no settle wait: every
    generated record is complete)."""
    return run_import(paths, [Source(FMT, source)], settle_seconds=0)


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bench_throughput(root: Path, total_bytes: int, seed: int, repeat: int) -> list[Row]:
    """Import of a session directory into a fresh runtime vs the bare ``orjson`` loop over
    its lines; interleaved, best of ``repeat`` each."""
    corpus = make_corpus(root / "projects", total_bytes, seed)
    bare_s = import_s = math.inf
    events = problems = 0
    for i in range(max(1, repeat)):
        once, _ = _timed(lambda: bare_loop(corpus.files))
        bare_s = min(bare_s, once)
        target = root / f"runtime-{i}"
        paths = fresh_paths(target)
        once, report = _timed(lambda: import_into(paths, corpus.root))  # noqa: B023
        import_s = min(import_s, once)
        events, problems = report.events, report.problem_count
        shutil.rmtree(target)
    size_mb = corpus.bytes / MB
    ratio = import_s / bare_s
    return [
        row("import.dir_mb", size_mb, "MB"),
        row("import.sessions", len(corpus.files), "files"),
        row("import.events", events, "events"),
        row("import.problems", problems, "problems"),
        row("import.mb_per_s", size_mb / import_s, "MB/s"),
        row("import.orjson_mb_per_s", size_mb / bare_s, "MB/s"),
        row("import.vs_orjson", ratio, "x", f"<= {RATIO_LIMIT:g}", ratio <= RATIO_LIMIT),
    ]


def child_import(kernel: Path, runtime: Path, transcript: Path) -> dict[str, Any]:
    """In the child: import ``transcript`` into a fresh runtime; report the peak RSS."""
    baseline = maxrss_mb()
    paths = KernelPaths(kernel=kernel, runtime=runtime)
    runtime.mkdir(parents=True, exist_ok=True)
    seconds, report = _timed(lambda: import_into(paths, transcript))
    return {
        "events": report.events,
        "problems": report.problem_count,
        "seconds": seconds,
        "import_mb": baseline,
        "peak_mb": maxrss_mb(),
    }


def measure_peak(root: Path, transcript: Path) -> dict[str, Any]:
    """Run :func:`child_import` in a fresh interpreter and return its report.

    Raises:
        RuntimeError: the child failed.
    """
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.importing",
            "--child",
            str(root / "kernel"),
            str(root / "runtime"),
            str(transcript),
        ],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"import child failed: {proc.stderr.decode(errors='replace')[-2000:]}")
    report: dict[str, Any] = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    return report


def disk_needed(size: int) -> int:
    """Free disk one peak run needs: its transcript, the spine it writes, a margin."""
    return int(size * (1 + SPINE_SHARE)) + DISK_MARGIN


def bench_peak(root: Path, size: int, seed: int) -> list[Row]:
    """Peak RSS of a child importing one transcript of ``size`` bytes, and of one a
    quarter of that; each file is written streaming and deleted after."""
    target = f"< {PEAK_LIMIT_MB:g}"
    names = ("import.peak_mb_quarter", "import.peak_mb_1gb")
    root.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(root).free
    if free < disk_needed(size):
        reason = f"needs {disk_needed(size) / MB:,.0f} MB free disk, {free / MB:,.0f} MB free"
        return [skipped(n, reason, target) for n in names]
    rows = [row("import.peak_file_mb", size / MB, "MB")]
    peaks: list[float] = []
    for name, nbytes in zip(names, (size // 4, size), strict=True):
        work = root / name.rsplit(".", 1)[1]
        transcript = work / "projects" / "-home-dev-shop" / "big-session.jsonl"
        try:
            write_session(transcript, nbytes, seed, parse_iso(START))
            report = measure_peak(work, transcript)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        peak = float(report["peak_mb"])
        peaks.append(peak)
        rows.append(row(name, peak, "MB", target, peak < PEAK_LIMIT_MB))
        rows.append(row(f"{name}_events", report["events"], "events"))
        if name.endswith("1gb"):
            rows.append(row("import.big_file_mb_per_s", nbytes / MB / report["seconds"], "MB/s"))
    rows.append(row("import.peak_growth_vs_quarter", peaks[1] / peaks[0], "x"))
    rows.append(row("import.child_baseline_mb", report["import_mb"], "MB"))
    return rows


def _spine_sizes(paths: KernelPaths) -> dict[str, int]:
    if not paths.events_dir.exists():
        return {}
    return {str(p): p.stat().st_size for p in paths.events_dir.rglob("*") if p.is_file()}


def bench_reimport(root: Path, sessions: int, seed: int, repeat: int) -> list[Row]:
    """Import ``sessions`` small sessions once, then time importing them again, unchanged
    (best of ``repeat`` re-imports); every re-import must write nothing."""
    rng = random.Random(seed)
    pools = make_pools(seed)
    base = parse_iso(START)
    source = root / "projects"
    total = 0
    for i in range(sessions):
        project = f"-home-dev-{_PROJECTS[i % len(_PROJECTS)]}"
        path = source / project / f"{uuid.UUID(int=rng.getrandbits(128), version=4)}.jsonl"
        start = base + timedelta(minutes=11 * i)
        total += write_session(path, rng.randint(2_000, 12_000), seed * 7_001 + i, start, pools)[0]
    paths = fresh_paths(root / "rt")
    first_s, first = _timed(lambda: import_into(paths, source))
    before = _spine_sizes(paths)
    best = math.inf
    written = unchanged = 0
    for _ in range(max(1, repeat)):
        once, again = _timed(lambda: import_into(paths, source))
        best = min(best, once)
        written += again.events
        unchanged = sum(1 for f in again.files if f.unchanged)
    after = _spine_sizes(paths)
    grown = sum(abs(after.get(p, 0) - before.get(p, 0)) for p in {*before, *after})
    return [
        row("import.reimport_sessions", sessions, "files"),
        row("import.reimport_mb", total / MB, "MB"),
        row("import.reimport_first_s", first_s, "s"),
        row("import.reimport_first_events", first.events, "events"),
        row(
            "import.reimport_1000_s",
            best,
            "s",
            f"< {REIMPORT_LIMIT_S:g}",
            best < REIMPORT_LIMIT_S,
        ),
        row("import.reimport_unchanged_files", unchanged, "files"),
        row("import.reimport_events", written, "events", "== 0", written == 0),
        row("import.reimport_spine_bytes", grown, "bytes", "== 0", grown == 0),
    ]


def bench_import(
    root: Path, dir_bytes: int, big_bytes: int, sessions: int, seed: int, repeat: int
) -> list[Row]:
    """All three measurements, each in its own directory under ``root``."""
    rows = bench_throughput(root / "throughput", dir_bytes, seed, repeat)
    shutil.rmtree(root / "throughput", ignore_errors=True)
    rows += bench_peak(root / "peak", big_bytes, seed)
    rows += bench_reimport(root / "reimport", sessions, seed, max(3, repeat))
    shutil.rmtree(root / "reimport", ignore_errors=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.importing", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="8 MB directory, 128 MB file")
    parser.add_argument("--json", action="store_true", help="print a JSON list of metrics")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--child", nargs=3, metavar=("KERNEL", "RUNTIME", "FILE"), help="internal")
    args = parser.parse_args(argv)
    if args.child:
        kernel, runtime, transcript = (Path(p) for p in args.child)
        print(json.dumps(child_import(kernel, runtime, transcript)))
        return 0
    dir_mb, big_mb, repeat = (8, 128, 3) if args.quick else (64, 1024, 3)
    with tempfile.TemporaryDirectory(prefix="subcon-bench-import-") as tmp:
        rows = bench_import(Path(tmp), dir_mb * MB, big_mb * MB, 1000, args.seed, repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            value = "-" if r["value"] is None else f"{r['value']:,.4f}"
            print(f"{r['name']:<36} {value:>14} {r['unit']}")
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
