"""``subcon report --all``: the index over all kernels, built from real kernels (healthy
demo kernels and broken ones), its page (escaped), its JSON and the command."""

from __future__ import annotations

import errno
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from shared.kernel.paths import KernelPaths
from shared.kernels.registry import FileStore, Registry
from shared.report import overview
from shared.report.collector import Inputs, collect_report
from shared.report.overview import (
    INDEX_SCHEMA,
    KernelRow,
    ReportIndex,
    State,
    build_index,
    index_json,
    one_line,
    render_index,
)
from shared.report.renderer import write_report
from shared.timestamps import iso
from tests.report.fleet import (
    BACKOFF_UNTIL,
    HOSTILE_DIR,
    HOSTILE_SUBJECT,
    PASS_TS,
    Fleet,
    board_size,
    make_fleet,
)
from workers.cli import main

NOW = datetime.now(UTC)
HREF = re.compile(r'\bhref="([^"]*)"')


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Fleet:
    return make_fleet(tmp_path_factory.mktemp("fleet"))


@pytest.fixture(scope="module")
def built(fleet: Fleet, tmp_path_factory: pytest.TempPathFactory) -> tuple[ReportIndex, Path]:
    out = tmp_path_factory.mktemp("out")
    index = build_index(fleet.targets(), Inputs(now=NOW), out, write=True, registry="(test)")
    return index, out


def rows(index: ReportIndex) -> dict[str, KernelRow]:
    return {row.name: row for row in index.kernels}


def test_healthy_kernels_get_their_numbers_and_pages(
    fleet: Fleet, built: tuple[ReportIndex, Path]
) -> None:
    index, out = built
    assert [r.name for r in index.kernels] == list(fleet.kernels)
    by_name = rows(index)

    default = by_name["default"]
    assert default.board_lines == board_size(fleet.kernels["default"])
    assert default.last_pass is not None
    assert (default.last_pass.finished, default.last_pass.result) == (PASS_TS, "UPDATED")
    assert default.last_commit is not None and default.last_commit.subject == "memory: genesis"
    # The demo board carries lines the committer rejects: it is held back, by name.
    assert default.held == ("memory/CLAUDE.md",)
    assert default.state is State.ATTENTION and default.problems == ()
    assert default.input_problems > 0  # the demo spine's torn lines, counted, not listed
    assert len(default.input_problems_shown) == min(default.input_problems, 5)

    alpha = by_name["alpha"]
    assert HOSTILE_DIR in alpha.kernel
    assert alpha.last_commit is not None and alpha.last_commit.subject == HOSTILE_SUBJECT
    assert alpha.held == ()  # the board was just committed
    # The weaver's backoff comes from the report's own attention list.
    assert alpha.problems == (
        f"memory-weaver is backed off until {BACKOFF_UNTIL} after 3 consecutive failures",
    )
    assert alpha.state is State.ATTENTION

    beta = by_name["beta"]
    assert beta.last_pass is None and beta.board_lines == board_size(fleet.kernels["beta"])

    for name in ("default", "alpha", "beta", "nogit", "damaged", "noruntime"):
        row = by_name[name]
        assert row.page == f"{name}/index.html"
        assert (out / name / "index.html").is_file() and (out / name / "report.json").is_file()
        page = (out / name / "index.html").read_text(encoding="utf-8")
        assert 'href="../index.html"' in page  # back to the index


def test_broken_kernels_are_named_in_one_line_and_isolated(
    fleet: Fleet, built: tuple[ReportIndex, Path]
) -> None:
    index, out = built
    by_name = rows(index)
    nogit = by_name["nogit"]
    assert nogit.problems == (
        f"{fleet.kernels['nogit'].kernel} is not its own git repository: "
        "nothing is committed or held back",
    )
    assert nogit.last_commit is None and nogit.held == ()
    assert nogit.board_lines == board_size(fleet.kernels["nogit"])

    (damaged,) = by_name["damaged"].problems
    assert (
        damaged.startswith("git repository damaged: HEAD ") and "not a readable commit" in damaged
    )

    assert by_name["noruntime"].problems == (
        f"runtime dir {fleet.kernels['noruntime'].runtime} does not exist",
    )

    gone = by_name["gone"]
    assert gone.state is State.FAILED and gone.page is None and gone.board_lines is None
    assert gone.problems == (
        f"kernel dir {fleet.kernels['gone'].kernel} does not exist "
        "(`subcon --kernel-name gone init` creates it)",
    )
    assert not (out / "gone").exists()
    for row in index.kernels:
        assert all("\n" not in p and len(p) <= overview.LINE_LIMIT for p in row.problems)


def test_a_kernel_whose_report_raises_or_cannot_be_written_fails_alone(
    fleet: Fleet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_collect = collect_report
    real_write = write_report

    def collect(paths: KernelPaths, inputs: Inputs) -> Any:
        if paths == fleet.kernels["beta"]:
            raise RuntimeError("boom\nwith a second line")
        return real_collect(paths, inputs)

    def write(report: Any, out_dir: Path, *, kernel_name: str | None = None) -> Any:
        if kernel_name == "alpha":
            raise OSError(errno.ENOSPC, "No space left on device", str(out_dir / "index.html"))
        return real_write(report, out_dir, kernel_name=kernel_name)

    monkeypatch.setattr(overview, "collect_report", collect)
    monkeypatch.setattr(overview, "write_report", write)
    targets = [t for t in fleet.targets() if t.name in ("default", "alpha", "beta")]
    index = build_index(targets, Inputs(now=NOW), tmp_path, write=True)
    by_name = rows(index)
    assert by_name["beta"].state is State.FAILED
    assert by_name["beta"].problems == ("report not built: RuntimeError: boom with a second line",)
    alpha = by_name["alpha"]
    assert alpha.state is State.FAILED and alpha.page is None
    assert alpha.problems[0] == (
        f"report not written: {tmp_path / 'alpha' / 'index.html'}: No space left on device"
    )
    assert alpha.last_commit is not None  # what was collected is still shown
    assert by_name["default"].state is State.ATTENTION
    assert (tmp_path / "default" / "index.html").is_file()


def test_index_page_escapes_every_piece_of_kernel_text(built: tuple[ReportIndex, Path]) -> None:
    index, _ = built
    html = render_index(index)
    lowered = html.lower()
    assert "<script" not in lowered and "<b>bold" not in lowered and "<i>more" not in lowered
    assert "k&amp;&lt;script&gt;alert(1)" in html  # the kernel dir
    assert "memory: &lt;script&gt;alert(&#39;subject&#39;)&lt;/script&gt; &amp; &lt;b&gt;" in html
    hrefs = HREF.findall(html)
    linked = {r.name for r in index.kernels if r.page}
    assert sorted(hrefs) == sorted(["data:,", *(f"./{name}/index.html" for name in linked)])
    assert "default-src 'none'" in html and "script-src" not in html
    # Rows carry their name and state for scripts and for the browser test.
    for row in index.kernels:
        assert f'data-name="{row.name}" data-state="{row.state.value}"' in html


def test_a_tampered_name_is_never_a_path(tmp_path: Path, fleet: Fleet) -> None:
    target = overview.Target("../escape", fleet.kernels["beta"])
    index = build_index([target], Inputs(now=NOW), tmp_path / "out", write=True)
    (row,) = index.kernels
    assert row.state is State.FAILED and row.page is None
    assert row.problems[0] == "kernel name '../escape' is not a valid name: not reported"
    assert not (tmp_path / "escape").exists()
    assert overview.page_href("../x/index.html") is None
    assert overview.page_href("javascript:alert(1)") is None


def test_index_json_shape(built: tuple[ReportIndex, Path]) -> None:
    index, _ = built
    doc = json.loads(index_json(index))
    assert list(doc) == ["schema", "generated_at", "registry", "days", "kernels", "problems"]
    assert doc["schema"] == INDEX_SCHEMA == "subcon-report-index/1"
    assert doc["generated_at"] == iso(NOW) and doc["days"] == 30
    row_keys = [
        "name", "kernel", "runtime", "state", "page", "window", "board_lines", "last_pass",
        "last_commit", "held", "problems", "input_problems", "input_problems_shown",
    ]  # fmt: skip
    for row in doc["kernels"]:
        assert list(row) == row_keys
        assert row["state"] in ("ok", "attention", "failed")
    default = doc["kernels"][0]
    assert list(default["window"]) == ["start", "end", "days"]
    assert default["last_pass"] == {
        "tick": None,
        "started": None,
        "finished": PASS_TS,
        "duration_ms": None,
        "result": "UPDATED",
        "source": "weaver-report",
    }
    assert list(default["last_commit"]) == ["commit", "date", "subject", "files"]
    assert default["held"] == ["memory/CLAUDE.md"]
    gone = doc["kernels"][-1]
    assert (gone["name"], gone["page"], gone["window"], gone["last_commit"]) == (
        "gone",
        None,
        None,
        None,
    )
    assert index_json(index).endswith("}\n")


def test_one_line() -> None:
    assert one_line("a\n  b\tc\r\n") == "a b c"
    assert one_line("x" * 400) == "x" * 299 + "…"


# -- the command -------------------------------------------------------------------------


@pytest.fixture
def registered(fleet: Fleet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    registry_file = tmp_path / "kernels.json"
    monkeypatch.setenv("SUBCON_KERNELS_FILE", str(registry_file))
    monkeypatch.setenv("SUBCON_KERNEL_DIR", str(fleet.kernels["default"].kernel))
    monkeypatch.setenv("SUBCON_RUNTIME_DIR", str(fleet.kernels["default"].runtime))
    fleet.register(Registry(FileStore(registry_file)))
    return registry_file


def test_report_all_writes_the_index_and_every_page(
    fleet: Fleet, registered: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["report", "--all", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"index: {out / 'index.html'}" in printed
    assert f"gone: failed, no page\n  kernel dir {fleet.kernels['gone'].kernel}" in printed
    doc = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert doc["registry"] == str(registered)
    assert [r["name"] for r in doc["kernels"]] == [
        "default",
        *sorted(set(fleet.kernels) - {"default"}),
    ]
    for row in doc["kernels"]:
        if row["page"]:
            assert (out / row["page"]).is_file()
    assert (out / "index.html").read_text(encoding="utf-8").count('class="kernel-row"') == 7

    # --json prints the index and writes nothing.
    quiet = tmp_path / "quiet"
    assert main(["report", "--all", "--json", "--out", str(quiet)]) == 0
    printed_doc = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in printed_doc["kernels"]] == [r["name"] for r in doc["kernels"]]
    assert not quiet.exists()


def test_report_all_refuses_a_kernel_name(
    registered: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--kernel-name", "beta", "report", "--all"]) == 2
    assert "leave out --kernel-name" in capsys.readouterr().err


def test_an_unreadable_registry_still_reports_the_default_kernel(
    registered: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registered.write_text("{not json", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", "--all", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert "is not JSON" in captured.err
    doc = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert [r["name"] for r in doc["kernels"]] == ["default"]
    (problem,) = doc["problems"]
    assert problem.startswith("kernel registry not read, only the default kernel reported: ")
    assert "Problems of the index" in (out / "index.html").read_text(encoding="utf-8")
