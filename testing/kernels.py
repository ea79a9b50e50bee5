"""Demo kernels (``subcon init --demo``) and spine samples built from them, byte copies
of kernel roots, and a kernel tree read back as bytes."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from shared.kernel.paths import KernelPaths


def make_demo(root: Path) -> KernelPaths:
    """A demo kernel (``subcon init --demo``) under ``root``."""
    from shared.setup.bootstrap import init_kernel

    paths = KernelPaths(kernel=root / "kernel", runtime=root / "runtime")
    init_kernel(paths, demo=True, force=False)
    return paths


def demo_messages(paths: KernelPaths) -> list[dict[str, Any]]:
    """The demo spine's external channel messages (English and Chinese), parsed."""
    from shared.spine.event import is_external

    samples: list[dict[str, Any]] = []
    for day_file in sorted(paths.events_dir.glob("*.jsonl")):
        # The demo days hold a torn write cut inside a multibyte character: not UTF-8.
        for line in day_file.read_bytes().splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue  # the demo spine keeps malformed lines on purpose
            if (
                isinstance(event, dict)
                and is_external(event)
                and event.get("type") == "channel.message"
            ):
                samples.append(event)
    assert samples, "demo spine has no external messages"
    return samples


def add_banded_day(paths: KernelPaths, date: str, hours: range, per_hour: int) -> int:
    """Append a day whose external events fall in ``hours`` (non-adjacent hours = bands),
    reusing the demo spine's external messages (English and Chinese). Returns the count."""

    from shared.spine.writer import append_event

    samples = demo_messages(paths)
    count = 0
    year, month, day = (int(x) for x in date.split("-"))
    for hour in hours:
        for n in range(per_hour):
            sample = samples[count % len(samples)]
            fields = {k: v for k, v in sample.items() if k not in ("id", "ts")}
            moment = datetime(year, month, day, hour, 5 + n, n % 60, tzinfo=UTC)
            append_event(paths, fields, moment)
            internal = {
                "type": "system.cadence_tick",
                "source": {"kind": "system", "name": "cadence"},
                "payload": {"count": 0},
            }
            append_event(paths, internal, moment.replace(second=(n + 30) % 60))
            count += 1
    return count


def write_big_day(paths: KernelPaths, date: str, count: int) -> None:
    """One hour band of ``count`` external messages (the demo spine's, English and
    Chinese), written straight to the day file: one slice, long enough to be watched."""
    from shared.spine.writer import make_envelope

    samples = demo_messages(paths)
    start = datetime.fromisoformat(f"{date}T10:00:00+00:00")
    lines = []
    for n in range(count):
        fields = {k: v for k, v in samples[n % len(samples)].items() if k not in ("id", "ts")}
        moment = start + timedelta(microseconds=n * 50_000)
        fields["ts"] = (
            moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        )
        lines.append(json.dumps(make_envelope(fields), ensure_ascii=False))
    paths.day_file(date).write_text("\n".join(lines) + "\n", encoding="utf-8")


def copy_roots(src: KernelPaths, dest: Path) -> KernelPaths:
    """A byte-identical copy of both roots (kernel git repo included)."""
    out = KernelPaths(kernel=dest / "kernel", runtime=dest / "runtime")
    shutil.copytree(src.kernel, out.kernel, symlinks=True)
    shutil.copytree(src.runtime, out.runtime, symlinks=True)
    return out


def tree_bytes(root: Path, *, skip: tuple[str, ...] = (".git",)) -> dict[str, bytes]:
    """Every regular file under ``root`` by relative path (skipping ``skip`` dirs)."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts and rel.parts[0] in skip:
            continue
        if path.is_file() and not path.is_symlink():
            out[str(rel)] = path.read_bytes()
    return out


def demo_day(paths: KernelPaths, day: str = "2026-01-05") -> list[dict[str, Any]]:
    """Every parsable event of one demo spine day (conversations with their replies)."""
    found = []
    # The demo day holds a torn write cut inside a multibyte character: not UTF-8.
    for line in paths.day_file(day).read_bytes().splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            found.append(obj)
    return found


def fragment_ids(tree: dict[str, bytes]) -> list[str]:
    """The source event id of every fragment file in a memory tree (duplicates kept)."""
    ids = []
    for name, data in tree.items():
        if name.startswith("fragments/") and name.endswith(".md"):
            for line in data.decode("utf-8").splitlines():
                if line.startswith("source_event_id:"):
                    ids.append(line.split(":", 1)[1].strip())
    return ids
