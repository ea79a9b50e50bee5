#!/usr/bin/env bash
# The commit worker. THE one place where its concurrency is written: every git mutation
# goes through this queue. One kernel's commits never overlap: a committer holds its
# kernel's lock and one that finds it held skips. A cluster serving many kernels
# (`subcon kernels add`) sets SUBCON_COMMIT_CONCURRENCY above 1 so commits of different
# kernels run side by side; the default keeps one commit at a time.
# Children are recycled so a long-lived process never accumulates GitPython state.
set -euo pipefail
. "$(dirname "$0")/wait-redis.sh"
exec celery -A workers.app worker \
  --queues commit \
  --pool prefork \
  --concurrency "${SUBCON_COMMIT_CONCURRENCY:-1}" \
  --max-tasks-per-child "${SUBCON_COMMIT_MAX_TASKS_PER_CHILD:-20}" \
  --prefetch-multiplier 1 \
  --hostname "commit@%h" \
  --task-events \
  --loglevel "${SUBCON_LOGLEVEL:-INFO}" \
  "$@"
