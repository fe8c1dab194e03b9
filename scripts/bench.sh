#!/usr/bin/env bash
# `npm run bench`: every benchmark under bench/ (bench/<area>/*.bench.ts), then one table of every
# budget they recorded (bench/report.ts), written to bench/results.json. Budgets are ratios
# against baselines measured side by side in the same run (these machines are noisy); the format
# is in bench/README.md. Exit 1 when a budget does not hold or a benchmark fails to run.
# One benchmark alone: `npm run bench -- web` runs the files whose path contains "web".
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_packages
ensure_frontend_build
# the throughput benchmarks' load generator (bench/lib/wrk.ts says why not autocannon)
if ! command -v wrk >/dev/null 2>&1; then
  step "install wrk (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q wrk >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q wrk >/dev/null; } \
    || fail "apt-get install wrk"
fi
# NGINX: the hop an operator would otherwise put in front, held beside the gateway
if ! command -v nginx >/dev/null 2>&1 && ! [ -x /usr/sbin/nginx ]; then
  step "install nginx (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q nginx >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q nginx >/dev/null; } \
    || fail "apt-get install nginx"
fi
export BENCH_RESULTS_DIR="$ROOT/bench/.results"
rm -rf "$BENCH_RESULTS_DIR" && mkdir -p "$BENCH_RESULTS_DIR"
for bench in bench/*/*.bench.ts; do
  if [ $# -gt 0 ] && [[ "$bench" != *"$1"* ]]; then continue; fi
  step "bench: $bench"
  code=0
  node --expose-gc --import tsx "$bench" || code=$?
  echo "$code $bench" >>"$BENCH_RESULTS_DIR/runs.txt"
done
step "results"
node --import tsx bench/report.ts
