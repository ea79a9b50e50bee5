"""The slice planner's pre-pass: which lines of a day file each band or window holds.

Every line's ``ts`` is found without a JSON parse (:func:`quick_ts`), classified to
an item index, and matching lines are kept as runs of consecutive lines (offset,
first line number, line lengths) rather than one tuple per line. Nearly every spine
line ends with a canonical ``,"ts":"YYYY-MM-DDTHH:MM:SS.mmmZ"}``: a batch where all
lines do is checked with a few whole-batch byte operations on the lines' tails (and,
for a band of the whole day, needs no per-line step at all); any other batch goes
line by line, with the same outcome either way.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import cast

import orjson

from shared.errors import InputError
from shared.spine.lines import Batch, iter_batches

_TS_KEY = b'"ts":"'
_TAIL_LOOKBACK = 128
# The canonical last key, exactly as a line ends with it (7 + 24 + 2 bytes). A batch
# is on the fast path only when every line's last _TAIL_BYTES bytes are one of these.
_TAIL_TS = re.compile(rb',"ts":"(\d{4}-\d\d-\d\dT(?:[01]\d|2[0-3]):\d\d:\d\d\.\d{3}Z)"\}')
_TAIL_BYTES = 33
_TAIL_OF = operator.itemgetter(slice(-_TAIL_BYTES, None))
# The tails joined by LF, with every digit turned into '0', are this record n times.
_RECORD = b',"ts":"0000-00-00T00:00:00.000Z"}\n'
_ZERO_DIGITS = bytes.maketrans(b"0123456789", b"0" * 10)
_HOUR = _RECORD.index(b"T") + 1  # the hour's two digits within a record
_HOURS = frozenset((ord("0") + h // 10, ord("0") + h % 10) for h in range(24))

# ts -> item index (None: no item), for one line.
Classify = Callable[[str], int | None]
# The canonical ts values of a batch's lines -> each line's item index; or, when every
# canonical ts falls in one item whatever its value, that index.
ClassifyMany = Callable[[list[bytes]], list[int | None]] | int


def quick_ts(line: bytes) -> str | None:
    """The top-level ``ts`` string of a spine line, found from the line end when
    ``ts`` is the last key; falls back to a full parse. None if there is none."""
    end = len(line)
    while end and line[end - 1] in (0x0A, 0x0D):
        end -= 1
    if end >= 2 and line[end - 2 : end] == b'"}':
        idx = line.rfind(_TS_KEY, max(0, end - _TAIL_LOOKBACK), end)
        # A '"' preceded by ',' or '{' cannot sit inside a JSON string, so this
        # is a key; the value runs to the closing '"}' of the top-level object.
        if idx > 0 and line[idx - 1] in (0x2C, 0x7B):
            value = line[idx + len(_TS_KEY) : end - 2]
            if b'"' not in value and b"\\" not in value:
                try:
                    return value.decode("utf-8")
                except UnicodeDecodeError:
                    return None
    try:
        event = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if isinstance(event, dict):
        ts = event.get("ts")
        if isinstance(ts, str):
            return ts
    return None


@dataclass(frozen=True)
class Run:
    """Consecutive matching lines: the first one's offset and number, each line's
    length without its LF; every line but a ``partial`` run's last ends with an LF."""

    offset: int
    lineno: int
    lengths: list[int]
    partial: bool = False


def _canonical_tails(lines: list[bytes]) -> bytes | None:
    """The lines' tails joined by LF when every line ends in the canonical ts, else None.

    Equivalent to matching ``_TAIL_TS`` against each tail, without a per-line regex:
    33-byte tails give the exact length, mapping digits to '0' must give the fixed
    record text, and the hours (tens, units) must be 00..23.
    """
    tails = b"\n".join(map(_TAIL_OF, lines))
    size = len(_RECORD)
    if len(tails) != size * len(lines) - 1:
        return None
    if tails.translate(_ZERO_DIGITS) != (_RECORD * len(lines))[:-1]:
        return None
    tens, units = tails[_HOUR::size], tails[_HOUR + 1 :: size]
    # Tens of 0 and 1 allow any units; otherwise check every (tens, units) pair.
    if tens.translate(None, b"01") and not _HOURS.issuperset(zip(tens, units, strict=True)):
        return None
    return tails


def _slow_items(batch: Batch, classify: Classify) -> tuple[list[int | None], list[int]]:
    """Per-line item indices and lengths (an over-long line's length is one less than
    what it skipped, so that every line adds its length plus one LF)."""
    skipped = iter(batch.skipped)
    items: list[int | None] = []
    lengths: list[int] = []
    for line in batch.lines:
        if line is None:
            items.append(None)
            lengths.append(next(skipped) - 1)
            continue
        ts = quick_ts(line)
        items.append(classify(ts) if ts is not None else None)
        lengths.append(len(line))
    return items, lengths


def _add_runs(
    runs: list[list[Run]], batch: Batch, items: list[int | None], lengths: list[int]
) -> None:
    """Append the batch's maximal same-item stretches of lines to their items' runs."""
    pos, start = batch.offset, 0
    last = len(lengths)
    for index, group in groupby(range(last), items.__getitem__):
        end = start + sum(1 for _ in group)
        if index is not None:
            partial = batch.partial_end and end == last
            runs[index].append(Run(pos, batch.lineno + start, lengths[start:end], partial))
        pos += sum(lengths[start:end]) + (end - start)
        start = end


def _batch_end(batch: Batch, lengths: list[int]) -> int:
    """Offset just past the batch (a partial last line has no LF)."""
    no_lf = batch.partial_end and batch.lines[-1] is not None
    return batch.offset + sum(lengths) + len(lengths) - no_lf


def _classify_batch(
    batch: Batch, classify: Classify, classify_many: ClassifyMany
) -> tuple[list[int | None] | int, list[int]]:
    """Each line's item index (or the one index of all lines) and each line's length."""
    # Without over-long lines (skipped) no line is None.
    lines = cast("list[bytes]", batch.lines)
    tails = None if batch.skipped else _canonical_tails(lines)
    if tails is None:
        return _slow_items(batch, classify)
    lengths = list(map(len, lines))
    if isinstance(classify_many, int):
        return classify_many, lengths
    return classify_many(_TAIL_TS.findall(tails)), lengths


def prepass(
    path: Path,
    n_items: int,
    classify: Classify,
    classify_many: ClassifyMany,
    max_line_bytes: int,
) -> tuple[int, list[list[Run]]]:
    """Read ``path`` once: (bytes seen, per item the runs of lines it matches)."""
    runs: list[list[Run]] = [[] for _ in range(n_items)]
    size = 0
    try:
        with open(path, "rb") as handle:
            for batch in iter_batches(
                handle, offset=0, end=None, first_line=1, max_line_bytes=max_line_bytes
            ):
                items, lengths = _classify_batch(batch, classify, classify_many)
                if isinstance(items, int):
                    runs[items].append(Run(batch.offset, batch.lineno, lengths, batch.partial_end))
                else:
                    _add_runs(runs, batch, items, lengths)
                size = _batch_end(batch, lengths)
    except FileNotFoundError:
        return 0, runs
    except OSError as exc:
        raise InputError(path, None, f"cannot read spine partition: {exc.strerror}") from None
    return size, runs


def chunk_runs(runs: list[Run], max_events: int) -> list[tuple[int, int, int]]:
    """Split an item's lines into chunks of ``max_events`` lines:
    (start offset, end offset, first line number) of each, in file order."""
    chunks: list[tuple[int, int, int]] = []
    start = end = first = count = 0
    for run in runs:
        lengths, taken, pos = run.lengths, 0, run.offset
        while taken < len(lengths):
            if not count:
                start, first = pos, run.lineno + taken
            step = min(max_events - count, len(lengths) - taken)
            pos += sum(lengths[taken : taken + step]) + step
            taken += step
            count += step
            end = pos - 1 if run.partial and taken == len(lengths) else pos
            if count == max_events:
                chunks.append((start, end, first))
                count = 0
    if count:
        chunks.append((start, end, first))
    return chunks
