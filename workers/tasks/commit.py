"""``subcon.memory-committer.commit``: one committer run (queue ``commit``, one worker)."""

from __future__ import annotations

from typing import Any

from celery import Celery

from shared.cadence.runs import finish_run, record_manual_run
from shared.constants import COMMITTER
from shared.errors import GitError
from workers import routing
from workers.keys import key, redis_client
from workers.tasks.base import StageFailed, SubconTask, check_deadline, run_of


def register(app: Celery) -> Any:
    @app.task(bind=True, base=SubconTask, shared=False, name=routing.COMMIT)
    def commit(self: SubconTask, run_json: dict[str, Any] | None = None) -> dict[str, Any]:
        from shared.committer.run import run_committer
        from workers.tickstore import open_tick_store

        settings, paths = self.settings, self.paths
        client = (
            redis_client(settings.effective_redis_url) if settings.effective_redis_url else None
        )
        if client is not None:
            # Requests arriving from now on queue one new run (see canvas.request_commit).
            client.delete(key(paths, "commit-pending"))
        run = run_of(run_json)
        check_deadline(run)
        tick = run.tick if run is not None else open_tick_store(settings, paths).current() or None
        lock = self.kernel_lock()
        try:
            with self.input_errors():
                report = run_committer(paths, settings, lock=lock, tick=tick, redis_client=client)
        except GitError as exc:
            raise StageFailed(str(exc)) from exc
        result: dict[str, Any] = report.to_json()
        if run is not None:
            with self.locked("commit-finish"):
                finish_run(paths, settings, run, "success")
        else:
            record_manual_run(paths, COMMITTER, report.outcome)
        return result

    return commit
