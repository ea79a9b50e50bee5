"""``subcon report --all`` in a real headless Chromium: the index page over a fleet of
real kernels (healthy, hostile and broken), checked through the DOM; every kernel link
resolves to a page that renders its kernel and links back to the index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from shared.kernels.registry import FileStore, Registry
from tests.report.cdp import Browser, find_chromium
from tests.report.fleet import HOSTILE_DIR, HOSTILE_SUBJECT, make_fleet
from workers.cli import main

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None, reason="chromium is not installed here (CI installs Debian's chromium)"
    ),
]

INDEX_DOM = """(() => {
  const text = (el) => el ? el.textContent.trim() : null;
  return {
    rows: [...document.querySelectorAll('tr.kernel-row')].map((tr) => ({
      name: tr.dataset.name,
      state: tr.dataset.state,
      link: tr.querySelector('a.kernel-link') ? tr.querySelector('a.kernel-link').href : null,
      linkText: text(tr.querySelector('a.kernel-link')),
      board: text(tr.querySelector('.board-lines')),
      subject: text(tr.querySelector('.last-commit .subject')),
      held: [...tr.querySelectorAll('.held-path')].map(text),
      problems: [...tr.querySelectorAll('li.problem')].map(text),
      paths: [...tr.querySelectorAll('td:first-child .mono')].map(text),
    })),
    scripts: document.scripts.length,
    title: document.title,
    hrefs: [...document.querySelectorAll('[href]')].map((a) => a.getAttribute('href')),
  };
})()"""

PAGE_DOM = """(() => ({
  heading: document.querySelector('h1').textContent.trim(),
  up: document.querySelector('nav a.up') ? document.querySelector('nav a.up').href : null,
  lines: document.querySelectorAll('tr.board-line').length,
  scripts: document.scripts.length,
}))()"""


def local_path(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file", url
    return Path(unquote(parts.path))


@pytest.fixture
def fleet_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    fleet = make_fleet(tmp_path / "fleet")
    registry_file = tmp_path / "kernels.json"
    monkeypatch.setenv("SUBCON_KERNELS_FILE", str(registry_file))
    monkeypatch.setenv("SUBCON_KERNEL_DIR", str(fleet.kernels["default"].kernel))
    monkeypatch.setenv("SUBCON_RUNTIME_DIR", str(fleet.kernels["default"].runtime))
    fleet.register(Registry(FileStore(registry_file)))
    out = tmp_path / "report"
    assert main(["report", "--all", "--out", str(out)]) == 0
    capsys.readouterr()
    doc = json.loads((out / "index.json").read_text(encoding="utf-8"))
    return {"fleet": fleet, "out": out, "doc": doc}


def test_index_over_all_kernels_in_headless_chromium(
    fleet_report: dict[str, Any], tmp_path: Path
) -> None:
    out: Path = fleet_report["out"]
    doc = fleet_report["doc"]
    url = (out / "index.html").resolve().as_uri()
    assert CHROMIUM is not None
    pages: dict[str, dict[str, Any]] = {}
    with Browser(CHROMIUM, tmp_path / "profile") as browser:
        browser.open(url)
        dom = browser.evaluate(INDEX_DOM)
        shot = browser.screenshot(tmp_path / "index.png")
        errors = browser.console_errors()
        requests = browser.requests()
        for row in dom["rows"]:
            if row["link"]:
                browser.open(row["link"])
                pages[row["name"]] = {
                    **browser.evaluate(PAGE_DOM),
                    "errors": browser.console_errors(),
                    "requests": browser.requests(),
                }
    print(f"screenshot: {shot}")

    # One row per kernel, in the index's order, with the index's numbers.
    assert [r["name"] for r in dom["rows"]] == [k["name"] for k in doc["kernels"]]
    by_name = {r["name"]: r for r in dom["rows"]}
    for kernel in doc["kernels"]:
        row = by_name[kernel["name"]]
        assert row["state"] == kernel["state"]
        assert row["board"] == (str(kernel["board_lines"]) if kernel["board_lines"] else "—")
        assert row["held"] == kernel["held"]
        assert row["problems"] == kernel["problems"]
        if kernel["page"]:
            # The link resolves to the kernel's own page, which exists.
            assert local_path(row["link"]) == (out / kernel["page"]).resolve()
            assert local_path(row["link"]).is_file() and row["linkText"] == kernel["name"]
        else:
            assert row["link"] is None
    assert by_name["gone"]["state"] == "failed"
    assert by_name["nogit"]["problems"][0].endswith(
        "is not its own git repository: nothing is committed or held back"
    )

    # Kernel text is text: the hostile dir and commit subject shown verbatim, nothing ran.
    alpha = by_name["alpha"]
    assert alpha["subject"] == HOSTILE_SUBJECT
    assert any(HOSTILE_DIR in p for p in alpha["paths"])
    assert dom["scripts"] == 0 and "alert" not in dom["title"]
    assert all(h.startswith(("./", "data:")) for h in dom["hrefs"]), dom["hrefs"]
    assert errors == [] and requests == [url]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # Each kernel's page renders its board and links back to the index.
    linked = {k["name"] for k in doc["kernels"] if k["page"]}
    assert set(pages) == linked and len(linked) == 6
    for name, page in pages.items():
        kernel = next(k for k in doc["kernels"] if k["name"] == name)
        assert name in page["heading"]
        assert page["lines"] == kernel["board_lines"]
        assert page["up"] == url
        assert page["scripts"] == 0 and page["errors"] == []
        assert len(page["requests"]) == 1
