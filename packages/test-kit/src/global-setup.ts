import { canUseContainers, InfraUnavailableError, testInfra } from './infra';
import { infraEnv, startContainers } from './containers';

/**
 * Vitest global setup for integration tests: uses the env / deploy/local infra when present,
 * else starts containers when a Docker engine answers, else fails with how to start infra.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  try {
    Object.assign(process.env, infraEnv(testInfra()));
    return;
  } catch (err) {
    if (!(err instanceof InfraUnavailableError) || !canUseContainers()) throw err;
  }
  const { infra, stop } = await startContainers();
  Object.assign(process.env, infraEnv(infra));
  return stop;
}
