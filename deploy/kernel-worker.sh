#!/usr/bin/env bash
# The kernel worker: crystallize, update, settle, cadence ticks. Runs on the kernel host;
# its tasks write the kernel under the kernel lock.
set -euo pipefail
. "$(dirname "$0")/wait-redis.sh"
exec celery -A workers.app worker \
  --queues kernel \
  --pool prefork \
  --concurrency "${SUBCON_KERNEL_CONCURRENCY:-2}" \
  --prefetch-multiplier 1 \
  --hostname "kernel@%h" \
  --task-events \
  --loglevel "${SUBCON_LOGLEVEL:-INFO}" \
  "$@"
