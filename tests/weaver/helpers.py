"""Builders shared by the weaver tests: a tiny lease, a corpus kernel, a spine day."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shared.errors import LockLost
from shared.jsontext import compact
from shared.kernel.paths import KernelPaths

CORPUS = Path(__file__).parent / "corpus" / "labelled.json"
DATE = "2026-01-05"


class TinyLease:
    """A Lease that counts ensure() calls and can be made to fail after N calls."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.calls = 0
        self.fail_after = fail_after

    @property
    def fence(self) -> int:
        return 1

    @property
    def token(self) -> str:
        return "test-token"

    def ensure(self) -> None:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise LockLost("lease lost (test)")


def load_corpus() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CORPUS.read_text(encoding="utf-8"))
    return data


def corpus_events(corpus: dict[str, Any], date: str = DATE) -> list[dict[str, Any]]:
    """The corpus rows as spine events (envelope key order of docs/formats.md §4.2)."""
    events = []
    for i, row in enumerate(corpus["events"]):
        payload: dict[str, Any] = {"text": row["x"]}
        if row["t"].startswith("agent.tool"):
            payload = {"tool_use_id": f"t{i}", "tool_name": row["tool"], "input_summary": row["x"]}
        elif row["t"] == "job.complete":
            payload = {"job_id": "digest", "result_summary": row["x"]}
        elif row["t"] == "job.fail":
            payload = {"job_id": "digest", "error": row["x"]}
        event: dict[str, Any] = {"type": row["t"], "source": {"kind": row["k"]}}
        if row["s"]:
            event["session_key"] = row["s"]
        hour = 3 + (i * 12) // len(corpus["events"])
        event["payload"] = payload
        event["id"] = f"evt_{i:03d}"
        event["ts"] = f"{date}T{hour:02d}:{i % 60:02d}:00.000Z"
        events.append(event)
    return events


def write_kernel(paths: KernelPaths, corpus: dict[str, Any]) -> None:
    """Board, topic and entity dossiers of the corpus."""
    paths.memory_dir.mkdir(parents=True, exist_ok=True)
    paths.board.write_text("\n".join(corpus["board"]), encoding="utf-8")
    paths.topics_dir.mkdir(exist_ok=True)
    paths.entities_dir.mkdir(exist_ok=True)
    texts = corpus.get("topic_text", {})
    for slug in corpus["topics"]:
        text = texts.get(slug, f"# Lesson: {slug}\n")
        (paths.topics_dir / f"{slug}.md").write_text(text, encoding="utf-8")
    for slug in corpus["entities"]:
        (paths.entities_dir / f"{slug}.md").write_text(f"# {slug}\n", encoding="utf-8")


def write_day(paths: KernelPaths, events: list[dict[str, Any]], date: str = DATE) -> Path:
    path = paths.day_file(date)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        for event in events:
            handle.write(compact(event) + "\n")
    return path


def post_scan_gap(paths: KernelPaths, tokens: str, date: str = DATE, count: int = 1) -> Path:
    inbox = paths.inbox_dir("memory-weaver")
    inbox.mkdir(parents=True, exist_ok=True)
    target = inbox / "scan-gap.md.pending"
    target.write_text(
        f"[scan-gap] {tokens}\npartition: var/events/{date}.jsonl\n"
        f"external events in window: {count}\naction: dream over this interval.\n",
        encoding="utf-8",
    )
    return target


def snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root`` (relative path -> bytes)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
