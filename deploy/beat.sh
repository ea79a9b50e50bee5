#!/usr/bin/env bash
# Celery beat with RedBeat: a second beat waits on RedBeat's Redis lock and never
# double-fires ticks (the tick task also drops a tick arriving within half a period).
set -euo pipefail
. "$(dirname "$0")/wait-redis.sh"
exec celery -A workers.app beat --loglevel "${SUBCON_LOGLEVEL:-INFO}" "$@"
