#!/usr/bin/env bash
# A scan worker: read-only over var/events, run anywhere; one process per core by default.
set -euo pipefail
. "$(dirname "$0")/wait-redis.sh"
exec celery -A workers.app worker \
  --queues scan \
  --pool prefork \
  --concurrency "${SUBCON_SCAN_CONCURRENCY:-$(nproc)}" \
  --prefetch-multiplier 1 \
  --hostname "scan@%h" \
  --task-events \
  --loglevel "${SUBCON_LOGLEVEL:-INFO}" \
  "$@"
