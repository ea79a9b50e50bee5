"""Partition inbox listing, names, writes, acks and the signal ledger (docs/formats.md §5)."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime

import pytest

from shared.errors import InputError, NameRejected
from shared.kernel.paths import KernelPaths
from shared.partitions.inbox import (
    InboxItem,
    ack_item,
    ack_target,
    code_unit_key,
    generate_item_name,
    list_items,
    parse_ledger,
    read_ledger,
    render_inbox_block,
    render_ledger,
    validate_item_name,
    write_item,
    write_ledger,
)

W = "memory-weaver"


def test_listing_filters_orders_and_trims(paths: KernelPaths) -> None:
    inbox = paths.inbox_dir(W)
    inbox.mkdir(parents=True)
    (inbox / "scan-gap.md.pending").write_text("[scan-gap] 20260105[03,05]\n")
    (inbox / "2026-01-05T10-00-00-000Z-k3j9.pending").write_text(
        "  - [ ] [memory:claude-lint] x \n"
    )
    (inbox / "entity-converge-acme.md.pending").write_text("[entity-converge] [[acme]]\n")
    (inbox / "legacy.json").write_text('{"a": 1}')
    (inbox / ".memory-signals.json").write_text("[]\n")
    (inbox / ".hidden.pending").write_text("no")
    (inbox / "notes.txt").write_text("no")
    (inbox / "dir.pending").mkdir()
    outside = paths.runtime / "secret.txt"
    outside.write_text("secret")
    os.symlink(outside, inbox / "link.pending")
    items = list_items(paths, W)
    assert items == [
        InboxItem("2026-01-05T10-00-00-000Z-k3j9.pending", "- [ ] [memory:claude-lint] x"),
        InboxItem("entity-converge-acme.md.pending", "[entity-converge] [[acme]]"),
        InboxItem("legacy.json", '{"a": 1}'),
        InboxItem("scan-gap.md.pending", "[scan-gap] 20260105[03,05]"),
    ]


def test_missing_inbox_lists_nothing(paths: KernelPaths) -> None:
    assert list_items(paths, W) == []


def test_non_utf8_body_is_read_with_replacement(paths: KernelPaths) -> None:
    inbox = paths.inbox_dir(W)
    inbox.mkdir(parents=True)
    (inbox / "a.pending").write_bytes(b"ok \xff\xfe done\n")
    assert list_items(paths, W)[0].body == "ok \ufffd\ufffd done"


def test_code_unit_order_differs_from_code_point_order_outside_bmp() -> None:
    names = ["\U0001f600.pending", "\uff5e.pending"]
    # Python sorts by code point (U+FF5E < U+1F600); JS by UTF-16 units (D83D < FF5E).
    assert sorted(names) == ["\uff5e.pending", "\U0001f600.pending"]
    assert sorted(names, key=code_unit_key) == ["\U0001f600.pending", "\uff5e.pending"]


@pytest.mark.parametrize(
    "name",
    [
        "a:b.pending",
        "a/b.pending",
        "a\\b.pending",
        "..",
        ".",
        "",
        ".hidden.pending",
        "a\0.pending",
        "a\n.pending",
        "a.txt",
        ".pending",
    ],
)
def test_name_validation_rejects(name: str) -> None:
    with pytest.raises(NameRejected):
        validate_item_name(name)


def test_name_validation_accepts_cjk() -> None:
    assert validate_item_name("整理周报.pending") == "整理周报.pending"


def test_generated_names_are_valid_and_timestamped() -> None:
    name = generate_item_name(datetime(2026, 1, 5, 10, 0, tzinfo=UTC))
    assert re.fullmatch(r"2026-01-05T10-00-00-000Z-[0-9a-z]{4}\.pending", name)
    assert validate_item_name(name) == name


def test_write_item_is_exclusive_unless_replace(paths: KernelPaths) -> None:
    path = write_item(paths, W, "job.pending", "do it")
    assert path == paths.inbox_dir(W) / "job.pending"
    assert path.read_text() == "do it\n"
    with pytest.raises(NameRejected, match="already exists"):
        write_item(paths, W, "job.pending", "other")
    assert path.read_text() == "do it\n"
    write_item(paths, W, "job.pending", "other\n", replace=True)
    assert path.read_text() == "other\n"
    assert sorted(os.listdir(path.parent)) == ["job.pending"]  # no temp files left


def test_write_item_rejects_bad_names_without_writing(paths: KernelPaths) -> None:
    with pytest.raises(NameRejected):
        write_item(paths, W, "../escape.pending", "x")
    assert not paths.inbox_dir(W).exists()


def test_ack_deletes_exactly_one_item_and_never_follows_links(paths: KernelPaths) -> None:
    write_item(paths, W, "a.pending", "a")
    write_item(paths, W, "b.pending", "b")
    outside = paths.runtime / "keep.txt"
    outside.write_text("keep")
    os.symlink(outside, paths.inbox_dir(W) / "l.pending")
    assert ack_item(paths, W, "a.pending") is True
    assert ack_item(paths, W, "a.pending") is False
    assert ack_item(paths, W, "l.pending") is True
    assert outside.read_text() == "keep"
    assert [i.name for i in list_items(paths, W)] == ["b.pending"]
    with pytest.raises(NameRejected):
        ack_item(paths, W, "../keep.txt")
    (paths.inbox_dir(W) / "d.pending").mkdir()
    with pytest.raises(InputError):
        ack_item(paths, W, "d.pending")


def test_render_inbox_block_and_ack_target(paths: KernelPaths) -> None:
    items = [InboxItem("a.pending", "line one\nline two"), InboxItem("b.pending", "x: y")]
    block = render_inbox_block(paths.inbox_dir(W), items, weaver=True)
    lines = block.split("\n")
    assert lines[0] == "## Inbox" and lines[1] == ""
    assert f"Inbox directory: {paths.inbox_dir(W)}/" in lines
    assert lines[-3:] == ["- a.pending: line one", "line two", "- b.pending: x: y"]
    assert ack_target("- b.pending: x: y") == "b.pending"
    assert render_inbox_block(paths.inbox_dir(W), [], weaver=False) == ""


def test_ledger_round_trip_and_format(paths: KernelPaths) -> None:
    names = {
        "scan-gap.md.pending",
        "entity-converge-acme-corp.md.pending",
        "orphan-islands.md.pending",
    }
    text = render_ledger(names)
    assert text == (
        '["entity-converge-acme-corp.md.pending","orphan-islands.md.pending",'
        '"scan-gap.md.pending"]\n'
    )
    assert parse_ledger(text) == frozenset(names)
    write_ledger(paths, W, names)
    assert (paths.inbox_dir(W) / ".memory-signals.json").read_text() == text
    assert read_ledger(paths, W) == frozenset(names)


@pytest.mark.parametrize("text", ["", "{}", '"a.pending"', "[1", "null"])
def test_invalid_ledger_is_empty(text: str) -> None:
    assert parse_ledger(text) == frozenset()


def test_ledger_drops_bad_entries() -> None:
    text = '["ok.pending", 3, "x.json", "a/b.pending", "dir/", null, "好.pending", "..pending"]'
    assert parse_ledger(text) == frozenset({"ok.pending", "好.pending", "..pending"})


def test_ledger_keeps_backslash_and_nul_names_as_the_original_does() -> None:
    """duoduo keeps an entry when it ends in .pending and path.basename(e) === e."""
    text = '["a\\\\b.pending","..\\\\c.pending","n\\u0000.pending","c.pending\\u0000"]'
    assert parse_ledger(text) == frozenset({"a\\b.pending", "..\\c.pending", "n\0.pending"})


def test_missing_ledger_is_empty(paths: KernelPaths) -> None:
    assert read_ledger(paths, W) == frozenset()
