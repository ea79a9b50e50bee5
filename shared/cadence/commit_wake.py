"""One committer run as the commit task makes it: clear the queued-commit marker, find
the tick, run the committer, record the run's end."""

from __future__ import annotations

import redis

from shared.cadence.commit_marker import clear_request
from shared.cadence.runs import RunContext, check_deadline, finish_run, record_manual_run
from shared.cadence.ticks import open_tick_store
from shared.committer.report import CommitReport
from shared.committer.run import run_committer
from shared.constants import COMMITTER
from shared.kernel.lock.base import KernelLock
from shared.kernel.paths import KernelPaths
from shared.settings import Settings


def commit_run(
    paths: KernelPaths,
    settings: Settings,
    lock: KernelLock,
    owner: str,
    *,
    run: RunContext | None,
    client: redis.Redis | None,
) -> CommitReport:
    """Commit what the committer accepts; record the end of ``run`` (a tick-started run,
    under the kernel lock as ``owner``) or, without one, a manual run's outcome.

    Raises:
        PassTimeout: ``run`` passed its deadline (the marker is cleared all the same).
        ConfigError: the kernel dir does not exist.
        GitError: a git command failed mid-commit (nothing was committed).
        LockHeld, LockLost: recording the run's end could not hold the kernel lock.
    """
    if client is not None:
        clear_request(client, paths)
    check_deadline(run)
    tick = run.tick if run is not None else open_tick_store(settings, paths).current() or None
    # Made for a tick: one commit per tick carries the playlist (the others leave it).
    report = run_committer(
        paths, settings, lock=lock, tick=tick, redis_client=client, playlist_once_per_tick=True
    )
    if run is None:
        record_manual_run(paths, COMMITTER, report.outcome)
    else:
        with lock.hold(owner):
            finish_run(paths, settings, run, "success")
    return report
