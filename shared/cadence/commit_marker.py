"""The queued-commit marker: requests for a commit made while one is queued collapse.

A weaver pass sets the marker (``SET NX``) when it asks for a commit; the committer run
clears it when it starts, so a request arriving mid-run queues exactly one more run.
"""

from __future__ import annotations

import redis

from shared.kernel.keys import COMMIT_PENDING, key
from shared.kernel.paths import KernelPaths


def mark_requested(client: redis.Redis, paths: KernelPaths, ttl_s: int) -> bool:
    """Mark a commit as queued; False when one already was (the request collapses).

    The marker expires after ``ttl_s`` so that a lost commit message cannot block
    every later request.
    """
    return bool(client.set(key(paths, COMMIT_PENDING), "1", nx=True, ex=ttl_s))


def clear_request(client: redis.Redis, paths: KernelPaths) -> None:
    """A committer run started: requests from now on queue one new run."""
    client.delete(key(paths, COMMIT_PENDING))
