#!/usr/bin/env bash
# Flower with basic auth, on loopback unless told otherwise. The task list shows each
# task's result (JSON, see workers/monitoring.py) beside its state.
set -euo pipefail
. "$(dirname "$0")/wait-redis.sh"
: "${SUBCON_FLOWER_USER:?set SUBCON_FLOWER_USER (Flower always runs with basic auth)}"
: "${SUBCON_FLOWER_PASSWORD:?set SUBCON_FLOWER_PASSWORD (Flower always runs with basic auth)}"
exec celery -A workers.app flower \
  --address="${SUBCON_FLOWER_ADDRESS:-127.0.0.1}" \
  --port="${SUBCON_FLOWER_PORT:-5555}" \
  --basic-auth="${SUBCON_FLOWER_USER}:${SUBCON_FLOWER_PASSWORD}" \
  --tasks_columns="${SUBCON_FLOWER_COLUMNS:-name,uuid,state,result,received,runtime,worker}" \
  "$@"
