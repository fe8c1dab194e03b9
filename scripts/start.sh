#!/usr/bin/env bash
# `npm start`: installs what is missing, starts the infra (deploy/local), builds the frontend,
# then runs the gateway and every service and prints the URL to open.
# The trace and metrics servers are not needed to use the product: they are installed (Jaeger is
# built from source on a fresh machine, minutes) and started in the background, with one line
# when they are ready; the services send their spans to Jaeger's port from the start.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_packages
step "start infra (deploy/local/up)"
WAYFARER_TRACES_COMING=1 bash deploy/local/up postgres redis kafka minio mongo || fail "deploy/local/up"
observability_log=.data/local/logs/observability-up.log
(
  if bash deploy/local/up jaeger prometheus >"$observability_log" 2>&1; then
    printf '[start] traces and metrics are ready: Jaeger %s, Prometheus %s\n' \
      "$(sed -n 's/^export JAEGER_QUERY_URL=//p' .data/local/env)" \
      "$(sed -n 's/^export PROMETHEUS_URL=//p' .data/local/env)"
  else
    printf '[start] traces and metrics did not start (the product runs without them): %s\n' "$observability_log"
  fi
) &
ensure_frontend_build
step "start the services"
exec node --import tsx scripts/stack/start.ts
