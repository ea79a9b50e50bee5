"""In-process progress listeners.

An eager scan runs inside the CLI process, where no result backend can be polled while
it runs; the scan task reports to these listeners as well as to ``update_state``. A
worker subscribes one for good at start: it forwards progress to Flower as an event
(:func:`workers.monitoring.send_progress`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

# (slice token, done, total)
Listener = Callable[[str, int, int], None]

_LISTENERS: list[Listener] = []


def notify(token: str, done: int, total: int) -> None:
    """Tell every registered listener; a failing listener never breaks the scan."""
    for listener in list(_LISTENERS):
        with contextlib.suppress(Exception):
            listener(token, done, total)


def subscribe(listener: Listener) -> None:
    """Register ``listener`` for the life of the process (idempotent)."""
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


@contextlib.contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Register ``listener`` for the duration of the block."""
    _LISTENERS.append(listener)
    try:
        yield
    finally:
        _LISTENERS.remove(listener)
