"""``subcon report --all``: one index page over every kernel a cluster serves (issue #31).

One row per kernel (the settings' own ``default`` kernel when its dir exists, then every
registry entry, by name): its board size, its last weaver pass, its last commit, the
files held back and its problems, linking to the kernel's own report, which is written
beside the index as ``<out>/<name>/index.html`` (and ``report.json``). A row is derived
only from that kernel's :class:`~shared.report.model.Report` (its partitions, commits,
held files and attention list), plus a few cheap probes of the kernel itself (roots,
git repository, board) that name what is wrong in one line.

Isolation: each kernel is collected and written on its own; whatever goes wrong with
one (a missing dir, a damaged git repository, an unreadable file, a full disk) becomes
that kernel's row, ``failed`` with the reason in one line, and the other kernels are
still reported. Read only, as the single-kernel report: no lock, nothing in any kernel
or runtime changes, nothing is written outside the output dir.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from urllib.parse import quote

import orjson

from shared.committer.gitstate import head_commit, repo_info
from shared.constants import WEAVER
from shared.errors import InputError, SubconError
from shared.kernel.files import atomic_write_text, read_utf8
from shared.kernel.git import run_git
from shared.kernel.paths import KernelPaths
from shared.kernels.registry import DEFAULT_NAME, NAME_PATTERN
from shared.report.attention import attention
from shared.report.collector import Inputs, collect_report
from shared.report.daycounts import CACHE_NAME
from shared.report.model import CommitSummary, Report, RunRecord, Window
from shared.report.renderer import environment, write_report
from shared.timestamps import iso

INDEX_SCHEMA = "subcon-report-index/1"
INDEX_JSON = "index.json"
PAGE = "index.html"
# A problem is shown as one line of at most this many characters.
LINE_LIMIT = 300
PROBLEMS_SHOWN = 5


class State(StrEnum):
    """A row's state: ``ok``; ``attention`` (files held back or problems named);
    ``failed`` (the kernel's report could not be built or written)."""

    OK = "ok"
    ATTENTION = "attention"
    FAILED = "failed"


@dataclass(frozen=True)
class KernelRow:
    """One kernel of the index (see the ``subcon report --all`` schema in docs/report.md).

    ``page`` is the kernel's report relative to the index (``<name>/index.html``), None
    when it could not be built or written. ``problems`` are one line each; the report's
    own skipped-input list is only counted (``input_problems``, first few in
    ``input_problems_shown``): that list lives on the kernel's page.
    """

    name: str
    kernel: str
    runtime: str
    state: State
    page: str | None
    window: Window | None
    board_lines: int | None
    last_pass: RunRecord | None
    last_commit: CommitSummary | None
    held: tuple[str, ...]
    problems: tuple[str, ...]
    input_problems: int
    input_problems_shown: tuple[str, ...]


@dataclass(frozen=True)
class ReportIndex:
    """The index: every kernel's row, and problems of the index itself (a registry that
    cannot be read)."""

    schema: str
    generated_at: str
    registry: str | None
    days: int
    kernels: tuple[KernelRow, ...]
    problems: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """A kernel to report: its name (``default`` or a registry name) and its roots."""

    name: str
    paths: KernelPaths


def one_line(text: str, limit: int = LINE_LIMIT) -> str:
    """``text`` on one line (every run of whitespace, newlines included, one space),
    cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def error_line(exc: BaseException) -> str:
    """An exception as one line: a project error's own message, an OS error's file and
    reason, anything else its type and message."""
    if isinstance(exc, SubconError):
        return one_line(str(exc))
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return one_line(f"{where}{exc.strerror}")
    return one_line(f"{type(exc).__name__}: {exc}")


def _git_problem(kernel: Path) -> str | None:
    """Why the kernel's git repository cannot be used, or None (also for a repository
    with no commit yet, which is only new)."""
    if repo_info(kernel) is None:
        return f"{kernel} is not its own git repository: nothing is committed or held back"
    if head_commit(kernel) is not None:
        return None
    named = run_git(kernel, "rev-parse", "-q", "--verify", "HEAD", check=False)
    if named.returncode != 0:
        return None  # no commit yet
    shown = run_git(kernel, "cat-file", "-t", "HEAD", check=False)
    why = (shown.stderr.strip().splitlines() or ["unreadable"])[-1]
    return one_line(
        f"git repository damaged: HEAD {named.stdout.strip()[:12]} is not a readable commit ({why})"
    )


def _board_problem(paths: KernelPaths) -> str | None:
    try:
        text = read_utf8(paths.board)
    except InputError as exc:
        return one_line(f"board unreadable: {exc}")
    except OSError as exc:
        return f"board unreadable: {error_line(exc)}"
    return None if text is not None else f"board {paths.board} does not exist"


def probe(paths: KernelPaths) -> list[str]:
    """What is wrong with the kernel's roots, git repository and board, one line each."""
    if not paths.kernel.is_dir():
        return [f"kernel dir {paths.kernel} does not exist"]
    out = []
    if not paths.runtime.is_dir():
        out.append(f"runtime dir {paths.runtime} does not exist")
    try:
        git = _git_problem(paths.kernel)
    except (SubconError, OSError) as exc:
        git = f"git cannot be run: {error_line(exc)}"
    out += [git] if git else []
    board = _board_problem(paths)
    return out + ([board] if board else [])


def _last_pass(report: Report) -> RunRecord | None:
    """The weaver's newest run in the window (runs are newest first)."""
    for partition in report.partitions:
        if partition.name == WEAVER and partition.runs:
            return partition.runs[0]
    return None


def kernel_row(target: Target, report: Report, page: str | None) -> KernelRow:
    """The row of a kernel whose report was collected."""
    problems = probe(target.paths)
    problems += [
        one_line(a.text) for a in attention(report) if a.level == "warn" and a.anchor != "held"
    ]
    held = tuple(h.path for h in report.held)
    state = State.ATTENTION if problems or held else State.OK
    return KernelRow(
        name=target.name,
        kernel=report.kernel,
        runtime=report.runtime,
        state=state,
        page=page,
        window=report.window,
        board_lines=len(report.board),
        last_pass=_last_pass(report),
        last_commit=report.commits[0] if report.commits else None,
        held=held,
        problems=tuple(problems),
        input_problems=len(report.problems),
        input_problems_shown=tuple(one_line(p) for p in report.problems[:PROBLEMS_SHOWN]),
    )


def failed_row(target: Target, why: str) -> KernelRow:
    """The row of a kernel whose report could not be built: ``why`` first, then what the
    probes find (a missing dir is both the reason and a probe's finding: named once)."""
    try:
        found = probe(target.paths)
    except Exception as exc:  # the row must exist whatever the probe meets
        found = [f"probe failed: {error_line(exc)}"]
    problems = [why, *(p for p in found if p not in why)]
    return KernelRow(
        name=target.name,
        kernel=str(target.paths.kernel),
        runtime=str(target.paths.runtime),
        state=State.FAILED,
        page=None,
        window=None,
        board_lines=None,
        last_pass=None,
        last_commit=None,
        held=(),
        problems=tuple(problems),
        input_problems=0,
        input_problems_shown=(),
    )


def page_of(name: str) -> str | None:
    """``<name>/index.html`` for a name that is safe as a dir name, else None (a registry
    name is validated when added; one changed by hand in the store is not trusted)."""
    if name != DEFAULT_NAME and not NAME_PATTERN.fullmatch(name):
        return None
    return f"{name}/{PAGE}"


def report_kernel(
    target: Target,
    inputs: Inputs,
    out_dir: Path,
    *,
    write: bool,
) -> KernelRow:
    """Collect one kernel's report, write its page into ``out_dir/<name>/`` when
    ``write`` (not for ``--json``), and return its row. Never raises: whatever fails
    is the row's."""
    page = page_of(target.name)
    if page is None:
        return failed_row(target, f"kernel name {target.name!r} is not a valid name: not reported")
    if not target.paths.kernel.is_dir():
        init = (
            "subcon init"
            if target.name == DEFAULT_NAME
            else f"subcon --kernel-name {target.name} init"
        )
        return failed_row(
            target, f"kernel dir {target.paths.kernel} does not exist (`{init}` creates it)"
        )
    directory = out_dir / target.name
    inputs = replace(inputs, spine_cache=directory / CACHE_NAME, save_cache=write)
    try:
        report = collect_report_with_tick(target.paths, inputs)
    except Exception as exc:  # one kernel's trouble is its row, never the index's
        return failed_row(target, f"report not built: {error_line(exc)}")
    if not write:
        return kernel_row(target, report, page)
    try:
        write_report(report, directory, kernel_name=target.name)
    except Exception as exc:
        row = kernel_row(target, report, None)
        return replace(
            row,
            state=State.FAILED,
            problems=(f"report not written: {error_line(exc)}", *row.problems),
        )
    return kernel_row(target, report, page)


def read_tick(paths: KernelPaths) -> tuple[int | None, str | None]:
    """The kernel's tick number, and a problem line when its tick file is unreadable."""
    from shared.cadence.ticks import read_mirror, tick_file

    if not tick_file(paths).exists():
        return None, None
    try:
        return read_mirror(paths), None
    except InputError as exc:
        return None, f"{exc} (tick not shown)"


def collect_report_with_tick(paths: KernelPaths, inputs: Inputs) -> Report:
    """:func:`collect_report` with the kernel's tick read first (an unreadable tick file
    is one more problem of the report): what ``subcon report`` shows for one kernel."""
    tick, problem = read_tick(paths)
    report = collect_report(paths, replace(inputs, tick=tick))
    return replace(report, problems=(*report.problems, problem)) if problem else report


def build_index(
    targets: Iterable[Target],
    inputs: Inputs,
    out_dir: Path,
    *,
    write: bool,
    registry: str | None = None,
    problems: Iterable[str] = (),
) -> ReportIndex:
    """Every kernel's row, in ``targets`` order (each kernel's page written as it goes,
    so only one kernel's report is held at a time)."""
    now = inputs.now or datetime.now(UTC)
    inputs = replace(inputs, now=now)
    rows = tuple(report_kernel(t, inputs, out_dir, write=write) for t in targets)
    return ReportIndex(
        schema=INDEX_SCHEMA,
        generated_at=iso(now),
        registry=registry,
        days=inputs.days,
        kernels=rows,
        problems=tuple(one_line(p) for p in problems),
    )


def index_json(index: ReportIndex) -> str:
    """The index as JSON: pretty (2-space indent), raw UTF-8, trailing LF."""
    return orjson.dumps(index, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"


_SAFE_PAGE = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}/index\.html")


def page_href(page: str | None) -> str | None:
    """A row's page as a relative link (``./name/index.html``), checked, percent-encoded."""
    if page is None or not _SAFE_PAGE.fullmatch(page):
        return None
    return "./" + quote(page, safe="/")


def render_index(index: ReportIndex) -> str:
    """The index page (Jinja2, autoescaped; the same policy and style as a report)."""
    counts = {s.value: sum(1 for r in index.kernels if r.state is s) for s in State}
    held = sum(len(r.held) for r in index.kernels)
    template = environment().get_template("kernels.html.j2")
    return template.render(ix=index, counts=counts, held=held, href=page_href)


def write_index(index: ReportIndex, out_dir: Path) -> list[Path]:
    """Write ``index.html`` and ``index.json`` into ``out_dir`` (created), atomically."""
    out_dir.mkdir(parents=True, exist_ok=True)
    page, data = out_dir / PAGE, out_dir / INDEX_JSON
    atomic_write_text(page, render_index(index))
    atomic_write_text(data, index_json(index))
    return [page, data]
