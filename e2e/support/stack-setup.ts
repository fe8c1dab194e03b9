import type { TestProject } from 'vitest/node';
import { startStack } from '../../scripts/stack/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export const E2E_PORTS = {
  gateway: 18080,
  auth: 14001,
  trips: 14002,
  journal: 14005,
  places: 14007,
};

export default async function setup(project: TestProject) {
  const stack = await startStack({ namespace: 'e2e', ports: E2E_PORTS, logLevel: 'info' });
  project.provide('baseUrl', stack.url);
  process.stdout.write(`e2e stack at ${stack.url} (logs: ${stack.logDir})\n`);
  return () => stack.stop();
}
