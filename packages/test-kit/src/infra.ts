import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the infra servers of a test run are. */
export interface TestInfra {
  pgUrl: string;
  redisUrl: string;
  kafkaBrokers: string[];
  s3: { endpoint: string; accessKey: string; secretKey: string };
  mongoUrl: string;
  /** 'local' when started by deploy/local (its verbs can stop and start servers). */
  mode: 'local' | 'env' | 'containers';
}

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const localEnvFile = join(repoRoot, '.data/local/env');

const REQUIRED = [
  'PG_URL',
  'REDIS_URL',
  'KAFKA_BROKERS',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'MONGO_URL',
] as const;

/** Parses deploy/local's env file (`export KEY=VALUE` lines). */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

function fromEnv(env: NodeJS.ProcessEnv): TestInfra | null {
  if (REQUIRED.some((k) => !env[k])) return null;
  return {
    pgUrl: env.PG_URL!,
    redisUrl: env.REDIS_URL!,
    kafkaBrokers: env.KAFKA_BROKERS!.split(',').map((s) => s.trim()),
    s3: {
      endpoint: env.S3_ENDPOINT!,
      accessKey: env.S3_ACCESS_KEY!,
      secretKey: env.S3_SECRET_KEY!,
    },
    mongoUrl: env.MONGO_URL!,
    mode: env.WAYFARER_INFRA === 'local' ? 'local' : 'env',
  };
}

function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

export class InfraUnavailableError extends Error {
  constructor() {
    super(
      [
        'No test infrastructure found.',
        `Set ${REQUIRED.join(', ')} in the environment,`,
        'or start real servers on loopback with `npm run infra:up` (deploy/local/up),',
        `which writes them to ${localEnvFile} (read automatically),`,
        'or run the tests where a Docker engine answers (testcontainers).',
      ].join('\n'),
    );
    this.name = 'InfraUnavailableError';
  }
}

/**
 * Resolves the infra for tests: env variables first, then deploy/local's env file; the
 * vitest global setup (`@wayfarer/test-kit/global-setup`) starts containers when only Docker
 * is available and exports their URLs to the env before tests run.
 */
export function testInfra(env: NodeJS.ProcessEnv = process.env): TestInfra {
  const direct = fromEnv(env);
  if (direct) return direct;
  if (existsSync(localEnvFile)) {
    const local = fromEnv({ ...parseEnvFile(readFileSync(localEnvFile, 'utf8')), ...env });
    if (local) return local;
  }
  throw new InfraUnavailableError();
}

/** True when the tests can start a Docker-backed infra instead. */
export function canUseContainers(): boolean {
  return dockerAnswers();
}

/** Stops or starts one deploy/local component (e.g. kafka) and waits for it. */
export function localInfra(verb: 'up' | 'down', component: string): void {
  const infra = testInfra();
  if (infra.mode !== 'local') {
    throw new Error(
      `stopping/starting ${component} needs deploy/local infra (mode is ${infra.mode})`,
    );
  }
  execFileSync('bash', [join(repoRoot, 'deploy/local', verb), component], {
    stdio: 'inherit',
    timeout: 180_000,
  });
}
