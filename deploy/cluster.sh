#!/usr/bin/env bash
# One command for a whole local cluster on one host (redis-server, scan/kernel/commit
# workers, beat, Flower) under honcho, with the processes of deploy/Procfile.
#
#   deploy/cluster.sh start    start everything in the background, wait until workers answer
#   deploy/cluster.sh stop     stop everything (SIGTERM to the group, SIGKILL after 30 s)
#   deploy/cluster.sh status   is it running, which workers answer
#   deploy/cluster.sh logs     follow the combined log
#
# Settings come from $SUBCON_ENV_FILE (default deploy/subcon.env, created from the
# example on first start with a random Flower password).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
env_file="${SUBCON_ENV_FILE:-$here/subcon.env}"

load_env() {
  if [ ! -f "$env_file" ]; then
    password="$(python -c 'import secrets; print(secrets.token_urlsafe(18))')"
    sed "s/^SUBCON_FLOWER_PASSWORD=.*/SUBCON_FLOWER_PASSWORD=${password}/" \
      "$here/subcon.env.example" >"$env_file"
    chmod 600 "$env_file"
    echo "created $env_file from the example: set SUBCON_KERNEL_DIR/SUBCON_RUNTIME_DIR there" >&2
  fi
  set -a
  # shellcheck disable=SC1090
  . "$env_file"
  set +a
  : "${SUBCON_RUNTIME_DIR:?set SUBCON_RUNTIME_DIR in $env_file}"
  state="${SUBCON_CLUSTER_DIR:-$SUBCON_RUNTIME_DIR/var/subcon/cluster}"
  pidfile="$state/honcho.pid"
  logfile="$state/cluster.log"
}

running() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

ping_workers() {
  (cd "$root" && celery -A workers.app inspect ping --timeout "${1:-2}" 2>/dev/null) || true
}

start() {
  if running; then echo "already running (pid $(cat "$pidfile"))"; return 0; fi
  if [ ! -d "${SUBCON_KERNEL_DIR:?set SUBCON_KERNEL_DIR in $env_file}" ]; then
    echo "kernel dir $SUBCON_KERNEL_DIR does not exist: run 'subcon init' first" >&2
    exit 2
  fi
  mkdir -p "$state"
  cd "$root"
  # setsid: honcho leads its own process group, so stop can signal every child.
  setsid honcho -f "$here/Procfile" -d "$root" start >>"$logfile" 2>&1 </dev/null &
  echo $! >"$pidfile"
  for _ in $(seq 1 120); do
    out="$(ping_workers 1)"
    if grep -q "commit@" <<<"$out" && grep -q "kernel@" <<<"$out" && grep -q "scan@" <<<"$out"; then
      echo "cluster up (pid $(cat "$pidfile")); log: $logfile"
      echo "flower: http://${SUBCON_FLOWER_ADDRESS:-127.0.0.1}:${SUBCON_FLOWER_PORT:-5555}/"
      return 0
    fi
    if ! running; then echo "cluster exited; see $logfile" >&2; tail -n 40 "$logfile" >&2; exit 1; fi
    sleep 0.5
  done
  echo "workers did not answer within 60 s; see $logfile" >&2
  exit 1
}

stop() {
  if ! running; then echo "not running"; rm -f "$pidfile"; return 0; fi
  pid="$(cat "$pidfile")"
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
  for _ in $(seq 1 60); do
    if ! kill -0 "$pid" 2>/dev/null; then rm -f "$pidfile"; echo "stopped"; return 0; fi
    sleep 0.5
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$pidfile"
  echo "killed after 30 s"
}

status() {
  if running; then echo "running (pid $(cat "$pidfile"))"; else echo "not running"; fi
  ping_workers 2
}

load_env
case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  logs) exec tail -F "$logfile" ;;
  *) echo "usage: $0 start|stop|status|logs" >&2; exit 64 ;;
esac
