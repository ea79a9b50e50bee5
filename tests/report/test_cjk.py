"""Chinese board text renders as glyphs, not empty boxes, in the report (issue #32).

The page's font stacks name CJK-capable faces after the Latin ones; in a real headless
Chromium the demo board's Chinese lines are drawn with a CJK font, and two different
Chinese strings leave different pixels (missing glyphs would all be the same box).
CI installs Debian's fonts-wqy-zenhei (.ci/run).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from shared.kernel.paths import KernelPaths
from shared.report.renderer import render_html
from shared.setup.bootstrap import init_kernel
from tests.report.cdp import Browser, find_chromium
from workers.cli import main

CHROMIUM = find_chromium()
CJK_FACES = ("WenQuanYi Zen Hei", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei")
CJK_FAMILY = re.compile(r"CJK|WenQuanYi|PingFang|YaHei|Han Sans|Hiragino|Heiti|SimHei", re.I)
FIRST, SECOND = "记住用户偏好", "先给结论再说"
# Private-use code points of plane 16: no font draws them, so each is the same empty box.
TOFU_A = "".join(chr(0x10FFF0 + i) for i in range(len(FIRST)))
TOFU_B = "".join(chr(0x10FFF8 - i) for i in range(len(FIRST)))
PROBES = {"first": FIRST, "second": SECOND, "again": FIRST, "tofu_a": TOFU_A, "tofu_b": TOFU_B}

# One box per probe text in the body's font, all at whole-pixel positions of one size
# (so equal drawings give equal screenshots); and the first Chinese board line.
PROBE = """((probes) => {
  const out = {};
  Object.entries(probes).forEach(([id, text], i) => {
    const div = document.createElement('div');
    div.id = id;
    div.textContent = text;
    div.style.cssText = `position:absolute;left:8px;top:${8 + i * 56}px;width:260px;`
      + 'height:48px;font-size:32px;line-height:48px;white-space:nowrap;overflow:hidden;'
      + 'background:#fff;color:#000;z-index:99';
    document.body.appendChild(div);
    const r = div.getBoundingClientRect();
    out[id] = {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height};
  });
  const line = [...document.querySelectorAll('tr.board-line .linetext')].find(
    (el) => /[\u4e00-\u9fff]/.test(el.textContent));
  if (line) line.id = 'cjk-line';
  out.line = line ? line.textContent : null;
  return out;
})(PROBES_JSON)"""


def _style(html: str) -> str:
    match = re.search(r"<style>(.*?)</style>", html, re.S)
    assert match, "the page carries its stylesheet inline"
    return match.group(1)


def _stack(css: str, selector: str) -> str:
    match = re.search(re.escape(selector) + r"\s*\{[^}]*?font(?:-family)?:\s*([^;]+);", css)
    assert match, selector
    return match.group(1)


def test_font_stacks_name_cjk_faces_before_the_generic_family(
    paths: KernelPaths, tmp_path: Path
) -> None:
    from shared.report.collector import Inputs, collect_report

    init_kernel(paths, demo=False, force=False)
    css = _style(render_html(collect_report(paths, Inputs(days=1)), tmp_path))
    for selector, generic in (("body", "sans-serif"), (".mono, code", "monospace")):
        stack = _stack(css, selector)
        faces = [f.strip().strip('"') for f in stack.split(",")]
        assert faces[-1] == generic, stack
        cjk = [f for f in faces if CJK_FAMILY.search(f)]
        assert len(cjk) >= 3, stack
    body = _stack(css, "body")
    for face in CJK_FACES:
        assert f'"{face}"' in body, (face, body)


@pytest.fixture
def demo_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    paths = KernelPaths(tmp_path / "kernel", tmp_path / "runtime")
    init_kernel(paths, demo=True, force=False)
    out = tmp_path / "report"
    args = ["--kernel", str(paths.kernel), "--runtime", str(paths.runtime)]
    assert main([*args, "report", "--out", str(out)]) == 0
    capsys.readouterr()
    return out / "index.html"


def _cjk_font_installed() -> bool:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    found = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True)
    return bool(found.stdout.strip())


@pytest.mark.slow
@pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed here (CI installs Debian's chromium)"
)
def test_chinese_renders_as_glyphs_in_headless_chromium(demo_report: Path, tmp_path: Path) -> None:
    assert _cjk_font_installed(), (
        "no font with Chinese glyphs (fc-list :lang=zh is empty): the report would show "
        "empty boxes; install fonts-wqy-zenhei (.ci/run does)"
    )
    assert CHROMIUM is not None
    with Browser(CHROMIUM, tmp_path / "profile") as browser:
        browser.open(demo_report.resolve().as_uri())
        probe: dict[str, Any] = browser.evaluate(PROBE.replace("PROBES_JSON", json.dumps(PROBES)))
        assert probe["line"], "precondition: the demo board has Chinese lines"
        line_fonts = browser.platform_fonts("#cjk-line")
        probe_fonts = browser.platform_fonts("#first")
        shots = {name: browser.clip(probe[name]) for name in PROBES}
        browser.screenshot(tmp_path / "report.png")
    print(f"screenshot: {tmp_path / 'report.png'}")

    # The board line's Han characters and the probe's were drawn with a CJK face.
    for fonts in (line_fonts, probe_fonts):
        drawn = [f for f in fonts if f["glyphCount"] and CJK_FAMILY.search(f["familyName"])]
        assert drawn, fonts
    # Equal drawings give equal screenshots: the same text twice, and two strings of
    # empty boxes. Two different Chinese strings differ, and neither is boxes.
    assert shots["first"] == shots["again"]
    assert shots["tofu_a"] == shots["tofu_b"]
    assert shots["first"] != shots["second"]
    assert shots["first"] != shots["tofu_a"] and shots["second"] != shots["tofu_a"]
