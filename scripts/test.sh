#!/usr/bin/env bash
# `npm test`: every test of the repo, from a fresh machine. Installs packages, Chromium and the
# infra servers (deploy/local) when missing, then runs lint, type checks, unit + integration
# tests of each workspace, and the e2e journeys in headless Chromium.
# Ends with one line "N passed, N failed" (exit 1 if anything failed).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
started=$SECONDS

ensure_packages

if ! command -v chromium >/dev/null 2>&1; then
  step "install Chromium (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; } \
    || fail "apt-get install chromium"
fi

step "start infra (deploy/local/up)"
bash deploy/local/up || fail "deploy/local/up"
set -a
# shellcheck disable=SC1091
source .data/local/env
set +a

# the deploy checks render and validate the Kubernetes manifests: kustomize (kubectl's, or built),
# kubeconform and the schemas (built from the Go module proxy once, cached like deploy/local's)
step "Kubernetes check tools (deploy/test/k8s-tools.sh)"
bash deploy/test/k8s-tools.sh >/dev/null || fail "deploy/test/k8s-tools.sh"

# the compose test builds the app images and runs docker-compose.yml's apps with podman (runc)
# on a Debian base it makes with mmdebstrap (deploy/images: base image cached in ~/.cache/wayfarer)
step "container tools (deploy/images/tools.sh)"
bash deploy/images/tools.sh || fail "deploy/images/tools.sh (podman, runc, mmdebstrap)"

step "lint and format check"
npx eslint . || fail "eslint"
npm run cycles --silent || fail "import cycles (npm run cycles: .dependency-cruiser.cjs)"
npx prettier --check . >/dev/null || { npx prettier --check . || true; fail "prettier (run npm run format)"; }

step "type check"
npm run typecheck --workspaces --if-present --silent || fail "typecheck"
tsc -p scripts/tsconfig.json || fail "typecheck scripts"
tsc -p bench/tsconfig.json || fail "typecheck bench"
tsc -p deploy/tsconfig.json || fail "typecheck deploy"

results=.data/test-results
rm -rf "$results" && mkdir -p "$results"
failed_suites=()
run_suite() { # name dir
  local name=$1 dir=$2
  step "tests: $name"
  if ! (cd "$dir" && vitest run --reporter=default --reporter=json --outputFile="$ROOT/$results/$name.json"); then
    failed_suites+=("$name")
  fi
}

for dir in packages/* services/* gateway frontend; do
  [ -f "$dir/vitest.config.ts" ] || [ -f "$dir/vite.config.ts" ] || continue
  run_suite "$(echo "$dir" | tr '/' '-')" "$dir"
done
run_suite deploy deploy
run_suite scripts scripts # the stack runner (restarts, with real processes)

ensure_frontend_build
run_suite e2e e2e

step "summary"
node -e '
  const fs = require("fs"), path = require("path");
  const dir = process.argv[1];
  const crashed = process.argv.slice(2); // suites that failed; one without a report counts once
  let passed = 0, failed = 0, skipped = 0;
  for (const f of fs.readdirSync(dir)) {
    const r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + (r.numFailedTestSuites && !r.numFailedTests ? 1 : 0);
    skipped += r.numPendingTests + r.numTodoTests;
    console.log(`  ${f.replace(/\.json$/, "").padEnd(24)} ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  }
  for (const name of crashed) {
    if (fs.existsSync(path.join(dir, name + ".json"))) continue;
    failed += 1;
    console.log(`  ${name.padEnd(24)} did not run to the end (see its output above)`);
  }
  console.log(`\n${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$results" "${failed_suites[@]}"
echo "took $((SECONDS - started)) s"
if [ ${#failed_suites[@]} -gt 0 ]; then
  fail "suites with failures: ${failed_suites[*]}"
fi
