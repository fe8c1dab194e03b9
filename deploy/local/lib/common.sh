# shellcheck shell=bash
# shellcheck disable=SC2034  # settings here are used by the component files (lib/<name>.sh)
# Shared settings and helpers for deploy/local/{up,status,down}.
# Sourced, never executed. Every component file (lib/<name>.sh) defines:
#   <name>_addr      host:port it serves on
#   <name>_install   installs/builds what is missing (cached outside the repo)
#   <name>_start     starts the server detached (pid in .data/local/pids/<name>.pid)
#   <name>_ready     one real protocol round trip; exit 0 when the server answers
#   <name>_stop      graceful stop (the caller escalates to SIGKILL)

# ---------------------------------------------------------------- locations
LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"   # deploy/local
REPO_ROOT="$(cd "$LOCAL_DIR/../.." && pwd)"
DATA_DIR="$REPO_ROOT/.data/local"          # data, pids, logs, env (ignored by git)
PID_DIR="$DATA_DIR/pids"
LOG_DIR="$DATA_DIR/logs"
ENV_FILE="$DATA_DIR/env"
CACHE_DIR="${WAYFARER_CACHE:-$HOME/.cache/wayfarer}"   # downloads and builds, shared by clones

# ---------------------------------------------------------------- ports (override by env)
PG_PORT="${WAYFARER_PG_PORT:-55432}"
REDIS_PORT="${WAYFARER_REDIS_PORT:-56379}"
KAFKA_PORT="${WAYFARER_KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${WAYFARER_KAFKA_CONTROLLER_PORT:-59093}"
MINIO_PORT="${WAYFARER_MINIO_PORT:-59000}"
MINIO_CONSOLE_PORT="${WAYFARER_MINIO_CONSOLE_PORT:-59001}"
MONGO_PORT="${WAYFARER_MONGO_PORT:-57017}"
# observability: the usual ports with a 5 in front (Jaeger's 16686/16685 -> 56686/56685)
JAEGER_OTLP_GRPC_PORT="${WAYFARER_JAEGER_OTLP_GRPC_PORT:-54317}"
JAEGER_OTLP_HTTP_PORT="${WAYFARER_JAEGER_OTLP_HTTP_PORT:-54318}"
JAEGER_QUERY_PORT="${WAYFARER_JAEGER_QUERY_PORT:-56686}"
JAEGER_QUERY_GRPC_PORT="${WAYFARER_JAEGER_QUERY_GRPC_PORT:-56685}"
JAEGER_METRICS_PORT="${WAYFARER_JAEGER_METRICS_PORT:-58888}"
PROMETHEUS_PORT="${WAYFARER_PROMETHEUS_PORT:-59090}"
HOST=127.0.0.1

# ---------------------------------------------------------------- credentials (local defaults)
PG_USER=wayfarer
PG_PASSWORD=wayfarer
S3_ACCESS_KEY=wayfarer
S3_SECRET_KEY=wayfarer-secret

# ---------------------------------------------------------------- pinned versions
KAFKA_VERSION=3.9.1
MINIO_MODULE=github.com/minio/minio
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
MONGO_JAVA_SERVER_VERSION=1.47.0   # de.bwaldvogel:mongo-java-server (+ H2 backend)
JAEGER_MODULE=github.com/jaegertracing/jaeger
JAEGER_VERSION=v1.76.0             # the module's tag of Jaeger v2 (cmd/jaeger, OTel-collector based)

COMPONENTS=(postgres redis kafka minio mongo jaeger prometheus)   # start order; stop order is the reverse
READY_TIMEOUT="${WAYFARER_READY_TIMEOUT:-120}"    # seconds, per component, builds excluded
STOP_TIMEOUT="${WAYFARER_STOP_TIMEOUT:-30}"       # seconds before SIGKILL

VERB="${VERB:-local}"

# ---------------------------------------------------------------- output
log()  { printf '[%s] %s\n' "$VERB" "$*"; }
warn() { printf '[%s] WARNING: %s\n' "$VERB" "$*" >&2; }
# fail STEP LOGFILE MESSAGE: names the failed step and the log to read, then exits 1.
fail() {
  local step="$1" logfile="$2"; shift 2
  printf '[%s] FAILED: %s: %s\n' "$VERB" "$step" "$*" >&2
  if [[ -n "$logfile" ]]; then
    printf '[%s]   read the log: %s\n' "$VERB" "$logfile" >&2
    if [[ -s "$logfile" ]]; then
      printf '[%s]   last lines:\n' "$VERB" >&2
      tail -n 15 "$logfile" | sed 's/^/      /' >&2
    fi
  fi
  exit 1
}
# Path relative to the repo root when inside it (shorter log lines).
rel() { case "$1" in "$REPO_ROOT"/*) printf '%s' "${1#"$REPO_ROOT"/}" ;; *) printf '%s' "$1" ;; esac; }
logfile() { printf '%s/%s.log' "$LOG_DIR" "$1"; }
pidfile() { printf '%s/%s.pid' "$PID_DIR" "$1"; }
now() { date +%s; }

# ---------------------------------------------------------------- arguments
# parse_components ARGS...: sets SELECTED (all when empty), rejects unknown names.
parse_components() {
  SELECTED=()
  local arg c ok
  for arg in "$@"; do
    ok=0
    for c in "${COMPONENTS[@]}"; do [[ "$arg" == "$c" ]] && ok=1; done
    ((ok)) || { printf '[%s] unknown component "%s" (known: %s)\n' "$VERB" "$arg" "${COMPONENTS[*]}" >&2; exit 2; }
    SELECTED+=("$arg")
  done
  ((${#SELECTED[@]})) || SELECTED=("${COMPONENTS[@]}")
  # keep the canonical order whatever the order of the arguments
  local ordered=()
  for c in "${COMPONENTS[@]}"; do
    for arg in "${SELECTED[@]}"; do [[ "$arg" == "$c" ]] && { ordered+=("$c"); break; }; done
  done
  SELECTED=("${ordered[@]}")
}

# ---------------------------------------------------------------- locking
# One verb at a time per checkout (tests may run `down kafka` / `up kafka` concurrently).
take_lock() {
  mkdir -p "$DATA_DIR"
  exec 9>"$DATA_DIR/.lock"
  if ! flock -n 9; then
    log "waiting for another deploy/local command to finish (lock $(rel "$DATA_DIR/.lock"))"
    flock -w 600 9 || { printf '[%s] FAILED: lock: timed out waiting for the lock\n' "$VERB" >&2; exit 1; }
  fi
}

# ---------------------------------------------------------------- privileges and packages
as_root() {
  if ((EUID == 0)); then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"
  else printf '[%s] FAILED: need root (or sudo) to run: %s\n' "$VERB" "$*" >&2; return 1
  fi
}

# apt_install PKG...: installs Debian packages, running `apt-get update` first only when the
# package lists are empty, and once more when the install fails (stale lists).
apt_install() {
  (($#)) || return 0
  local logf; logf="$(logfile install)"
  log "install: apt-get install $* (log: $(rel "$logf"))"
  export DEBIAN_FRONTEND=noninteractive
  if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
    as_root apt-get update >>"$logf" 2>&1 || fail "install: apt-get update" "$logf" "apt-get update failed"
  fi
  if ! as_root apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 "$@" >>"$logf" 2>&1; then
    log "install: apt-get install failed, refreshing package lists and retrying"
    as_root apt-get update >>"$logf" 2>&1 || fail "install: apt-get update" "$logf" "apt-get update failed"
    as_root apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 "$@" >>"$logf" 2>&1 \
      || fail "install: apt-get install $*" "$logf" "apt-get install failed"
  fi
}

# need_cmd CMD APT_PACKAGE: prints the package when the command is missing (for batching).
need_cmd() { command -v "$1" >/dev/null 2>&1 || printf '%s\n' "$2"; }

require_go() {
  # the official tarball's place, when a non-login shell does not have it on PATH
  if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then PATH="$PATH:/usr/local/go/bin"; fi
  command -v go >/dev/null 2>&1 || fail "install: go" "" \
    "Go (>= 1.24) is required to build $1 and is not on PATH; Debian's golang package is too old (install from https://go.dev/dl)"
}

# go_build_module NAME MODULE VERSION PACKAGE DEST: builds PACKAGE (a path inside the module) of
# MODULE@VERSION into DEST, once. It builds inside the module's own directory of the Go module
# cache, so that module's go.mod (with its replace directives) is the main module: `go install
# pkg@version` refuses a module whose go.mod has replace directives (Jaeger's does).
go_build_module() {
  local name="$1" module="$2" version="$3" pkg="$4" dest="$5"
  [[ -x "$dest" ]] && return 0
  require_go "$name"
  local lf t0 dir tmp; lf="$(logfile "$name-install")"; t0="$(now)"
  mkdir -p "$LOG_DIR" "$(dirname "$dest")"
  log "$name: go build $module/$pkg@$version (a cold build takes minutes; log: $(rel "$lf"))"
  dir="$(cd / && GOTOOLCHAIN=local GOFLAGS= go mod download -json "$module@$version" 2>>"$lf" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -n "$dir" && -f "$dir/go.mod" ]] || fail "$name: install (go mod download)" "$lf" "downloading $module@$version failed"
  tmp="$(mktemp "$(dirname "$dest")/.$name-build.XXXXXX")"
  if ! (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-buildvcs=false go build -o "$tmp" "./$pkg") >>"$lf" 2>&1; then
    rm -f "$tmp"
    fail "$name: install (go build)" "$lf" "building $module/$pkg failed"
  fi
  chmod 755 "$tmp"
  mv -f "$tmp" "$dest"
  log "$name: built in $(($(now) - t0))s"
}

# ---------------------------------------------------------------- processes
# alive PID: the process exists and is not a zombie (an exited child waiting to be reaped by
# init, which on some machines happens only about once a second). A zombie *leader* whose other
# threads still run is alive: a JVM shutting down looks like that, and still holds its ports.
alive() {
  local state tasks
  kill -0 "$1" 2>/dev/null || return 1
  state="$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)"   # after "(comm) "
  [[ -n "$state" ]] || return 1
  [[ "$state" != Z ]] && return 0
  tasks="$(find "/proc/$1/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
  ((tasks > 1))
}

# pid_of NAME: prints the pid when the recorded process is alive and still the one we started
# (its command line mentions our data dir or the marker set in <name>_start), else nothing.
pid_of() {
  local pf pid; pf="$(pidfile "$1")"
  [[ -s "$pf" ]] || return 0
  pid="$(<"$pf")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  alive "$pid" || return 0
  # guard against pid reuse after a reboot: the command line must reference this checkout
  # (its data dir, or what <name>_marker prints)
  local marker="$DATA_DIR"
  if declare -F "${1}_marker" >/dev/null; then marker="$("${1}_marker")"; fi
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$marker" || return 0
  printf '%s' "$pid"
}
is_running() { [[ -n "$(pid_of "$1")" ]]; }

# spawn NAME CMD...: starts CMD detached in its own session (survives the caller), stdout and
# stderr appended to logs/NAME.log, pid written by the child itself just before exec.
spawn() {
  local name="$1"; shift
  local pf lf; pf="$(pidfile "$name")"; lf="$(logfile "$name")"
  mkdir -p "$PID_DIR" "$LOG_DIR"
  rm -f "$pf"
  # keep logs bounded: past 50 MB the old log becomes <name>.log.1
  if [[ -f "$lf" ]] && (($(stat -c %s "$lf") > 50 * 1024 * 1024)); then mv -f "$lf" "$lf.1"; fi
  printf '\n===== %s: starting %s =====\n' "$(date -Is)" "$name" >>"$lf"
  # shellcheck disable=SC2016
  # (9>&- : the server must not inherit the lock held by this script)
  setsid nohup bash -c 'echo $$ >"$0"; exec "$@"' "$pf" "$@" >>"$lf" 2>&1 </dev/null 9>&- &
  local i
  for ((i = 0; i < 50; i++)); do [[ -s "$pf" ]] && return 0; sleep 0.1; done
  fail "$name: start" "$lf" "the process did not start"
}

# stop_pid NAME SIGNAL: sends SIGNAL, waits up to STOP_TIMEOUT, then SIGKILLs the process group.
stop_pid() {
  local name="$1" sig="$2" pid i
  pid="$(pid_of "$name")"
  if [[ -z "$pid" ]]; then rm -f "$(pidfile "$name")"; return 0; fi
  kill "-$sig" "$pid" 2>/dev/null || true
  for ((i = 0; i < STOP_TIMEOUT * 10; i++)); do
    alive "$pid" || break
    sleep 0.1
  done
  if alive "$pid"; then
    warn "$name: still running after ${STOP_TIMEOUT}s, sending SIGKILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$(pidfile "$name")"
}

# reserve_ports: our ports lie inside Linux's ephemeral range (32768-60999), so on a busy machine
# (tests open thousands of loopback connections) an outgoing connection now and then holds one
# as its local port just when its server starts: "bind: address already in use" (seen with
# Jaeger's 56686). Reserving them keeps the kernel from handing them out. Needs root; the
# setting lasts until reboot; skipped when not writable.
reserve_ports() {
  local f=/proc/sys/net/ipv4/ip_local_reserved_ports cur want
  [[ -w "$f" ]] || return 0
  cur="$(<"$f")"
  # shellcheck disable=SC2086
  want="$(printf '%s\n' ${cur//,/ } "$PG_PORT" "$REDIS_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" \
    "$MINIO_PORT" "$MINIO_CONSOLE_PORT" "$MONGO_PORT" "$JAEGER_OTLP_GRPC_PORT" "$JAEGER_OTLP_HTTP_PORT" \
    "$JAEGER_QUERY_PORT" "$JAEGER_QUERY_GRPC_PORT" "$JAEGER_METRICS_PORT" "$PROMETHEUS_PORT" | sort -u | paste -sd, -)"
  [[ "$want" == "$cur" ]] || echo "$want" >"$f" 2>/dev/null || true
}

# port_open PORT: true when something accepts TCP connections on 127.0.0.1:PORT.
port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# wait_ready NAME: polls <name>_ready until it succeeds, the process dies, or READY_TIMEOUT.
wait_ready() {
  local name="$1" start; start="$(now)"
  while true; do
    if "${name}_ready" >/dev/null 2>&1; then return 0; fi
    if ! is_running "$name"; then
      fail "$name: wait for readiness" "$(logfile "$name")" "the process exited"
    fi
    if (($(now) - start >= READY_TIMEOUT)); then
      fail "$name: wait for readiness" "$(logfile "$name")" "not ready after ${READY_TIMEOUT}s"
    fi
    sleep 0.3
  done
}

# ---------------------------------------------------------------- env file
write_env_file() {
  local mongo_url="${1:-mongodb://$HOST:$MONGO_PORT}" tmp
  mkdir -p "$DATA_DIR"
  tmp="$(mktemp "$DATA_DIR/.env.XXXXXX")"
  cat >"$tmp" <<EOF
# Written by deploy/local/up: the infra servers of this checkout. Source it: . .data/local/env
export WAYFARER_INFRA=local
export PG_URL=postgres://$PG_USER:$PG_PASSWORD@$HOST:$PG_PORT/postgres
export REDIS_URL=redis://$HOST:$REDIS_PORT
export KAFKA_BROKERS=$HOST:$KAFKA_PORT
export S3_ENDPOINT=http://$HOST:$MINIO_PORT
export S3_ACCESS_KEY=$S3_ACCESS_KEY
export S3_SECRET_KEY=$S3_SECRET_KEY
export MONGO_URL=$mongo_url
EOF
  # observability, when running (native mode only): where services send traces, where to read them
  # WAYFARER_TRACES_COMING=1: Jaeger is being built or started in the background (npm start), so
  # the processes started meanwhile already send to it (spans before it listens are dropped)
  if is_running jaeger || [[ "${WAYFARER_TRACES_COMING:-}" == 1 ]]; then
    cat >>"$tmp" <<EOF
export OTEL_EXPORTER_OTLP_ENDPOINT=http://$HOST:$JAEGER_OTLP_HTTP_PORT
export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf
export JAEGER_QUERY_URL=http://$HOST:$JAEGER_QUERY_PORT
EOF
  fi
  if is_running prometheus; then
    printf 'export PROMETHEUS_URL=http://%s:%s\n' "$HOST" "$PROMETHEUS_PORT" >>"$tmp"
  fi
  chmod 644 "$tmp"
  mv -f "$tmp" "$ENV_FILE"
}

# print_table NAME...: one line per component: state, address, pid, log.
# Sets ALL_UP=0 when one of them is not up.
print_table() {
  local name pid state
  ALL_UP=1
  printf '  %-10s %-6s %-22s %-8s %s\n' COMPONENT STATE ADDRESS PID LOG
  for name in "$@"; do
    pid="$(pid_of "$name")"
    if [[ -n "$pid" ]] && "${name}_ready" >/dev/null 2>&1; then state=up
    elif [[ -n "$pid" ]]; then state=starting; ALL_UP=0
    else state=down; ALL_UP=0; pid=-
    fi
    printf '  %-10s %-6s %-22s %-8s %s\n' "$name" "$state" "$("${name}_addr")" "$pid" "$(rel "$(logfile "$name")")"
  done
}

# ---------------------------------------------------------------- components
for _f in postgres redis kafka minio mongo jaeger prometheus docker; do
  # shellcheck source=/dev/null
  source "$LOCAL_DIR/lib/$_f.sh"
done
unset _f
