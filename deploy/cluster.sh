#!/usr/bin/env bash
# One command for a whole local cluster on one host: the processes of deploy/Procfile
# (redis-server, scan/kernel/commit workers, beat, Flower), each in its own session with
# its own log and pid file under $SUBCON_CLUSTER_DIR (default
# $SUBCON_RUNTIME_DIR/var/subcon/cluster).
#
#   deploy/cluster.sh start    start everything in the background, wait until it answers
#   deploy/cluster.sh stop     beat and Flower, then the workers (warm shutdown: running
#                              tasks finish, SIGKILL after $SUBCON_STOP_TIMEOUT s,
#                              default 120), then redis-server last
#   deploy/cluster.sh status   which processes run, which workers answer; exit 0 when
#                              every process runs, 1 when some do not, 3 when none
#                              runs (the cluster is down; subcon's exit code for
#                              "the broker does not answer")
#   deploy/cluster.sh logs     follow every process's log
#
# Settings: variables exported in the environment win; the rest come from
# $SUBCON_ENV_FILE (default deploy/subcon.env, created from deploy/subcon.env.example on
# first use, with a random Flower password). start and status print which file and
# which values were used, and where the Flower password is.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
env_file="${SUBCON_ENV_FILE:-$here/subcon.env}"
procfile="$here/Procfile"
# Stop order: nothing that talks to Redis outlives it.
stop_order=(beat flower scan kernel commit redis)
declare -A origin=()

load_env() {
  local name
  declare -A exported=()
  while IFS= read -r name; do
    [ "$name" = SUBCON_ENV_FILE ] || exported[$name]="${!name}"
  done < <(compgen -e | grep '^SUBCON_' || true)
  if [ ! -f "$env_file" ]; then
    password="$(python -c 'import secrets; print(secrets.token_urlsafe(18))')"
    # The roots `subcon init` uses without options (as the original resolves them):
    # $ALADUO_KERNEL_DIR or ~/aladuo, $ALADUO_RUNTIME_DIR or ~/.aladuo. Only a plain
    # path is written: the file is read by bash, systemd and compose, which quote apart.
    kernel_default="${ALADUO_KERNEL_DIR:-$HOME/aladuo}"
    runtime_default="${ALADUO_RUNTIME_DIR:-$HOME/.aladuo}"
    plain='^[A-Za-z0-9_./@%+=:,~-]+$'
    roots=(-e "s/^SUBCON_FLOWER_PASSWORD=.*/SUBCON_FLOWER_PASSWORD=${password}/")
    said="set SUBCON_KERNEL_DIR and SUBCON_RUNTIME_DIR there or export them"
    if [[ "$kernel_default" =~ $plain && "$runtime_default" =~ $plain ]]; then
      roots+=(-e "s|^SUBCON_KERNEL_DIR=.*|SUBCON_KERNEL_DIR=${kernel_default}|")
      roots+=(-e "s|^SUBCON_RUNTIME_DIR=.*|SUBCON_RUNTIME_DIR=${runtime_default}|")
      said="kernel $kernel_default, runtime $runtime_default, as \`subcon init\` makes them"
    fi
    (umask 077 && sed "${roots[@]}" "$here/subcon.env.example" >"$env_file")
    echo "created $env_file from the example (random Flower password; $said)" >&2
  fi
  while IFS= read -r name; do origin[$name]="$env_file"; done < <(
    sed -n 's/^[[:space:]]*\(export[[:space:]]\+\)\{0,1\}\(SUBCON_[A-Z0-9_]*\)=.*/\2/p' "$env_file"
  )
  set -a
  # shellcheck disable=SC1090
  . "$env_file"
  set +a
  for name in "${!exported[@]}"; do
    export "$name=${exported[$name]}"
    origin[$name]="the environment"
  done
  : "${SUBCON_RUNTIME_DIR:?set SUBCON_RUNTIME_DIR in $env_file or export it}"
  state="${SUBCON_CLUSTER_DIR:-$SUBCON_RUNTIME_DIR/var/subcon/cluster}"
}

from() { echo "${origin[$1]:-nowhere: unset}"; }

show_settings() {
  echo "settings: $env_file (exported SUBCON_ variables win over it)"
  local name
  for name in SUBCON_KERNEL_DIR SUBCON_RUNTIME_DIR SUBCON_BROKER_URL SUBCON_TICK_SECONDS; do
    # a broker URL may carry a password: show it without
    if [ -z "${!name:-}" ]; then echo "  $name unset (subcon's default)"; continue; fi
    echo "  $name=$(sed -E 's#(://[^:/@]*:)[^@]*@#\1***@#' <<<"${!name}")  ($(from "$name"))"
  done
  echo "flower: http://${SUBCON_FLOWER_ADDRESS:-127.0.0.1}:${SUBCON_FLOWER_PORT:-5555}/" \
    "user ${SUBCON_FLOWER_USER:-?}; password: SUBCON_FLOWER_PASSWORD in" \
    "$(from SUBCON_FLOWER_PASSWORD)"
}

names() { sed -n 's/^\([a-z][a-z0-9_-]*\):.*/\1/p' "$procfile"; }
command_of() { sed -n "s/^$1:[[:space:]]*//p" "$procfile"; }
pid_of() { cat "$state/$1.pid" 2>/dev/null || true; }

# What the process's command line shows once its script exec'd its program.
program_of() {
  case "$1" in
    redis) echo "redis-server" ;;
    beat) echo "workers.app beat" ;;
    flower) echo "workers.app flower" ;;
    *) echo "--hostname $1@" ;;
  esac
}

is_up() {
  # The pid is ours only while its command line is its script's (still waiting for
  # redis) or its program's: a pid file left by a crash may name a reused pid.
  local pid
  pid="$(pid_of "$1")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null \
    && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null \
      | grep -q -F -e "$(command_of "$1")" -e "$(program_of "$1")"
}

any_up() {
  local name
  for name in $(names); do if is_up "$name"; then return 0; fi; done
  return 1
}

ping_workers() {
  (cd "$root" && celery -A workers.app inspect ping --timeout "${1:-2}" 2>/dev/null) || true
}

flower_answers() {
  (exec 3<>"/dev/tcp/${SUBCON_FLOWER_ADDRESS:-127.0.0.1}/${SUBCON_FLOWER_PORT:-5555}") \
    2>/dev/null
}

# Print the log of $1 written since this start (offset in $state/$1.offset).
since_start() {
  local offset
  offset="$(cat "$state/$1.offset" 2>/dev/null || echo 0)"
  tail -c +"$((offset + 1))" "$state/$1.log" 2>/dev/null | tail -n "${2:-40}"
}

fail_start() {
  # The cause first (the log of what failed, this start only), then the clean-up.
  local name="$1" why="$2"
  {
    echo "start failed: $why"
    echo "---- $state/$name.log (this start)"
    since_start "$name" 40
    echo "----"
    echo "stopping what did start (logs: $state/)"
  } >&2
  stop_all >/dev/null
  exit 1
}

start() {
  if any_up; then
    echo "already running: $(for n in $(names); do is_up "$n" && printf '%s ' "$n"; done)"
    echo "(deploy/cluster.sh stop first to restart)"
    return 0
  fi
  show_settings
  local kernel="${SUBCON_KERNEL_DIR:-}"
  if [ -z "$kernel" ] || [ ! -d "$kernel" ]; then
    echo "kernel dir '${kernel}' (SUBCON_KERNEL_DIR from $(from SUBCON_KERNEL_DIR))" \
      "does not exist: export SUBCON_KERNEL_DIR, set it in $env_file, or run 'subcon init'" >&2
    exit 2
  fi
  mkdir -p "$state"
  cd "$root"
  local name
  for name in $(names); do
    : >>"$state/$name.log"
    stat -c %s "$state/$name.log" >"$state/$name.offset"
    echo "==== start $(date -u +%FT%TZ)" >>"$state/$name.log"
    # setsid: each process leads its own session, so stop can signal it alone (a
    # worker's warm shutdown) and still reach every child if it has to kill.
    # shellcheck disable=SC2046
    setsid $(command_of "$name") >>"$state/$name.log" 2>&1 </dev/null &
    echo $! >"$state/$name.pid"
  done
  local out missing
  for _ in $(seq 1 120); do
    for name in $(names); do
      if ! is_up "$name"; then
        sleep 0.5  # let its last lines reach the log
        fail_start "$name" "$name exited"
      fi
    done
    out="$(ping_workers 1)"
    missing=""
    for name in scan kernel commit; do
      grep -q "$name@" <<<"$out" || missing="$name"
    done
    flower_answers || missing="${missing:-flower}"
    if [ -z "$missing" ]; then
      echo "cluster up: $(names | tr '\n' ' ')"
      echo "logs: $state/<name>.log (deploy/cluster.sh logs)"
      return 0
    fi
    sleep 0.5
  done
  fail_start "$missing" "$missing did not answer within 60 s"
}

# stop_one NAME SECONDS: SIGTERM to the process itself (Celery's warm shutdown; it stops
# its own pool children), SIGKILL to its whole session after SECONDS.
stop_one() {
  local name="$1" wait_s="$2" pid
  pid="$(pid_of "$name")"
  if [ -z "$pid" ] || ! is_up "$name"; then rm -f "$state/$name.pid"; return 0; fi
  kill -TERM "$pid" 2>/dev/null || true
  local tries=$((wait_s * 4))
  while kill -0 "$pid" 2>/dev/null && [ "$tries" -gt 0 ]; do sleep 0.25; tries=$((tries - 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    echo "killed $name (pid $pid) after ${wait_s} s"
  else
    # anything left in its session (a pool child) goes too
    kill -KILL -- "-$pid" 2>/dev/null || true
    echo "stopped $name (pid $pid)"
  fi
  rm -f "$state/$name.pid"
}

stop_all() {
  local name pids=()
  stop_one beat 30
  stop_one flower 30
  # the workers together: each finishes its running task
  for name in scan kernel commit; do
    stop_one "$name" "${SUBCON_STOP_TIMEOUT:-120}" &
    pids+=($!)
  done
  wait "${pids[@]}"
  stop_one redis 30
  for name in $(names); do
    case " ${stop_order[*]} " in *" $name "*) ;; *) stop_one "$name" 30 ;; esac
  done
}

stop() {
  if ! any_up; then echo "not running"; rm -f "$state"/*.pid 2>/dev/null || true; return 0; fi
  stop_all
}

status() {
  show_settings
  local name up=0 down=0
  for name in $(names); do
    if is_up "$name"; then
      echo "$name: running (pid $(pid_of "$name"))"
      up=$((up + 1))
    else
      echo "$name: not running"
      down=$((down + 1))
    fi
  done
  if is_up redis; then ping_workers 2; fi
  # Scripts and health checks read the exit code: 0 all up, 1 partly up, 3 down.
  if [ "$up" -eq 0 ]; then
    echo "cluster: not running (deploy/cluster.sh start starts it)"
    return 3
  fi
  if [ "$down" -gt 0 ]; then
    echo "cluster: $down of $((up + down)) processes not running (logs: $state/)"
    return 1
  fi
}

case "${1:-}" in
  start | stop | status | logs) load_env ;;
  *) echo "usage: $0 start|stop|status|logs" >&2; exit 64 ;;
esac
case "$1" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  logs) exec tail -n 20 -F "$state"/*.log ;;
esac
