#!/usr/bin/env bash
# Installs what the image builds and the compose test (deploy/test/compose-up.test.ts) need on
# our machines, when missing: podman with the runc runtime (crun refuses this kernel's cgroup
# mode; deploy/images/containers.conf selects runc) and mmdebstrap (deploy/images/base.sh).
# Debian packages; needs root. Idempotent: a machine that has them does nothing.
set -euo pipefail
missing=()
for tool in podman runc mmdebstrap; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deploy/images/tools.sh: installing ${missing[*]} (Debian packages)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 ||
  { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
