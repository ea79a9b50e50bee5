"""Polling with a deadline: the one loop every test waits with."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal, TypeVar

T = TypeVar("T")
# What a predicate returns while the condition does not hold yet (``a and b`` gives False).
Pending = None | Literal[False, 0, ""]


def poll_until(predicate: Callable[[], T | Pending], timeout: float, poll: float = 0.2) -> T | None:
    """``predicate``'s first truthy value within ``timeout`` seconds, else None.

    The predicate is always called at least once, and once more after the deadline.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(poll)


def wait_until(
    predicate: Callable[[], T | Pending], timeout: float, what: str, poll: float = 0.2
) -> T:
    """``predicate``'s first truthy value; fails the test if none comes within ``timeout``."""
    value = poll_until(predicate, timeout, poll)
    if not value:
        raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
    return value
