"""Builders for runtime-shaped spine events and partition files."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path
from typing import Any

from shared.kernel.paths import KernelPaths
from shared.spine.event import render_event


def event(
    type_: str,
    kind: str | None,
    ts: str,
    *,
    name: str | None = None,
    session_key: str | None = None,
    payload: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An event in the daemon's canonical key order."""
    source: dict[str, Any] = {} if kind is None else {"kind": kind}
    if name is not None:
        source["name"] = name
    out: dict[str, Any] = {"type": type_, "source": source}
    if session_key is not None:
        out["session_key"] = session_key
    out["payload"] = payload if payload is not None else {}
    digest = hashlib.sha256(f"{type_}|{kind}|{ts}|{payload}".encode()).digest()
    out["id"] = f"evt_{uuid.UUID(bytes=digest[:16], version=4)}"
    out["ts"] = ts
    return out


def write_lines(path: Path, lines: list[bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(line if line.endswith(b"\n") else line + b"\n" for line in lines))


def write_day(paths: KernelPaths, date: str, events: list[dict[str, Any]]) -> Path:
    path = paths.day_file(date)
    write_lines(path, [render_event(e).encode("utf-8") for e in events])
    return path


def msg(kind: str, ts: str, text: str = "hello") -> dict[str, Any]:
    return event(
        "channel.message",
        kind,
        ts,
        name=f"{kind}-default",
        session_key=f"{kind}:default:28d3ca682f86",
        payload={"text": text, "raw_path": "/x/var/ingress/ab/evt.json"},
    )
