# shellcheck shell=bash
# MinIO (S3 API), built from source with `go install` at a pinned pseudo-version (the project
# ships source only). Binary cached in $CACHE_DIR/minio-<version>/minio, data in .data/local/minio.

MINIO_HOME="$DATA_DIR/minio"
MINIO_BIN="$CACHE_DIR/minio-$MINIO_VERSION/minio"

minio_addr() { printf '%s:%s' "$HOST" "$MINIO_PORT"; }

minio_apt_packages() { need_cmd curl curl; }

minio_install() {
  [[ -x "$MINIO_BIN" ]] && return 0
  # shellcheck disable=SC2046
  apt_install $(minio_apt_packages)
  require_go MinIO
  local lf t0 gobin; lf="$(logfile minio-install)"; t0="$(now)"
  mkdir -p "$LOG_DIR" "$CACHE_DIR"
  gobin="$(mktemp -d "$CACHE_DIR/.minio-build.XXXXXX")"
  chmod 755 "$gobin"
  log "minio: go install $MINIO_MODULE@$MINIO_VERSION (a cold build takes minutes; log: $(rel "$lf"))"
  if ! (cd "$gobin" && GOBIN="$gobin" GOTOOLCHAIN=local GOFLAGS=-buildvcs=false \
        go install "$MINIO_MODULE@$MINIO_VERSION") >>"$lf" 2>&1; then
    rm -rf "$gobin"
    fail "minio: install (go install)" "$lf" "building MinIO failed"
  fi
  mkdir -p "$(dirname "$MINIO_BIN")"
  mv -f "$gobin/minio" "$MINIO_BIN"
  rm -rf "$gobin"
  log "minio: built in $(($(now) - t0))s"
}

minio_start() {
  mkdir -p "$MINIO_HOME/data"
  MINIO_ROOT_USER="$S3_ACCESS_KEY" MINIO_ROOT_PASSWORD="$S3_SECRET_KEY" \
    MINIO_BROWSER=on MINIO_UPDATE=off \
    spawn minio "$MINIO_BIN" server "$MINIO_HOME/data" \
    --address "$HOST:$MINIO_PORT" --console-address "$HOST:$MINIO_CONSOLE_PORT" --quiet
}

# A signed S3 ListBuckets call with the credentials of the env file.
minio_ready() {
  curl -fsS -o /dev/null --max-time 3 --aws-sigv4 "aws:amz:us-east-1:s3" \
    --user "$S3_ACCESS_KEY:$S3_SECRET_KEY" "http://$HOST:$MINIO_PORT/"
}

minio_stop() { stop_pid minio TERM; }

minio_purge() { rm -rf "$MINIO_HOME"; }
