# shellcheck shell=bash
# Docker path: when a Docker engine answers, `up` runs the infra services of the root
# docker-compose.yml (same names: postgres redis kafka minio mongo, published on the same loopback
# ports) instead of native processes, and writes the same env file.
# NOT TESTED on the machine that wrote it (it has a docker CLI but no engine).
# WAYFARER_LOCAL_DOCKER=auto (default) | never | always.

COMPOSE_FILE="$REPO_ROOT/docker-compose.yml"
MODE_FILE="$DATA_DIR/mode"
# the components docker-compose.yml has; Jaeger and Prometheus run only natively
# (WAYFARER_LOCAL_DOCKER=never)
DOCKER_COMPONENTS=(postgres redis kafka minio mongo)

# docker_selected: keeps the compose services of SELECTED, says which others are left out.
docker_selected() {
  local c d keep=() skipped=()
  for c in "${SELECTED[@]}"; do
    for d in "${DOCKER_COMPONENTS[@]}"; do [[ "$c" == "$d" ]] && { keep+=("$c"); continue 2; }; done
    skipped+=("$c")
  done
  ((${#skipped[@]} == 0)) || log "${skipped[*]}: not in docker-compose.yml, left out (WAYFARER_LOCAL_DOCKER=never runs them)"
  SELECTED=("${keep[@]}")
}

# use_docker: true when this checkout's infra is (or should be) run by Docker compose.
use_docker() {
  case "${WAYFARER_LOCAL_DOCKER:-auto}" in
    never) return 1 ;;
    always) return 0 ;;
  esac
  # a checkout already running native processes stays native, and vice versa
  if [[ -f "$MODE_FILE" ]]; then [[ "$(<"$MODE_FILE")" == docker ]]; return; fi
  [[ "$VERB" == up ]] || return 1
  command -v docker >/dev/null 2>&1 && timeout 10 docker info >/dev/null 2>&1
}

docker_compose() {
  if docker compose version >/dev/null 2>&1; then docker compose -f "$COMPOSE_FILE" "$@"
  else docker-compose -f "$COMPOSE_FILE" "$@"
  fi
}

docker_up() {
  docker_selected
  log "docker engine found: docker compose up -d --wait ${SELECTED[*]}"
  mkdir -p "$DATA_DIR"
  echo docker >"$MODE_FILE"
  if docker compose version >/dev/null 2>&1; then
    docker_compose up -d --wait "${SELECTED[@]}" || fail "docker compose up" "" "see: docker compose logs ${SELECTED[*]}"
  else
    # docker-compose v1 has no --wait: poll the healthchecks
    docker_compose up -d "${SELECTED[@]}" || fail "docker-compose up" "" "see: docker-compose logs ${SELECTED[*]}"
    local start; start="$(now)"
    until docker_status >/dev/null; do
      (($(now) - start < READY_TIMEOUT)) || fail "docker-compose up: wait for healthy" "" "see: docker-compose logs ${SELECTED[*]}"
      sleep 2
    done
  fi
  # The mongo service is a one-node replica set that names itself mongo:27017; from the host
  # the driver must not try to discover that name.
  write_env_file "mongodb://$HOST:$MONGO_PORT/?directConnection=true"
  docker_compose ps "${SELECTED[@]}"
  log "env: $(rel "$ENV_FILE") (source it: . $(rel "$ENV_FILE"))"
}

docker_status() {
  docker_selected
  local name id health rc=0
  for name in "${SELECTED[@]}"; do
    id="$(docker_compose ps -q "$name" 2>/dev/null || true)"
    health="$([[ -n "$id" ]] && docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id" 2>/dev/null || echo down)"
    printf '  %-9s %-10s %s (docker)\n' "$name" "$health" "$("${name}_addr")"
    [[ "$health" == healthy ]] || rc=1
  done
  return "$rc"
}

docker_down() {
  docker_selected
  local purge="$1"
  if ((purge)) && ((${#SELECTED[@]} == ${#DOCKER_COMPONENTS[@]})); then
    docker_compose down -v    # the whole compose project, with its named volumes
    rm -rf "$DATA_DIR"
  else
    docker_compose stop "${SELECTED[@]}"
  fi
}
