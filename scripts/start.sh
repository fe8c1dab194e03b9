#!/usr/bin/env bash
# `npm start`: installs what is missing, starts the infra (deploy/local), builds the frontend,
# then runs the gateway and every service and prints the URL to open.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_packages
step "start infra (deploy/local/up)"
bash deploy/local/up || fail "deploy/local/up"
ensure_frontend_build
step "start the services"
exec node --import tsx scripts/stack/start.ts
