#!/usr/bin/env bash
# `npm run bench`: every benchmark under bench/. Each prints ratios against a baseline measured
# side by side in the same run (never absolute timings alone: these machines are noisy).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_packages
for bench in bench/*/*.bench.ts; do
  step "bench: $bench"
  node --import tsx "$bench"
done
