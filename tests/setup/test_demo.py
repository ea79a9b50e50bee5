"""`init --demo`: the demo board and dossiers, and the deterministic synthetic spine."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from shared.constants import INTERNAL_KINDS
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.setup.bootstrap import init_kernel
from shared.setup.demo import board as demo_board
from shared.setup.demo.spine import DEMO_DATES, generate_spine, render_spine, write_spine

CANONICAL_ORDER = ["type", "source", "session_key", "payload", "dedup", "routing_hint", "id", "ts"]
EVENT_ID = re.compile(r"^evt_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
TS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
MARKER = re.compile(r"\[\[((?:lesson|groove)-[^\]]+)\]\]")
CJK = re.compile(r"[\u4e00-\u9fff]")


def is_external(event: dict[str, Any]) -> bool:
    kind = event.get("source", {}).get("kind")
    return isinstance(kind, str) and bool(kind) and kind not in INTERNAL_KINDS


def load_lines(path: Path) -> list[tuple[bytes, Any]]:
    """(raw line, parsed JSON or the exception) for every line of a day file."""
    out: list[tuple[bytes, Any]] = []
    for raw in path.read_bytes().split(b"\n")[:-1]:
        try:
            out.append((raw, json.loads(raw)))
        except ValueError as exc:
            out.append((raw, exc))
    return out


def hour_bands(hours: set[int]) -> list[tuple[int, int]]:
    bands: list[list[int]] = []
    for hour in sorted(hours):
        if bands and bands[-1][1] == hour - 1:
            bands[-1][1] = hour
        else:
            bands.append([hour, hour])
    return [(a, b) for a, b in bands]


@pytest.fixture
def demo(paths: KernelPaths) -> KernelPaths:
    init_kernel(paths, demo=True, force=False, seed=7)
    return paths


def test_demo_board_committed_at_genesis_rejects_left_uncommitted(demo: KernelPaths) -> None:
    committed = run_git(demo.kernel, "show", "HEAD:memory/CLAUDE.md").stdout
    assert committed == demo_board.BOARD
    assert demo.board.read_text(encoding="utf-8") == demo_board.board_with_rejects()
    status = run_git(demo.kernel, "status", "--porcelain", "-uall").stdout.splitlines()
    assert sorted(status) == [" M memory/CLAUDE.md", " M memory/entities/alice-chen.md"]
    diff = run_git(demo.kernel, "diff", "--", "memory/CLAUDE.md").stdout
    added = [line[1:] for line in diff.splitlines() if line.startswith("+") and line[1:2] != "+"]
    assert set(demo_board.REJECT_LINES) <= set(added)
    assert "- The memory board is concise and durable." in added
    assert "- Alice prefers concise responses." in added


def test_demo_board_lines_have_markers_sections_and_both_languages() -> None:
    lines = demo_board.BOARD.splitlines()
    marked = [line for line in lines if MARKER.search(line)]
    assert len(marked) >= 8
    assert sum(1 for line in lines if line.startswith("## ")) >= 3
    assert any(CJK.search(line) for line in marked)
    assert any(not CJK.search(line) for line in marked)
    assert all(line.startswith("- ") for line in marked)


def test_every_marker_has_a_node_dossier_in_7_2_format(demo: KernelPaths) -> None:
    slugs = sorted({m for line in demo_board.BOARD.splitlines() for m in MARKER.findall(line)})
    assert len(slugs) >= 8
    for slug in slugs:
        text = (demo.topics_dir / f"{slug}.md").read_text(encoding="utf-8")
        front, body = text.split("---\n")[1:3]
        assert isinstance(yaml.safe_load(front)["occurrences"], int)
        kind = "Lesson" if slug.startswith("lesson-") else "Groove"
        assert body.lstrip("\n").startswith(f"# {kind}: ")
        headings = re.findall(r"^##\s+(.*)$", body, flags=re.M)
        expected = ["Condition", "Procedure"] + (["References"] if kind == "Groove" else [])
        assert headings == expected, slug


def test_entity_dossier_has_four_sections_and_modal_tags(demo: KernelPaths) -> None:
    text = (demo.entities_dir / "alice-chen.md").read_text(encoding="utf-8")
    headings = [h.lower() for h in re.findall(r"^##\s+(.*)$", text, flags=re.M)]
    assert headings == ["what it is now", "relationship / stance", "open variables", "trend"]
    for tag in ("[observation]", "[instruction]", "[inference]", "[conditional: "):
        assert tag in text
    assert "[[alice-chen]]" in demo_board.BOARD


def test_same_seed_gives_identical_bytes_other_seed_differs() -> None:
    first = render_spine(generate_spine(7))
    again = render_spine(generate_spine(7))
    other = render_spine(generate_spine(8))
    assert first == again
    assert sorted(first.days) == [f"{d}.jsonl" for d in DEMO_DATES]
    for name in first.days:
        assert first.days[name] != other.days[name]
    assert first.by_id != other.by_id


def test_written_spine_is_deterministic_across_roots(tmp_path: Path) -> None:
    outputs = []
    for name in ("one", "two"):
        paths = KernelPaths(kernel=tmp_path / name / "k", runtime=tmp_path / name / "r")
        write_spine(paths, 7)
        files = sorted(paths.events_dir.rglob("*.jsonl"))
        outputs.append(
            [
                f.read_bytes()
                .replace(str(paths.runtime).encode(), b"<R>")
                .replace(str(paths.kernel).encode(), b"<K>")
                for f in files
            ]
        )
    assert outputs[0] == outputs[1]


def test_every_line_is_runtime_shaped_or_deliberately_malformed(demo: KernelPaths) -> None:
    for date in DEMO_DATES:
        malformed = []
        for raw, parsed in load_lines(demo.day_file(date)):
            if not isinstance(parsed, dict):
                malformed.append(raw)
                continue
            keys = list(parsed)
            assert keys == [k for k in CANONICAL_ORDER if k in parsed], keys
            assert {"type", "source", "payload", "id", "ts"} <= set(keys)
            assert EVENT_ID.match(parsed["id"]), parsed["id"]
            assert TS.match(parsed["ts"]) and parsed["ts"][:10] == date
            assert isinstance(parsed["source"]["kind"], str) and parsed["source"]["kind"]
            assert isinstance(parsed["payload"], dict)
            assert raw == json.dumps(parsed, ensure_ascii=False, separators=(",", ":")).encode()
        # Two torn writes, one of them cut inside a multibyte character. No JSON value
        # that is not an object: duoduo's gap lint throws on a `null` line (interop).
        assert len(malformed) == 2
        errors = [p for _, p in load_lines(demo.day_file(date)) if isinstance(p, ValueError)]
        assert len(errors) == 2
        assert sum(isinstance(p, UnicodeDecodeError) for p in errors) == 1
        for raw in malformed:
            decoded = raw.decode("utf-8", "replace")  # as node's readFileSync(…, "utf8")
            with pytest.raises(ValueError):
                json.loads(decoded)  # JSON.parse fails too: duoduo skips the line


def test_index_offsets_point_at_the_right_lines(demo: KernelPaths) -> None:
    events = {}
    for date in DEMO_DATES:
        for _, parsed in load_lines(demo.day_file(date)):
            if isinstance(parsed, dict):
                events[parsed["id"]] = parsed
    by_id = [json.loads(x) for x in demo.by_id_index.read_text(encoding="utf-8").splitlines()]
    assert [e["event_id"] for e in by_id] == list(events)
    for entry in by_id:
        assert list(entry) == ["event_id", "partition", "byte_offset", "byte_len"]
        data = (demo.events_dir / entry["partition"]).read_bytes()
        chunk = data[entry["byte_offset"] : entry["byte_offset"] + entry["byte_len"]]
        assert chunk.endswith(b"\n") and b"\n" not in chunk[:-1]
        assert json.loads(chunk)["id"] == entry["event_id"]
    by_session = [
        json.loads(x) for x in demo.by_session_index.read_text(encoding="utf-8").splitlines()
    ]
    with_key = [e for e in events.values() if e.get("session_key")]
    assert [s["event_id"] for s in by_session] == [e["id"] for e in with_key]
    for entry in by_session:
        event = events[entry["event_id"]]
        assert entry["session_key"] == event["session_key"] and entry["ts"] == event["ts"]
        data = (demo.events_dir / entry["partition"]).read_bytes()
        chunk = data[entry["byte_offset"] : entry["byte_offset"] + entry["byte_len"]]
        assert json.loads(chunk)["id"] == entry["event_id"]


def test_spine_content_exercises_the_board(demo: KernelPaths) -> None:
    events = [p for d in DEMO_DATES for _, p in load_lines(demo.day_file(d)) if isinstance(p, dict)]
    human = [e for e in events if e["type"] == "channel.message"]
    kinds = {e["source"]["kind"] for e in human}
    assert {"stdio", "feishu"} <= kinds
    feishu = next(e for e in human if e["source"]["kind"] == "feishu")
    assert re.match(r"^lark:oc_[0-9a-f]+:[0-9a-f]+$", feishu["session_key"])
    assert feishu["source"]["channel_id"].startswith("feishu-oc_")
    stdio = next(e for e in human if e["source"]["kind"] == "stdio")
    assert re.match(r"^stdio:default:[0-9a-f]{12}$", stdio["session_key"])
    texts = [e["payload"]["text"] for e in human]
    assert any(CJK.search(t) for t in texts) and any(not CJK.search(t) for t in texts)
    assert any(t.lower().startswith("from now on") for t in texts)
    assert any(t.startswith("以后") for t in texts)
    reads = [e for e in events if e["type"] == "agent.tool_use" and e["source"]["kind"] == "runner"]
    assert any("memory/topics/lesson-" in e["payload"]["input_summary"] for e in reads)
    assert all(e["payload"]["tool_name"] == "Read" for e in reads)
    types = {e["type"] for e in events}
    assert {"agent.result", "job.spawn", "job.complete", "system.cadence_tick"} <= types
    internal = {e["source"]["kind"] for e in events if not is_external(e)}
    assert {"system", "meta", "runner", "route", "gateway", "cadence"} <= internal
    # corrections come in a later turn of the same session, after the agent's reply
    from shared.setup.demo.scripts import LINE_SCRIPTS

    corrections = {c for s in LINE_SCRIPTS.values() for c in s.corrections}
    assert sum(1 for t in texts if t in corrections) >= 5


def test_external_events_form_several_hour_bands(demo: KernelPaths) -> None:
    for date in DEMO_DATES:
        hours = {
            int(p["ts"][11:13])
            for _, p in load_lines(demo.day_file(date))
            if isinstance(p, dict) and is_external(p)
        }
        assert len(hour_bands(hours)) >= 3, date


def test_gap_check_on_demo_kernel_finds_newest_day(demo: KernelPaths) -> None:
    gap_module = pytest.importorskip("shared.spine.gap")
    from shared.settings import Settings

    settings = Settings(kernel_dir=demo.kernel, runtime_dir=demo.runtime)
    gap = gap_module.find_gap(demo, settings)
    assert gap is not None
    assert gap.date == DEMO_DATES[-1]
    assert len(gap.bands) >= 3


def test_demo_into_runtime_with_history_keeps_the_spine(paths: KernelPaths) -> None:
    paths.events_dir.mkdir(parents=True)
    day = paths.day_file("2025-12-31")
    day.write_bytes(b'{"type":"x"}\n')
    report = init_kernel(paths, demo=True, force=False)
    assert report.spine is None and "not written" in report.notes[0]
    assert sorted(p.name for p in paths.events_dir.glob("*.jsonl")) == ["2025-12-31.jsonl"]
    assert day.read_bytes() == b'{"type":"x"}\n'


def test_demo_force_over_existing_demo_kernel(demo: KernelPaths) -> None:
    """A second `init --demo --force`: no new commit, spine untouched, demo files rewritten."""
    head = run_git(demo.kernel, "rev-parse", "HEAD").stdout
    day = demo.day_file(DEMO_DATES[0]).read_bytes()
    (demo.topics_dir / "lesson-reply-first.md").write_text("edited\n", encoding="utf-8")
    report = init_kernel(demo, demo=True, force=True, seed=99)
    assert run_git(demo.kernel, "rev-parse", "HEAD").stdout == head
    assert report.git == "existing-repo" and report.spine is None
    assert demo.day_file(DEMO_DATES[0]).read_bytes() == day
    assert "kernel:memory/topics/lesson-reply-first.md" in report.overwritten
    assert (demo.topics_dir / "lesson-reply-first.md").read_text(encoding="utf-8") == (
        demo_board.TOPICS["lesson-reply-first"]
    )
    assert demo.board.read_text(encoding="utf-8") == demo_board.board_with_rejects()
