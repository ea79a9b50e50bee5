"""Inbox items as the operator sees them (issue #32, low): a name with a newline or
another control character is printed escaped (one line per item), and an item whose
bytes are not UTF-8 is reported as such (``name:LINE:COL: not valid UTF-8``) and left
in place byte for byte, never routed on its garbled text or acked."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.constants import WEAVER
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import InboxItem, list_items
from shared.review.reviewer import review_paths
from shared.weaver.settle.directed import route_item
from workers.cli import main


def cli(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def inbox(paths: KernelPaths) -> Path:
    directory = paths.inbox_dir(WEAVER)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def test_weave_prints_item_names_escaped(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    (inbox(demo) / "ev\nil.pending").write_text("please look\n", encoding="utf-8")
    (inbox(demo) / "tab\there.pending").write_text("hello\n", encoding="utf-8")
    assert cli(demo, "weave", "--no-commit") == 0
    lines = capsys.readouterr().out.splitlines()
    assert "pending: ev\\nil.pending, tab\\there.pending" in lines
    notes = [line for line in lines if line.startswith("note: ")]
    assert notes[0].startswith("note: ev\\nil.pending: the item name must not contain")
    # no line begins with what followed the newline in the name
    assert not any(line.startswith("il.pending") for line in lines)
    assert cli(demo, "status") == 0
    assert "    ev\\nil.pending" in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(
    "body",
    [
        b"[sink] compact memory/CLAUDE.md \xff\xfe now\n",  # a route, if read garbled
        b"ok\ncaf\xe9 latte for everyone\n",  # no route at all
    ],
    ids=["routable", "prose"],
)
def test_a_non_utf8_item_is_reported_as_such_and_kept(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str], body: bytes
) -> None:
    item = inbox(demo) / "bad.pending"
    item.write_bytes(body)
    where = "1:33" if body.startswith(b"[sink]") else "2:4"
    assert cli(demo, "weave", "--no-commit") == 0
    out = capsys.readouterr().out
    assert f"note: bad.pending:{where}: not valid UTF-8; left in place" in out, out
    assert "no route" not in out
    assert "acked: none" in out
    assert item.read_bytes() == body  # left in place, byte for byte
    # a second pass says the same and still keeps it
    assert cli(demo, "weave", "--no-commit") == 0
    assert f"bad.pending:{where}: not valid UTF-8" in capsys.readouterr().out
    assert item.read_bytes() == body


def test_listing_names_the_bad_byte_and_routing_refuses_the_item(demo: KernelPaths) -> None:
    (inbox(demo) / "bad.pending").write_bytes(b"[memory:claude-lint] \xe4\xb8\xad\xff\n")
    (found,) = list_items(demo, WEAVER)
    assert found.problem == "1:23: not valid UTF-8"  # the column counts characters
    route = route_item(found)
    assert route.route == "unclear"
    assert route.reason.startswith("bad.pending:1:23: not valid UTF-8; left in place")
    assert route_item(InboxItem("ok.pending", "[memory:claude-lint] fine")).route == "update"


def test_enqueue_names_line_and_column_of_a_non_utf8_file(
    demo: KernelPaths, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = tmp_path / "body.md"
    body.write_bytes(b"first line\nsecond \xff line\n")
    assert cli(demo, "enqueue", "--partition", WEAVER, "--file", str(body)) == 2
    assert f"{body}:2:8: not valid UTF-8" in capsys.readouterr().err
    assert list_items(demo, WEAVER) == []


def test_file_names_in_review_and_commit_output_are_escaped(
    repo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same for kernel file names: ``review``, the decision log and ``commit
    --dry-run`` print one line per file, whatever its name holds."""
    odd = repo.kernel / "memory" / "entities" / "new\nline.md"
    odd.parent.mkdir(parents=True, exist_ok=True)
    odd.write_text("# new\n\n- The latest run completed and the queue is clear.\n", "utf-8")
    assert main(["review", str(odd)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith(str(odd).replace("\n", "\\n") + ":3: reject ") for line in out)
    assert not any(line.startswith("line.md") for line in out)
    (decision,) = [d for d in review_paths([odd]) if d.rejected]
    assert "\n" not in decision.log_line() and "new\\nline.md:3" in decision.log_line()
    assert cli(repo, "commit", "--dry-run") == 0
    out = capsys.readouterr().out.splitlines()
    assert "would hold back memory/entities/new\\nline.md:3 (" in "\n".join(out)
    assert not any(line.startswith("line.md") for line in out)
