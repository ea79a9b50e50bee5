"""The two roots (kernel dir, runtime dir), every path in them, and atomic writes."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from shared.errors import InputError, NameRejected
from shared.jsontext import scrub
from shared.testhooks import checkpoint
from shared.timestamps import epoch_ms


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a sibling temp file, fsync it, then rename it over ``path``.

    The temp name follows docs/formats.md §1.2 (``.<base>.<pid>.<ms>.<uuid>.tmp``) so the
    kernel ``.gitignore`` (``*.tmp``) hides it; the temp file is unlinked on failure,
    so no partial file is ever visible at ``path``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / (
        f".{path.name}.{os.getpid()}.{epoch_ms(datetime.now(UTC))}.{uuid.uuid4()}.tmp"
    )
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        checkpoint("write", str(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """UTF-8, LF-only text written atomically (see :func:`atomic_write_bytes`).

    A lone surrogate (text quoting an event the original cut by UTF-16 unit) is
    written as U+FFFD: the file is always valid UTF-8.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = scrub(text).encode("utf-8")
    atomic_write_bytes(path, data)


# ``.<base>.<pid>.<epoch-ms>.<uuid-v4>.tmp``, as :func:`atomic_write_bytes` names them.
_TEMP_RE = re.compile(r"^\..+\.([0-9]+)\.[0-9]+\.[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\.tmp$")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A killed worker's child can linger as a zombie until someone reaps it.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def remove_stale_temps(root: Path) -> list[Path]:
    """Delete the temp files of atomic writers that died mid-write, under ``root``.

    A writer SIGKILLed between its temp write and its rename leaves a complete but
    orphaned ``.<base>.<pid>.<ms>.<uuid>.tmp``; one whose pid is no longer alive on this
    host is removed. Call it while holding the kernel lock (no live writer is then
    mid-write in the kernel). Returns the removed paths; unreadable dirs are skipped.
    """
    removed: list[Path] = []
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            match = _TEMP_RE.match(name)
            if match is None or _pid_alive(int(match.group(1))):
                continue
            path = Path(dirpath) / name
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed.append(path)
    return removed


def read_utf8(path: Path) -> str | None:
    """The UTF-8 text of ``path``, or None when it does not exist.

    Raises:
        InputError: the bytes are not UTF-8 (names the file and the line of the bad byte),
            or ``path`` is not a regular file (a FIFO planted there must not hang us).
    """
    try:
        with open_regular(path) as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno != errno.EINVAL:
            raise
        raise InputError(path, None, "not a regular file") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = utf8_position(data, exc.start)
        raise InputError(path, line, "not valid UTF-8", column=column) from exc


def utf8_position(data: bytes, start: int, first_line: int = 1) -> tuple[int, int]:
    """The 1-based line and column of byte ``start`` of ``data`` (the first bad byte of
    a decode), counting lines from ``first_line``. The column counts characters, as an
    editor shows them: everything before the first bad byte is valid UTF-8."""
    before = data[:start]
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
    return first_line + before.count(b"\n"), column


def open_regular(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading, only if it is a regular file (symlinks followed).

    It is opened non-blocking and checked with ``fstat`` before any read, so a FIFO or
    device planted in the kernel never stalls a reader (a blocking ``open`` of a FIFO
    waits for a writer forever).

    Raises:
        OSError: missing, unreadable, or not a regular file (``EINVAL``).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def safe_basename(name: str) -> str:
    """Return ``name`` if it is a plain file name that stays inside its directory.

    Raises:
        NameRejected: empty, ``.``/``..``, a path separator, NUL or a newline.
    """
    if not name or name in {".", ".."} or any(c in name for c in "/\\\0\n\r"):
        raise NameRejected(None, None, f"unsafe file name {name!r}")
    return name


def utf8_problem(path: Path) -> str | None:
    """``path:line:column: not valid UTF-8 (byte 0xNN)`` for the first bad byte of a
    file, or None when it decodes (or cannot be read: other checks report that)."""
    try:
        with open_regular(path) as handle:  # never a blocking open (a planted FIFO)
            data = handle.read()
    except (OSError, InputError):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = utf8_position(data, exc.start)
        return f"{path}:{line}:{column}: not valid UTF-8 (byte 0x{data[exc.start]:02x})"
    return None
