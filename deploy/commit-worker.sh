#!/usr/bin/env bash
# The commit worker. THE one place where its concurrency is written: every git mutation
# goes through this single process, one task at a time (the kernel lock makes a
# misconfigured second consumer harmless, this makes it unnecessary).
# Children are recycled so a long-lived process never accumulates GitPython state.
set -euo pipefail
. "$(dirname "$0")/wait-redis.sh"
exec celery -A workers.app worker \
  --queues commit \
  --pool prefork \
  --concurrency 1 \
  --max-tasks-per-child "${SUBCON_COMMIT_MAX_TASKS_PER_CHILD:-20}" \
  --prefetch-multiplier 1 \
  --hostname "commit@%h" \
  --task-events \
  --loglevel "${SUBCON_LOGLEVEL:-INFO}" \
  "$@"
