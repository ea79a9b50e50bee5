"""Lone surrogates: the original cuts strings by UTF-16 unit, so its spine holds
escapes such as ``\\ud83d``. Every output path keeps working and writes valid UTF-8."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.jsontext import compact, pretty, scrub
from shared.kernel.files import atomic_write_text
from shared.kernel.paths import KernelPaths
from shared.spine.event import parse_event_line, render_event

ROOT = Path(__file__).resolve().parents[2]

# Bytes as duoduo's JSON.stringify wrote them (result_summary cut after a high surrogate).
JOB_LINE = (
    b'{"type":"job.complete","source":{"kind":"job","name":"d"},"session_key":"job:d.1",'
    b'"payload":{"job_id":"d","result_summary":"done \\ud83d"},'
    b'"id":"evt_11111111-1111-4111-8111-111111111111","ts":"2026-01-05T11:00:00.000Z"}'
)
CORRECTION_LINE = (
    b'{"type":"channel.message","source":{"kind":"stdio","name":"stdio-default"},'
    b'"session_key":"stdio:default:1","payload":{"text":"No, that is wrong \\udc00 \\u2014 I told'
    b' you: lead with the answer."},"id":"evt_33333333-3333-4333-8333-333333333333",'
    b'"ts":"2026-01-05T11:06:00.000Z"}'
)


def test_json_renders_keep_the_escape_as_json_stringify_does() -> None:
    event = parse_event_line(JOB_LINE, "d.jsonl", 1)
    assert event["payload"]["result_summary"] == "done \ud83d"
    assert render_event(event).encode("utf-8") == JOB_LINE
    assert compact({"t": "a\udc00b中"}) == '{"t":"a\\udc00b中"}'
    assert pretty({"t": "\ud83d"}) == '{\n  "t": "\\ud83d"\n}\n'
    assert json.loads(compact({"t": "x\ud83d"})) == {"t": "x\ud83d"}


def test_plain_text_writes_replace_the_lone_surrogate(tmp_path: Path) -> None:
    assert scrub("lead \ud83d 先") == "lead \ufffd 先"
    target = tmp_path / "f.md"
    atomic_write_text(target, "quote: done \ud83d\n")
    assert target.read_bytes() == "quote: done \ufffd\n".encode()


def _cli(paths: KernelPaths, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SUBCON_", "ALADUO_"))}
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONIOENCODING"] = "utf-8"  # strict errors, as on a real terminal
    return subprocess.run(
        [sys.executable, "-m", "workers.cli", "--kernel", str(paths.kernel),
         "--runtime", str(paths.runtime), *args],
        capture_output=True, env=env, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def kernel(paths: KernelPaths) -> KernelPaths:
    assert _cli(paths, "init").returncode == 0
    paths.events_dir.mkdir(parents=True, exist_ok=True)
    day = paths.day_file("2026-01-05")
    day.write_bytes(JOB_LINE + b"\n" + CORRECTION_LINE + b"\n")
    index = [
        {"event_id": "evt_11111111-1111-4111-8111-111111111111", "partition": day.name,
         "byte_offset": 0, "byte_len": len(JOB_LINE) + 1},
        {"event_id": "evt_33333333-3333-4333-8333-333333333333", "partition": day.name,
         "byte_offset": len(JOB_LINE) + 1, "byte_len": len(CORRECTION_LINE) + 1},
    ]  # fmt: skip
    paths.events_index_dir.mkdir(parents=True, exist_ok=True)
    paths.by_id_index.write_text("".join(compact(row) + "\n" for row in index))
    paths.board.write_text("- Lead with the answer, no filler openers.\n")
    return paths


def test_spine_read_and_get_print_the_lines_byte_for_byte(kernel: KernelPaths) -> None:
    read = _cli(kernel, "spine", "read", "20260105[11,11]")
    assert (read.returncode, read.stderr) == (0, b"")
    rendered = CORRECTION_LINE.replace(b"\\u2014", "—".encode())  # JSON.stringify's form
    assert read.stdout == JOB_LINE + b"\n" + rendered + b"\n"
    got = _cli(kernel, "spine", "get", "evt_11111111-1111-4111-8111-111111111111")
    assert (got.returncode, got.stdout) == (0, JOB_LINE + b"\n")


def test_tick_judges_the_day_and_writes_valid_utf8_fragments(kernel: KernelPaths) -> None:
    tick = _cli(kernel, "tick", "--json")
    assert tick.returncode == 0, tick.stderr.decode()
    report = json.loads(tick.stdout)
    assert report["memory_check"]["gap"]["tokens"] == ["20260105[11,11]"]
    day_dir = kernel.fragment_day_dir("2026-01-05")
    fragments = [p for p in day_dir.iterdir() if p.suffix == ".md"]
    assert len(fragments) == 1
    assert "_evt_33333333-3333-4333-8333-333333333333_" in fragments[0].name
    text = fragments[0].read_bytes().decode("utf-8")  # strict: valid UTF-8
    assert "wrong \ufffd" in text
    assert not (kernel.inbox_dir("memory-weaver") / "scan-gap.md.pending").exists()
