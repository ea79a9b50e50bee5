"""Render a :class:`~shared.report.model.Report` to a self-contained static page.

Templating is Jinja2 with autoescape on for every template: kernel and event text
(board lines, fragment quotes, commit subjects, inbox bodies, audit quotes) reaches the
page only through ``{{ ... }}``, which HTML-escapes it, so an event reading
``<script>…</script>`` is shown as text. Jinja2 was chosen over hand-built strings
because escaping is then the default rather than something each call site must
remember, and over heavier site generators because it is one small, widely audited
dependency that renders in-process. The page also carries a Content-Security-Policy
that allows no script, no network fetch and no external font, so the report works
offline and stays inert even if a future template forgot to escape.

Links into the kernel are built here, never taken from kernel text: a kernel-relative
path is resolved under the kernel dir, must name an existing regular file inside it,
and becomes a percent-encoded relative link from the output dir (``./`` or ``../``
first, so it can never be read as a URL scheme such as ``javascript:``).
"""

from __future__ import annotations

import os
import webbrowser
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined

from shared.kernel.files import atomic_write_text
from shared.report.attention import attention
from shared.report.chart import coverage_calendar, events_bars, trajectory_strip
from shared.report.collector import report_json
from shared.report.model import DayState, Report

INDEX = "index.html"
JSON_FILE = "report.json"


def environment() -> Environment:
    """The Jinja2 environment: package templates, autoescape on, undefined is an error."""
    return Environment(
        loader=PackageLoader("shared.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def kernel_linker(kernel: Path, out_dir: Path) -> Callable[[str], str | None]:
    """``rel -> href`` for kernel files: a safe relative link, or None when ``rel`` does
    not name a regular file inside the kernel."""
    root = Path(os.path.realpath(kernel))
    base = Path(os.path.realpath(out_dir))

    def link(rel: str) -> str | None:
        if not rel or "\0" in rel or rel.startswith("/"):
            return None
        target = Path(os.path.realpath(root / rel))
        if root not in target.parents or not target.is_file():
            return None
        relative = os.path.relpath(target, base).replace(os.sep, "/")
        href = quote(relative, safe="/")
        return href if href.startswith("../") else "./" + href

    return link


def _age(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 172800:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} d"


def render_html(report: Report, out_dir: Path, *, kernel_name: str | None = None) -> str:
    """The page for ``report``, with kernel links relative to ``out_dir``. With
    ``kernel_name`` (``subcon report --all``) the page names its kernel and links back to
    the index over all kernels, ``../index.html``."""
    template = environment().get_template("index.html.j2")
    counts = {t: 0 for t in ("STRENGTHENING", "NEUTRAL", "WEAKENING", "NO-EFF")}
    for row in report.board:
        counts[row.trajectory.value] += 1
    return template.render(
        r=report,
        attention=attention(report),
        counts=counts,
        removed=[h for h in report.histories if not h.on_board],
        pending=sum(len(p.inbox) for p in report.partitions),
        gaps=sum(1 for d in report.coverage if d.state in (DayState.GAP, DayState.TAIL)),
        strip=trajectory_strip,
        strip_width=max(1, min(12, 240 // max(1, report.window.days))),
        calendar=coverage_calendar(report.coverage),
        bars=events_bars(report.coverage, bar=max(2, min(12, 900 // max(1, report.window.days)))),
        link=kernel_linker(Path(report.kernel), out_dir),
        age=_age,
        kernel_name=kernel_name,
    )


def write_report(report: Report, out_dir: Path, *, kernel_name: str | None = None) -> list[Path]:
    """Write ``index.html`` and ``report.json`` into ``out_dir`` (created), atomically."""
    out_dir.mkdir(parents=True, exist_ok=True)
    index = out_dir / INDEX
    data = out_dir / JSON_FILE
    atomic_write_text(index, render_html(report, out_dir, kernel_name=kernel_name))
    atomic_write_text(data, report_json(report))
    return [index, data]


def open_in_browser(index: Path) -> bool:
    """Open the page in the user's browser; False when no browser is available."""
    return webbrowser.open(index.resolve().as_uri())
