"""Split a partition file into lines on ``\\n`` only, in bounded memory.

The file is read in chunks and split with ``bytes.split`` (fast, no per-line
read calls). A line longer than ``max_line_bytes`` is never held whole: once the
pending tail exceeds the limit it is dropped and the rest of that line is
skipped chunk by chunk; it is reported as ``None`` with its true length.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, NamedTuple, cast

CHUNK = 1 << 16


class Batch(NamedTuple):
    """Consecutive lines starting at byte ``offset`` / line number ``lineno``.

    ``lines`` hold each line without its LF, or None for an over-long line whose
    length (LF included) is the next entry of ``skipped``. ``partial_end`` is True
    when the last line has no LF (end of file or of the range).
    """

    offset: int
    lineno: int
    lines: list[bytes | None]
    skipped: list[int]
    partial_end: bool


def iter_batches(
    handle: BinaryIO,
    *,
    offset: int,
    end: int | None,
    first_line: int,
    max_line_bytes: int,
    chunk_size: int = CHUNK,
) -> Iterator[Batch]:
    """Yield the lines of ``handle`` (already positioned at ``offset``) up to ``end``."""
    read = handle.read
    pos = offset  # file position of the next read
    line_offset = offset  # offset of the first line not yet yielded
    lineno = first_line
    pending = b""
    skipping = 0  # >0: bytes of an over-long line skipped so far
    while True:
        want = chunk_size if end is None else min(chunk_size, end - pos)
        chunk = read(want) if want > 0 else b""
        pos += len(chunk)
        if not chunk:
            break
        if skipping:
            cut = chunk.find(b"\n")
            if cut < 0:
                skipping += len(chunk)
                continue
            skipping += cut + 1
            yield Batch(line_offset, lineno, [None], [skipping], False)
            line_offset += skipping
            lineno += 1
            skipping = 0
            chunk = chunk[cut + 1 :]
        data = pending + chunk if pending else chunk
        parts = data.split(b"\n")
        pending = parts.pop()
        lines = cast("list[bytes | None]", parts)
        skipped: list[int] = []
        if len(data) > max_line_bytes:  # only then can a complete line be over-long
            for i, line in enumerate(parts):
                if len(line) > max_line_bytes:
                    skipped.append(len(line) + 1)
                    lines[i] = None
        if lines:
            yield Batch(line_offset, lineno, lines, skipped, False)
            line_offset += len(data) - len(pending)
            lineno += len(lines)
        if len(pending) > max_line_bytes:
            skipping = len(pending)
            pending = b""
    if skipping:
        yield Batch(line_offset, lineno, [None], [skipping], True)
    elif pending:
        yield Batch(line_offset, lineno, [pending], [], True)


class RawLine(NamedTuple):
    """One line with its LF (None when over-long and skipped), its offset and length."""

    lineno: int
    offset: int
    length: int
    data: bytes | None


def iter_raw_lines(
    handle: BinaryIO,
    *,
    offset: int,
    end: int | None,
    first_line: int,
    max_line_bytes: int,
    chunk_size: int = CHUNK,
) -> Iterator[RawLine]:
    """Line-at-a-time view of :func:`iter_batches` (``data`` excludes the LF)."""
    for batch in iter_batches(
        handle,
        offset=offset,
        end=end,
        first_line=first_line,
        max_line_bytes=max_line_bytes,
        chunk_size=chunk_size,
    ):
        pos, lineno = batch.offset, batch.lineno
        skipped = iter(batch.skipped)
        last = len(batch.lines) - 1
        for i, line in enumerate(batch.lines):
            if line is None:
                length = next(skipped)
            else:
                length = len(line) + (0 if i == last and batch.partial_end else 1)
            yield RawLine(lineno, pos, length, line)
            pos += length
            lineno += 1
