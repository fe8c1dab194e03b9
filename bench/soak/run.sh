#!/usr/bin/env bash
# The 10-minute soak of the whole stack (not in CI): see bench/soak/soak.ts and bench/README.md.
# Env: SOAK_MINUTES, SOAK_WARMUP_MINUTES, SOAK_RPS, SOAK_USERS, SOAK_MAX_GROWTH_MB.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash deploy/local/status >/dev/null || {
  echo "infra is not up: npm run infra:up" >&2
  exit 1
}
[ -f frontend/dist/index.html ] || npm run build -w frontend
exec node_modules/.bin/node --import tsx bench/soak/soak.ts
