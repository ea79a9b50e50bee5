"""The demo kernel's report in a real headless Chromium, checked through the DOM.

Driven over the DevTools protocol (``--remote-debugging-pipe``, see ``cdp.py``): the
board's lines with their trajectories, a removed line's history naming its commit, a
held-back line's gate, no console errors, no request leaving the page, and a hostile
event rendered as text. A screenshot is saved in the test's temp dir.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.formats.board import parse_board, read_board
from shared.formats.effectiveness import read_effectiveness
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.report.model import Trajectory
from shared.setup.demo.board import REJECT_LINES
from tests.report.cdp import Browser, find_chromium
from workers.cli import main

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None, reason="chromium is not installed here (CI installs Debian's chromium)"
    ),
]

SESSION = "stdio:default:28d3ca682f86"
HOSTILE = (
    "Please review a pull request for billing "
    "<script>document.title='pwned'</script> javascript:alert(1)"
)

DOM = """(() => {
  const text = (el) => el ? el.textContent.trim() : null;
  return {
    rows: [...document.querySelectorAll('tr.board-line')].map((tr) => ({
      text: text(tr.querySelector('.linetext')),
      marker: tr.dataset.marker,
      trajectory: text(tr.querySelector('.trajectory')),
      history: tr.querySelector('a[href^="#line-"]').getAttribute('href'),
    })),
    histories: [...document.querySelectorAll('.line-history')].map((h) => ({
      id: h.id, marker: h.dataset.marker, onBoard: h.dataset.onBoard,
      changes: [...h.querySelectorAll('tr.change')].map((c) => ({
        kind: c.dataset.kind, commit: c.dataset.commit, shown: text(c.querySelector('.commit')),
        reason: text(c.cells[5]),
      })),
    })),
    held: [...document.querySelectorAll('.held-file')].map((f) => ({
      path: f.dataset.path,
      rows: [...f.querySelectorAll('tr.rejected')].map((r) => [...r.cells].map(text)),
    })),
    quotes: [...document.querySelectorAll('blockquote.quote')].map((q) => q.textContent),
    scripts: document.scripts.length,
    title: document.title,
    hrefs: [...document.querySelectorAll('[href]')].map((a) => a.getAttribute('href')),
    sources: document.querySelectorAll('[src]').length,
    partitions: [...document.querySelectorAll('.partition')].map((p) => p.dataset.name),
    calendarDays: document.querySelectorAll('svg.calendar rect.day').length,
  };
})()"""


def cli(paths: KernelPaths, *args: str) -> None:
    assert main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args]) == 0


def append(paths: KernelPaths, *args: str) -> None:
    cli(paths, "spine", "append", *args)


@pytest.fixture
def demo_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    directory = tmp_path / "demo"
    paths = KernelPaths(directory / "kernel", directory / "runtime")
    from shared.setup.bootstrap import init_kernel

    init_kernel(paths, demo=True, force=False, seed=7)
    # A hostile external event today (the newest day: woven first), and the agent's reply.
    append(
        paths,
        "--type",
        "channel.message",
        "--kind",
        "stdio",
        "--name",
        "stdio-default",
        "--session-key",
        SESSION,
        "--text",
        HOSTILE,
    )
    append(
        paths,
        "--type",
        "agent.result",
        "--kind",
        "runner",
        "--name",
        "runner",
        "--session-key",
        SESSION,
        "--text",
        "Ran the suite first: test_invoice_total fails.",
    )
    for _ in range(4):
        assert main(["demo", str(directory), "--json"]) == 0
    capsys.readouterr()
    genesis = parse_board(run_git(paths.kernel, "show", "HEAD:memory/CLAUDE.md").stdout)
    working = read_board(paths.board)
    removed = {m for line in genesis.lines for m in line.markers} - {
        m for line in working.lines for m in line.markers
    }
    assert removed, "precondition: the weaver removed a board line in the working tree"

    # The operator deletes the reject-worthy demo notes: the board (and its removals) land.
    text = paths.board.read_text(encoding="utf-8")
    for line in REJECT_LINES:
        text = text.replace(line + "\n", "")
    paths.board.write_text(text.replace("\n## Notes\n", "\n"), encoding="utf-8")
    cli(paths, "commit")
    removal = run_git(paths.kernel, "log", "-n1", "--format=%H", "--", "memory/CLAUDE.md").stdout
    assert run_git(paths.kernel, "status", "--porcelain", "--", "memory/CLAUDE.md").stdout == ""

    # Then a self-referential line: the committer holds the board back again.
    with open(paths.board, "a", encoding="utf-8") as handle:
        handle.write("\n## Notes\n" + REJECT_LINES[0] + "\n")
    cli(paths, "commit")
    cli(paths, "tick")
    cli(paths, "tick")
    out = tmp_path / "report"
    cli(paths, "report", "--out", str(out), "--days", "365")
    capsys.readouterr()
    return {"paths": paths, "out": out, "removed": removed, "removal": removal.strip()}


def test_demo_report_in_headless_chromium(demo_report: dict[str, Any], tmp_path: Path) -> None:
    paths: KernelPaths = demo_report["paths"]
    index = demo_report["out"] / "index.html"
    url = index.resolve().as_uri()
    assert CHROMIUM is not None
    with Browser(CHROMIUM, tmp_path / "profile") as browser:
        browser.open(url)
        dom = browser.evaluate(DOM)
        shot = browser.screenshot(tmp_path / "report.png")
        errors = browser.console_errors()
        requests = browser.requests()
    print(f"screenshot: {shot}")

    # The board's lines, each with the trajectory of its effectiveness file.
    board = read_board(paths.board)
    expected = []
    for line in board.lines:
        eff = None
        if line.marker:
            eff = read_effectiveness(paths.effectiveness_dir / f"{line.marker}.md")
        expected.append((line.text, Trajectory.of(eff.trajectory if eff else None).value))
    assert [(r["text"], r["trajectory"]) for r in dom["rows"]] == expected
    assert {t for _, t in expected} & {"STRENGTHENING", "WEAKENING", "NEUTRAL"}
    ids = {h["id"] for h in dom["histories"]}
    assert all(r["history"][1:] in ids for r in dom["rows"])

    # A removed line's history names the commit that removed it.
    removal = demo_report["removal"]
    for marker in demo_report["removed"]:
        (hist,) = [h for h in dom["histories"] if h["marker"] == marker]
        assert hist["onBoard"] == "no"
        last = hist["changes"][-1]
        assert (last["kind"], last["commit"], last["shown"]) == ("remove", removal, removal[:7])
        # The demo's removal is the user retiring the weekly report: the reason names
        # the evidence class and what the user said.
        assert "[obsolete]" in last["reason"] and "retired" in last["reason"], last

    # The held-back line shows its gate.
    held = {f["path"]: f["rows"] for f in dom["held"]}
    rows = held["memory/CLAUDE.md"]
    assert any(row[1] == "self-reference" and row[3] == REJECT_LINES[0][2:] for row in rows), rows

    # The hostile event is quoted as text; nothing in it ran.
    assert any(
        "<script>document.title='pwned'</script> javascript:alert(1)" in q for q in dom["quotes"]
    )
    assert dom["scripts"] == 0 and "pwned" not in dom["title"]
    assert all(h.startswith(("#", "./", "../", "data:")) for h in dom["hrefs"]), dom["hrefs"]
    assert dom["sources"] == 0

    assert errors == []
    assert requests == [url]
    assert {"memory-weaver", "memory-committer"} <= set(dom["partitions"])
    assert dom["calendarDays"] == 365
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000

    doc = json.loads((demo_report["out"] / "report.json").read_text(encoding="utf-8"))
    assert [r["text"] for r in doc["board"]] == [r["text"] for r in dom["rows"]]
