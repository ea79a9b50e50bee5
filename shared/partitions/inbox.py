"""Per-partition inboxes ``var/subconscious/<partition>/inbox`` (docs/formats.md §5).

Listing follows the original exactly: regular files (symlinks and dirs are not listed)
whose name does not start with ``.`` and ends with ``.pending`` or ``.json``, sorted in
UTF-16 code-unit order, each body trimmed; unreadable files are skipped. Bodies are
data: nothing here interprets them as paths or commands.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from shared.constants import SIGNAL_LEDGER
from shared.errors import InputError, NameRejected
from shared.formats.frontmatter import js_trim
from shared.kernel.files import (
    atomic_write_bytes,
    atomic_write_text,
    safe_basename,
    utf8_position,
)
from shared.kernel.paths import KernelPaths
from shared.timestamps import filename_ts, iso

PENDING: Final = ".pending"
ITEM_SUFFIXES: Final = (".pending", ".json")
_BASE36: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class InboxItem:
    """One inbox item: file name and trimmed body (the original's ``message``).

    ``problem`` is ``LINE:COL: not valid UTF-8`` when the bytes are not UTF-8 (the body
    then holds U+FFFD for the bad bytes): such an item is reported, never routed or
    acked, so nothing in it is lost."""

    name: str
    body: str
    problem: str | None = None


def code_unit_key(name: str) -> bytes:
    """Sort key equal to JavaScript's default string order (UTF-16 code units).

    Python compares code points, which differs for characters outside the BMP (their
    surrogates sort below U+E000..U+FFFF in JS); big-endian UTF-16 bytes compare exactly
    like code units.
    """
    return name.encode("utf-16-be", errors="surrogatepass")


def is_item_name(name: str) -> bool:
    """True for names the runtime lists: not hidden, ending ``.pending`` or ``.json``."""
    return not name.startswith(".") and name.endswith(ITEM_SUFFIXES)


def list_items(paths: KernelPaths, partition: str) -> list[InboxItem]:
    """The partition's inbox items in delivery (code-unit) order; missing inbox → []."""
    directory = paths.inbox_dir(partition)
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    names = sorted(
        (e.name for e in entries if is_item_name(e.name) and e.is_file(follow_symlinks=False)),
        key=code_unit_key,
    )
    items: list[InboxItem] = []
    for name in names:
        try:
            raw = (directory / name).read_bytes()
        except OSError:
            continue
        try:
            text, problem = raw.decode("utf-8"), None
        except UnicodeDecodeError as exc:
            line, column = utf8_position(raw, exc.start)
            text, problem = (
                raw.decode("utf-8", errors="replace"),
                f"{line}:{column}: not valid UTF-8",
            )
        items.append(InboxItem(name, js_trim(text), problem))
    return items


def render_inbox_block(inbox_dir: Path, items: list[InboxItem], *, weaver: bool) -> str:
    """The ``## Inbox`` prompt block of docs/formats.md §5.3 ("" when there are no items)."""
    if not items:
        return ""
    lines = ["## Inbox", ""]
    if weaver:
        lines += [
            "The Stage 1 scanner pass runs first; the items below are Stage 2 directed "
            "work, and at most one of them is settled per tick.",
            "",
        ]
    lines += [
        f"Inbox directory: {inbox_dir}/",
        "Process each item, then delete its file from this directory to acknowledge it.",
        "",
    ]
    lines += [f"- {item.name}: {item.body}" for item in items]
    return "\n".join(lines)


def ack_target(item_line: str) -> str:
    """The file name of a rendered ``- <name>: <body>`` line: the text before the first
    colon (why item names must be colon-free)."""
    text = item_line[2:] if item_line.startswith("- ") else item_line
    return text.split(":", 1)[0]


def name_problem(name: str) -> str | None:
    """Why an item with this name cannot be settled safely, or None.

    One rule for items written by ``enqueue`` and items dropped by hand or by another
    producer: the ack target is the text before the first colon (docs/formats.md §5.3),
    so a name with a colon, a path separator, NUL or a line break would ack the wrong
    file or none, and a hidden name is never listed.
    """
    if not name or name in {".", ".."}:
        return "is empty or a dot name"
    problems = [
        (name.startswith("."), "must not start with '.' (hidden files are not listed)"),
        (":" in name, "must not contain ':' (the ack target ends at the first colon)"),
        ("/" in name or "\\" in name, "must not contain a path separator"),
        ("\0" in name, "must not contain NUL"),
        ("\n" in name or "\r" in name, "must not contain a line break"),
    ]
    return next((reason for failed, reason in problems if failed), None)


def validate_item_name(name: str) -> str:
    """Return ``name`` if an operator may create an inbox item with it.

    Raises:
        NameRejected: the name fails :func:`name_problem`, or does not end in
            ``.pending`` (the only suffix subcon writes).
    """
    problem = name_problem(name)
    if problem is None and (not name.endswith(PENDING) or name == PENDING):
        problem = "must end in '.pending'"
    if problem is not None:
        raise NameRejected(None, None, f"inbox item name {name!r} {problem}")
    return name


def generate_item_name(now: datetime | None = None) -> str:
    """A fresh operator item name: ``<filename-ts>-<4 base-36 chars>.pending``."""
    suffix = "".join(secrets.choice(_BASE36) for _ in range(4))
    return f"{filename_ts(iso(now))}-{suffix}{PENDING}"


def _with_lf(body: str) -> bytes:
    return (body if body.endswith("\n") else body + "\n").encode("utf-8")


def write_item(
    paths: KernelPaths, partition: str, name: str, body: str, *, replace: bool = False
) -> Path:
    """Write an inbox item atomically (body gets a trailing LF if it has none).

    Without ``replace`` the write is exclusive: an existing item with that name is left
    untouched.

    Raises:
        NameRejected: the name fails :func:`validate_item_name`, or the item exists
            and ``replace`` is False.
    """
    validate_item_name(name)
    target = paths.inbox_dir(partition) / name
    data = _with_lf(body)
    if replace:
        atomic_write_bytes(target, data)
        return target
    if os.path.lexists(target):
        raise NameRejected(target, None, "inbox item already exists (pass --replace to overwrite)")
    # Write a complete hidden temp file, then hard-link it into place: link() refuses
    # an existing target, so a concurrent writer can never be overwritten.
    staging = target.parent / f".{name}.{uuid.uuid4()}.tmp"
    atomic_write_bytes(staging, data)
    try:
        os.link(staging, target)
    except FileExistsError as exc:
        raise NameRejected(target, None, "inbox item already exists") from exc
    except OSError:
        # No hard links on this filesystem: fall back to check-then-rename.
        if os.path.lexists(target):
            raise NameRejected(target, None, "inbox item already exists") from None
        os.replace(staging, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            staging.unlink()
    return target


def ack_item(paths: KernelPaths, partition: str, name: str, *, expect: str | None = None) -> bool:
    """Delete exactly ``<inbox>/<name>``; True if it was deleted.

    A symlink is removed itself, never followed. With ``expect`` (the trimmed body the
    caller settled), the item is deleted only if it still holds that body: a producer
    may have replaced it while the caller worked, and the newer body must not be lost
    unread. It is renamed aside first (atomic), compared, and put back when it changed
    (beside an even newer item that took the name meanwhile, under a fresh name).

    Raises:
        NameRejected: ``name`` is not a plain file name.
        InputError: the entry is a directory.
    """
    target = paths.inbox_dir(partition) / safe_basename(name)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(mode):
        raise InputError(target, None, "inbox entry is a directory, not an item")
    if expect is None or stat.S_ISLNK(mode):
        try:
            os.unlink(target)
        except FileNotFoundError:
            return False
        return True
    aside = target.with_name(f".{target.name}.{uuid.uuid4()}.acking")
    try:
        os.rename(target, aside)
    except FileNotFoundError:
        return False
    try:
        body: str | None = js_trim(aside.read_bytes().decode("utf-8", errors="replace"))
    except OSError:
        body = None
    if body == expect:
        aside.unlink()
        return True
    try:
        os.link(aside, target)  # never over a newer item that took the name meanwhile
    except OSError:
        if os.path.lexists(target):
            # An even newer item took the name: keep this one beside it, still listed.
            stem, _, ext = target.name.rpartition(".")
            target = target.with_name(f"{stem}.{uuid.uuid4().hex[:8]}.{ext}")
        os.rename(aside, target)
        return False
    with contextlib.suppress(FileNotFoundError):
        aside.unlink()
    return False


# --- signal ledger (docs/formats.md §5.6) -------------------------------------------------


def _ledger_entry_ok(entry: object) -> bool:
    # The original's test: endsWith(".pending") && path.basename(e) === e, so only a
    # "/" disqualifies (a backslash or NUL is part of a POSIX basename).
    return isinstance(entry, str) and entry.endswith(PENDING) and "/" not in entry


def parse_ledger(text: str) -> frozenset[str]:
    """Ledger names; a parse error or a non-array is the empty set, and entries that are
    not ``.pending`` basenames are dropped."""
    try:
        data = json.loads(text)
    except ValueError:
        return frozenset()
    if not isinstance(data, list):
        return frozenset()
    return frozenset(e for e in data if _ledger_entry_ok(e))


def render_ledger(names: Iterable[str]) -> str:
    """Compact JSON array, sorted (code-unit order), trailing LF."""
    ordered = sorted(set(names), key=code_unit_key)
    return json.dumps(ordered, ensure_ascii=False, separators=(",", ":")) + "\n"


def ledger_path(paths: KernelPaths, partition: str) -> Path:
    return paths.inbox_dir(partition) / SIGNAL_LEDGER


def read_ledger(paths: KernelPaths, partition: str) -> frozenset[str]:
    """The partition's signal ledger; missing or unreadable → the empty set."""
    try:
        text = ledger_path(paths, partition).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return frozenset()
    return parse_ledger(text)


def write_ledger(paths: KernelPaths, partition: str, names: Iterable[str]) -> None:
    """Write the ledger (creating the inbox dir)."""
    atomic_write_text(ledger_path(paths, partition), render_ledger(names))
