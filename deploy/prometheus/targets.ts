/**
 * Prometheus scrape targets of a local stack (file-based service discovery): one target per
 * process of scripts/stack/services.ts STACK, at the address its `/metrics` is served on
 * (deploy/prometheus/README.md). `deploy/local/up` writes the dev and e2e stacks' files with
 * this; a stack runner started on other ports can call `writeStackTargets` itself (Prometheus
 * reads a changed file again within seconds).
 *
 *   tsx deploy/prometheus/targets.ts DIR     writes DIR/dev.json and DIR/e2e.json
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { E2E_PORTS } from '../../e2e/support/stack-setup';
import { GATEWAY_METRICS_PORT_OFFSET } from '@wayfarer/gateway';
import { DEFAULT_PORTS, STACK, type StackPorts } from '../../scripts/stack/services';

/**
 * Where a process of a stack serves `/metrics`: a service on its own port (services are not
 * public: the gateway forwards only `/api/*` and the socket.io upgrade); the gateway, whose own
 * port is public, on its second, loopback-only port: its port + GATEWAY_METRICS_PORT_OFFSET
 * (8080 -> 9080, e2e 18080 -> 19080), the default of its `METRICS_PORT`.
 */
export function metricsPort(processName: string, ports: StackPorts): number {
  const port = ports[processName as keyof StackPorts];
  if (port === undefined) throw new Error(`no port for ${processName}`);
  return processName === 'gateway' ? port + GATEWAY_METRICS_PORT_OFFSET : port;
}

/** One file-SD group: Prometheus adds the labels to every series scraped from the target. */
export interface TargetGroup {
  targets: string[];
  labels: { stack: string; service: string; process: string };
}

/** `service` is the workspace (chat for both chat and chat2), `process` the stack's name. */
export function stackTargets(stack: string, ports: StackPorts): TargetGroup[] {
  return STACK.map((p) => ({
    targets: [`127.0.0.1:${metricsPort(p.name, ports)}`],
    labels: { stack, service: basename(p.dir), process: p.name },
  }));
}

/** Writes DIR/<stack>.json atomically (Prometheus never reads half a file). */
export function writeStackTargets(dir: string, stack: string, ports: StackPorts): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${stack}.json`);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(stackTargets(stack, ports), null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return file;
}

/** The stacks `deploy/local/up` writes targets for. */
export const LOCAL_STACKS: Record<string, StackPorts> = { dev: DEFAULT_PORTS, e2e: E2E_PORTS };

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: tsx deploy/prometheus/targets.ts DIR\n');
    process.exit(2);
  }
  for (const [stack, ports] of Object.entries(LOCAL_STACKS)) {
    process.stdout.write(`wrote ${writeStackTargets(dir, stack, ports)}\n`);
  }
}
