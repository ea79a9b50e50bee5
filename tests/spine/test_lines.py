"""Chunked line splitting: same lines and offsets as a plain split, at any chunk size."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.spine.lines import iter_batches, iter_raw_lines


def _expected(data: bytes, limit: int) -> list[tuple[int, int, int, bytes | None]]:
    out = []
    pos = 0
    parts = data.split(b"\n")
    trailing = parts.pop()
    for n, line in enumerate(parts, start=1):
        out.append((n, pos, len(line) + 1, None if len(line) > limit else line))
        pos += len(line) + 1
    if trailing:
        n = len(parts) + 1
        out.append((n, pos, len(trailing), None if len(trailing) > limit else trailing))
    return out


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"x")), max_size=30),
    final_lf=st.booleans(),
    chunk=st.integers(1, 64),
    limit=st.integers(1, 30),
)
def test_chunked_lines_match_a_plain_split(
    lines: list[bytes], final_lf: bool, chunk: int, limit: int
) -> None:
    data = b"\n".join(lines) + (b"\n" if final_lf and lines else b"")
    got = []
    for batch in iter_batches(
        io.BytesIO(data), offset=0, end=None, first_line=1, max_line_bytes=limit, chunk_size=chunk
    ):
        got.append(batch)
    flat = [
        (r.lineno, r.offset, r.length, r.data)
        for r in iter_raw_lines(
            io.BytesIO(data),
            offset=0,
            end=None,
            first_line=1,
            max_line_bytes=limit,
            chunk_size=chunk,
        )
    ]
    assert flat == _expected(data, limit)
    # the batch view at a tiny chunk size agrees with the line view
    lines_seen = [line for b in got for line in b.lines]
    assert lines_seen == [e[3] for e in _expected(data, limit)]


def test_range_reads_stop_at_end() -> None:
    data = b"aa\nbbb\ncccc\n"
    handle = io.BytesIO(data)
    handle.seek(3)
    got = list(iter_raw_lines(handle, offset=3, end=7, first_line=2, max_line_bytes=100))
    assert [(r.lineno, r.offset, r.data) for r in got] == [(2, 3, b"bbb")]
