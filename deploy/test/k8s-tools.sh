#!/usr/bin/env bash
# deploy/test/k8s-tools.sh: the tools deploy/test/k8s-rendered.test.ts renders and validates the manifests
# with, built once when missing (cached in ${WAYFARER_CACHE:-~/.cache/wayfarer}, like
# deploy/local's servers). Prints, one per line (logs go to stderr):
#   KUSTOMIZE=<command that renders a kustomization dir>   `kubectl kustomize` when kubectl's
#             kustomize is v4 or later, else a kustomize v5 built from the Go module proxy
#             (Debian's kubernetes-client is kubectl 1.20 with kustomize v2, too old for
#             `labels`, `patches` with targets and components)
#   KUBECONFORM=<path>       kubeconform, built from the Go module proxy
#   K8S_SCHEMAS=<dir>        JSON schemas of the built-in kinds, generated from k8s.io/api by
#                            deploy/test/k8s-schemas (kubeconform's own come from GitHub,
#                            which is not reachable here)
# WAYFARER_BUILD_KUSTOMIZE=1 builds and uses kustomize even when kubectl's would do.
set -euo pipefail
VERB=k8s-tools
# shellcheck source=../local/lib/common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../local/lib/common.sh"
log() { printf '[%s] %s\n' "$VERB" "$*" >&2; }   # stdout carries the answer

KUBECONFORM_VERSION=v0.7.0
KUSTOMIZE_VERSION=v5.8.1
SCHEMAS_SRC="$REPO_ROOT/deploy/test/k8s-schemas"

mkdir -p "$CACHE_DIR" "$LOG_DIR"
take_lock_tools() { exec 8>"$CACHE_DIR/.k8s-tools.lock"; flock -w 1200 8; }
take_lock_tools

# kustomize: kubectl's when it is recent enough
kustomize_cmd=""
if [[ "${WAYFARER_BUILD_KUSTOMIZE:-0}" != 1 ]] && command -v kubectl >/dev/null 2>&1; then
  kv="$(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: v\([0-9]*\).*/\1/p')"
  if [[ -n "$kv" ]] && ((kv >= 4)); then kustomize_cmd="kubectl kustomize"; fi
fi
if [[ -z "$kustomize_cmd" ]]; then
  bin="$CACHE_DIR/kustomize-$KUSTOMIZE_VERSION/kustomize"
  go_build_module kustomize sigs.k8s.io/kustomize/kustomize/v5 "$KUSTOMIZE_VERSION" . "$bin"
  kustomize_cmd="$bin build"
fi

kubeconform="$CACHE_DIR/kubeconform-$KUBECONFORM_VERSION/kubeconform"
go_build_module kubeconform github.com/yannh/kubeconform "$KUBECONFORM_VERSION" cmd/kubeconform "$kubeconform"

# the schemas: one folder per version of the generator and its k8s.io/api
hash="$(cat "$SCHEMAS_SRC/go.mod" "$SCHEMAS_SRC/go.sum" "$SCHEMAS_SRC/main.go" | sha256sum | cut -c1-10)"
schemas_home="$CACHE_DIR/k8s-schemas-$hash"
if [[ ! -f "$schemas_home/schemas/deployment-apps-v1.json" ]]; then
  require_go k8s-schemas
  lf="$(logfile k8s-schemas-install)"; t0="$(now)"
  log "k8s-schemas: go build deploy/test/k8s-schemas and generate (a cold build takes minutes; log: $(rel "$lf"))"
  rm -rf "$schemas_home.tmp" && mkdir -p "$schemas_home.tmp"
  (cd "$SCHEMAS_SRC" && GOTOOLCHAIN=local GOFLAGS=-buildvcs=false go build -o "$schemas_home.tmp/k8s-schemas" .) >>"$lf" 2>&1 \
    || fail "k8s-schemas: go build" "$lf" "building the schema generator failed"
  "$schemas_home.tmp/k8s-schemas" "$schemas_home.tmp/schemas" >>"$lf" 2>&1 \
    || fail "k8s-schemas: generate" "$lf" "generating the schemas failed"
  rm -rf "$schemas_home" && mv "$schemas_home.tmp" "$schemas_home"
  log "k8s-schemas: ready in $(($(now) - t0))s"
fi

printf 'KUSTOMIZE=%s\nKUBECONFORM=%s\nK8S_SCHEMAS=%s\n' "$kustomize_cmd" "$kubeconform" "$schemas_home/schemas"
