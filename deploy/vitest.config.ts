import { defineConfig } from 'vitest/config';

// Checks of the deployment files (docker-compose.yml, Dockerfile, deploy/local, deploy/k8s
// rendered and validated, deploy/prometheus rules with promtool) and of the observability
// servers deploy/local/up runs (Prometheus, Jaeger), and docker-compose.yml started for real
// (test/compose-up.test.ts: the app images built and run with podman, minutes cold; its header
// has the figures). The Kubernetes tools come from
// deploy/test/k8s-tools.sh. Run from this folder: ../node_modules/.bin/vitest run
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // kustomize, kubeconform and promtool run as processes; the live checks poll servers
    testTimeout: 60_000,
  },
});
