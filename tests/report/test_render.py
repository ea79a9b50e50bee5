"""Rendering: hostile kernel text stays text, links are built only from checked paths."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.formats.board import parse_board
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import write_item
from shared.report.chart import coverage_calendar, events_bars, trajectory_strip
from shared.report.collector import Inputs, collect_report
from shared.report.model import CoverageDay, DayCounts, DayState
from shared.report.renderer import kernel_linker, render_html, write_report
from tests.report.helpers import new_kernel, write_fragment

HOSTILE_LINE = '- When <script>alert("board")</script> shows up, reply [[lesson-x]]'
HOSTILE_QUOTE = (
    'said: "<script>document.title=1</script> javascript:alert(2) <img src=x onerror=alert(3)>"'
)
HREF = re.compile(r'\bhref="([^"]*)"')


@pytest.fixture
def hostile(paths: KernelPaths) -> KernelPaths:
    new_kernel(paths)
    text = "# Intuition\n\n" + HOSTILE_LINE + "\n"
    paths.board.write_text(text, encoding="utf-8")
    line = parse_board(text).lines[0]
    write_fragment(
        paths,
        "2026-06-01",
        "evt_<b>",
        line.number,
        line.hash,
        "lesson-x",
        "WEAKENING",
        HOSTILE_QUOTE,
    )
    write_item(paths, "memory-weaver", "x.pending", "<iframe src=javascript:alert(4)></iframe>\n")
    return paths


def test_kernel_and_event_text_is_escaped_and_never_a_link(
    hostile: KernelPaths, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    html = render_html(collect_report(hostile, Inputs(days=1)), out)
    lowered = html.lower()
    assert "<script" not in lowered
    assert "<img" not in lowered and "<iframe" not in lowered
    assert "&lt;script&gt;alert(&#34;board&#34;)&lt;/script&gt;" in html
    assert "&lt;script&gt;document.title=1&lt;/script&gt; javascript:alert(2)" in html
    assert "&lt;iframe src=javascript:alert(4)&gt;&lt;/iframe&gt;" in html
    hrefs = HREF.findall(html)
    assert hrefs, "the page links its evidence and history"
    for href in hrefs:
        assert href.startswith(("#", "./", "../", "data:")), href
        assert "javascript" not in href.lower()
    # The policy forbids any script and any fetch even if escaping ever failed.
    assert "default-src 'none'" in html and "script-src" not in html


def test_links_point_only_at_existing_files_inside_the_kernel(
    hostile: KernelPaths, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    out.mkdir()
    link = kernel_linker(hostile.kernel, out)
    assert link("memory/CLAUDE.md") is not None
    assert (out / str(link("memory/CLAUDE.md"))).resolve() == hostile.board.resolve()
    assert link("../runtime/var/events/x.jsonl") is None
    assert link("/etc/passwd") is None
    assert link("memory/../../outside") is None
    assert link("memory/missing.md") is None
    odd = hostile.fragments_dir / "2026-06-01" / "javascript:alert(1) #?.md"
    odd.write_text("x", encoding="utf-8")
    href = link("memory/fragments/2026-06-01/javascript:alert(1) #?.md")
    assert href is not None and href.startswith("../")
    assert ":" not in href and "#" not in href and "?" not in href and " " not in href
    outside = tmp_path / "secret.md"
    outside.write_text("s", encoding="utf-8")
    (hostile.memory_dir / "leak.md").symlink_to(outside)
    assert link("memory/leak.md") is None


def test_write_report_is_self_contained(hostile: KernelPaths, tmp_path: Path) -> None:
    index, data = write_report(collect_report(hostile, Inputs(days=1)), tmp_path / "r")
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["index.html", "report.json"]
    html = index.read_text(encoding="utf-8")
    assert "<style>" in html and '<link rel="stylesheet"' not in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html)
    assert "@import" not in html and "url(" not in html
    assert data.read_text(encoding="utf-8").startswith("{")


def test_svg_charts_escape_labels_and_scale_counts() -> None:
    days = [DayCounts("2026-01-01", 2, 0, 0), DayCounts("<x>", 0, 1, 4)]
    svg = str(trajectory_strip(days, 6, 22))
    assert "<x>" not in svg and "&lt;x&gt;" in svg
    assert (
        svg.count('class="s"') == 1 and svg.count('class="w"') == 1 and svg.count('class="n"') == 1
    )
    # The busiest day's weakening bar spans the half height (10 px).
    assert 'class="w" x="6" y="11.0" width="5" height="10.0"' in svg
    cal = str(
        coverage_calendar(
            [
                CoverageDay("2026-01-05", DayState.GAP, 10, 4, 1, 0),
                CoverageDay("2026-01-06", DayState.COVERED, 3, 2, 0, 2),
            ]
        )
    )
    assert cal.count('class="day gap"') == 1 and cal.count('class="day covered"') == 1
    assert cal.count('class="bad"') == 1  # one day with malformed lines
    assert "2026-01-05: gap; 4 external of 10 events; 0 fragments; 1 malformed lines skipped" in cal


def _texts(svg: str, cls: str) -> list[str]:
    return re.findall(rf'<text class="lbl {cls}"[^>]*>([^<]*)</text>', svg)


def test_events_chart_labels_both_axes() -> None:
    days = [
        CoverageDay("2026-01-05", DayState.GAP, 10, 4, 1, 0),
        CoverageDay("2026-01-06", DayState.QUIET, 0, 0, 0, 0),
        CoverageDay("2026-01-07", DayState.COVERED, 3, 2, 0, 2),
    ]
    svg = str(events_bars(days, bar=6))
    # x: what a bar is (a UTC day), from the first to the last date; y: what is counted,
    # from 0 to the busiest day.
    assert _texts(svg, "axis-label x") == ["day (UTC)"]
    assert _texts(svg, "axis-label y") == ["events per day"]
    assert _texts(svg, "tick x") == ["2026-01-05", "2026-01-07"]
    assert _texts(svg, "tick y") == ["10", "0"]
    assert svg.count('class="axis"') == 2
    # The busiest day's bar spans the plot up to the peak tick's line.
    assert svg.count('class="all"') == 2 and svg.count('class="ext"') == 2
    # Labels are escaped like every other text of the page.
    hostile = str(events_bars([CoverageDay("<i>x</i>", DayState.GAP, 1, 1, 0, 0)]))
    assert "<i>" not in hostile and "&lt;i&gt;x&lt;/i&gt;" in hostile
    assert str(events_bars([])) == ""


def test_the_page_shows_the_events_chart_with_its_axis_labels(
    hostile: KernelPaths, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    html = render_html(collect_report(hostile, Inputs(days=3)), out)
    chart = re.search(r'<svg class="bars".*?</svg>', html, re.S)
    assert chart, "the coverage section draws the events chart"
    assert _texts(chart.group(0), "axis-label x") == ["day (UTC)"]
    assert _texts(chart.group(0), "axis-label y") == ["events per day"]
    assert "external events</span>" in html  # the chart's legend


def test_cli_writes_the_page_and_prints_the_same_json(
    hostile: KernelPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from workers.cli import main

    roots = ["--kernel", str(hostile.kernel), "--runtime", str(hostile.runtime)]
    out = tmp_path / "page"
    assert main([*roots, "report", "--out", str(out), "--days", "2"]) == 0
    said = capsys.readouterr().out
    assert f"report: {out / 'index.html'}" in said and "1 board lines" in said
    assert main([*roots, "report", "--json", "--days", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    written = json.loads((out / "report.json").read_text(encoding="utf-8"))
    printed.pop("generated_at"), written.pop("generated_at")
    for doc in (printed, written):
        for part in doc["partitions"]:
            for item in part["inbox"]:
                item.pop("age_seconds")
    assert printed == written
    assert printed["window"] == {"start": "2026-05-31", "end": "2026-06-01", "days": 2}
    assert main([*roots, "report", "--days", "0"]) == 2  # click refuses it (usage error)
    assert main(["--kernel", str(tmp_path / "none"), "report"]) == 2


def test_needs_attention_lists_what_is_stuck(paths: KernelPaths, tmp_path: Path) -> None:
    import os
    import time

    from shared.partitions.state import PartitionState, write_state
    from shared.report.attention import attention

    new_kernel(paths)
    calm = collect_report(paths, Inputs(days=1))
    assert attention(calm) == ()
    assert "Nothing looks stuck" in render_html(calm, tmp_path)

    paths.board.write_text("# B\n\n- The latest run completed and the queue is clear.\n")
    write_state(
        paths,
        "memory-weaver",
        PartitionState(
            "2026-01-01T00:00:00.000Z",
            "2026-01-01T00:00:01.000Z",
            "error",
            3,
            "2999-01-01T00:00:00.000Z",
            4,
        ),
    )
    item = write_item(paths, "memory-weaver", "old.pending", "[scan-gap] x\n")
    old = time.time() - 3 * 86_400
    os.utime(item, (old, old))
    items = attention(collect_report(paths, Inputs(days=1)))
    texts = [a.text for a in items]
    assert any(t.startswith("memory/CLAUDE.md is held back") and "status-shape" in t for t in texts)
    assert (
        "memory-weaver is backed off until 2999-01-01T00:00:00.000Z after 3 consecutive failures"
        in texts
    )
    assert any("1 inbox item waiting over a day (oldest old.pending, 3 d)" in t for t in texts)
    assert {a.level for a in items if a.anchor in ("held", "partitions")} == {"warn"}
