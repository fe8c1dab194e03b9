# shellcheck shell=bash
# PostgreSQL 15 (Debian package postgresql-15), one cluster under .data/local/postgres/data.
# Listens on 127.0.0.1 only (no unix socket). The bootstrap superuser is `wayfarer`/`wayfarer`
# (scram-sha-256), so PG_URL works for the apps, which create their own databases.
# postgres refuses to run as root: when we are root it runs as the `postgres` system user.

PG_BIN="${WAYFARER_PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_HOME="$DATA_DIR/postgres"     # a folder, or a symlink to /var/lib/wayfarer/<hash>/postgres

# The data dir by its real path (the postgres user may not be able to traverse the symlink's).
pg_data() { printf '%s/data' "$(readlink -f "$PG_HOME")"; }
# What deploy/local looks for in the server's command line (see pid_of).
postgres_marker() { pg_data; }

postgres_addr() { printf '%s:%s' "$HOST" "$PG_PORT"; }

# The OS user that owns the data dir and runs the server.
pg_os_user() { if ((EUID == 0)); then printf postgres; else id -un; fi; }

# pg_as CMD...: runs CMD as that user (setpriv execs in place, so a pid stays the server's pid).
pg_as() {
  if ((EUID == 0)); then setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
  else "$@"
  fi
}

postgres_apt_packages() {
  [[ -x "$PG_BIN/postgres" ]] || printf '%s\n' postgresql-15
}

# Like the official image: the Debian package must not create and start its own cluster on 5432.
postgres_no_main_cluster() {
  as_root mkdir -p /etc/postgresql-common/createcluster.d
  echo 'create_main_cluster = false' | as_root tee /etc/postgresql-common/createcluster.d/wayfarer.conf >/dev/null
}

postgres_install() {
  if [[ ! -x "$PG_BIN/postgres" ]]; then
    postgres_no_main_cluster
    apt_install postgresql-15
  fi
  [[ -x "$PG_BIN/postgres" ]] || fail "postgres: install" "$(logfile install)" "$PG_BIN/postgres is missing after install"
  if ((EUID == 0)) && ! id postgres >/dev/null 2>&1; then
    log "postgres: creating the postgres system user"
    useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres
  fi
  postgres_init
}

# The data dir must be reachable by the postgres user. When the checkout sits in a folder it
# cannot traverse (e.g. under /root), the data lives in /var/lib/wayfarer/<hash> instead and
# .data/local/postgres is a symlink to it.
postgres_prepare_home() {
  [[ -e "$PG_HOME" ]] && return 0
  mkdir -p "$DATA_DIR"
  if ((EUID == 0)) && ! setpriv --reuid=postgres --regid=postgres --init-groups -- test -x "$DATA_DIR"; then
    local alt; alt="/var/lib/wayfarer/$(printf '%s' "$REPO_ROOT" | sha256sum | cut -c1-12)/postgres"
    warn "postgres: the postgres user cannot reach $DATA_DIR; keeping its data in $alt (symlinked)"
    mkdir -p "$alt"
    ln -sfn "$alt" "$PG_HOME"
  else
    mkdir -p "$PG_HOME"
  fi
}

postgres_init() {
  [[ -f "$PG_HOME/data/PG_VERSION" ]] && return 0
  local lf data home; lf="$(logfile postgres)"
  mkdir -p "$LOG_DIR"
  postgres_prepare_home
  home="$(readlink -f "$PG_HOME")"; data="$home/data"
  log "postgres: initdb (once) in $(rel "$PG_HOME/data") (log: $(rel "$lf"))"
  rm -rf "$data"
  mkdir -p "$data"
  local pw="$home/.pwfile"
  printf '%s\n' "$PG_PASSWORD" >"$pw"
  chown -R "$(pg_os_user):" "$home" "$data"
  chmod 700 "$data"
  chmod 600 "$pw"
  if ! pg_as "$PG_BIN/initdb" -D "$data" -U "$PG_USER" --pwfile="$pw" \
      --auth-local=scram-sha-256 --auth-host=scram-sha-256 \
      --encoding=UTF8 --locale=C.UTF-8 >>"$lf" 2>&1; then
    rm -f "$pw"
    rm -rf "$data"
    fail "postgres: initdb" "$lf" "initdb failed"
  fi
  rm -f "$pw"
}

postgres_start() {
  local -a server=("$PG_BIN/postgres" -D "$(pg_data)"
    -c listen_addresses="$HOST" -c port="$PG_PORT" -c unix_socket_directories=
    -c max_connections=200 -c shared_buffers=128MB
    -c logging_collector=off -c log_line_prefix='%m [%p] %q%u@%d ')
  if ((EUID == 0)); then
    spawn postgres setpriv --reuid=postgres --regid=postgres --init-groups -- "${server[@]}"
  else
    spawn postgres "${server[@]}"
  fi
}

postgres_ready() {
  "$PG_BIN/pg_isready" -q -h "$HOST" -p "$PG_PORT" -t 2 || return 1
  # a real login with the credentials of PG_URL
  PGPASSWORD="$PG_PASSWORD" PGCONNECT_TIMEOUT=3 "$PG_BIN/psql" -X -q -t -A -h "$HOST" -p "$PG_PORT" \
    -U "$PG_USER" -d postgres -c 'select 1' 2>/dev/null | grep -qx 1
}

# SIGINT = "fast" shutdown (SIGTERM would wait for every client to disconnect).
postgres_stop() { stop_pid postgres INT; }

postgres_purge() {
  local target; target="$(readlink -f "$PG_HOME" 2>/dev/null || true)"
  if [[ -n "$target" && "$target" != "$PG_HOME" ]]; then
    rm -rf "$target"
    rmdir "$(dirname "$target")" 2>/dev/null || true
  fi
  rm -rf "$PG_HOME"
}
