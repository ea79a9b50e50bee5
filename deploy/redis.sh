#!/usr/bin/env bash
# A local redis-server for a one-host cluster (loopback, append-only file under the runtime).
set -euo pipefail
data="${SUBCON_REDIS_DIR:-${SUBCON_RUNTIME_DIR:?set SUBCON_RUNTIME_DIR}/var/subcon/redis}"
mkdir -p "$data"
exec redis-server --port "${SUBCON_REDIS_PORT:-6379}" --bind 127.0.0.1 \
  --appendonly yes --save "" --dir "$data"
