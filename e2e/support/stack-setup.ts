import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startStack, type RunningStack } from '../../scripts/stack/stack';
import { portsAt, type StackPorts } from '../../scripts/stack/services';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Loopback URL of the stack's control endpoint (stop/start one real service). */
    controlUrl: string;
    /** The stack's identity proof secret: to sign a call straight to a service's port. */
    identityProofSecret: string;
    /** The stack's namespace: its databases are `<service>_<namespace>`. */
    namespace: string;
    /** The port of each process of the stack (a service's `/metrics` is served on it). */
    ports: StackPorts;
  }
}

export const E2E_NAMESPACE = 'e2e';

export const E2E_PORTS = portsAt(10_000);

/**
 * Tests run in workers, the stack lives here: a tiny loopback endpoint lets a test stop a real
 * service and start it again (`POST /processes/<name>/stop|start`), to see the product's
 * behaviour when a service is down without faking any answer, and read each process's state
 * and restart count (`GET /processes`: the runner restarts a crashed process).
 */
function serveControl(stack: RunningStack): Promise<Server> {
  const server = createServer((req, res) => {
    // each process's pid, state and restarts: a test sees whether anything crashed meanwhile
    if (req.method === 'GET' && req.url === '/processes') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stack.processes()));
      return;
    }
    const match = /^\/processes\/([a-z0-9]+)\/(stop|start)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      res.writeHead(404).end();
      return;
    }
    const [, name, verb] = match;
    const action = verb === 'stop' ? stack.stopProcess(name!) : stack.startProcess(name!);
    action.then(
      () => res.writeHead(204).end(),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export default async function setup(project: TestProject) {
  const stack = await startStack({ namespace: E2E_NAMESPACE, ports: E2E_PORTS, logLevel: 'info' });
  const control = await serveControl(stack);
  project.provide('baseUrl', stack.url);
  project.provide('identityProofSecret', stack.identityProofSecret);
  project.provide('namespace', E2E_NAMESPACE);
  project.provide('ports', stack.ports);
  project.provide('controlUrl', `http://127.0.0.1:${(control.address() as AddressInfo).port}`);
  process.stdout.write(`e2e stack at ${stack.url} (logs: ${stack.logDir})\n`);
  return async () => {
    control.close();
    await stack.stop();
  };
}
