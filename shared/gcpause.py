"""Pausing Python's cyclic garbage collector around bulk object creation.

Parsing a spine slice or decoding a scan result creates ~10^4-10^5 dicts, lists and
strings and no reference cycle (JSON cannot make one). With the collector on, the
generation-0 and -2 collections that allocation triggers find nothing and took a
large share of those steps; reference counting still frees everything.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic collector off; restore its previous state after,
    whether the block returns or raises (a caller that had it off keeps it off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
