import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { groupId } from '@wayfarer/service-kit';
import {
  dropBucket,
  dropConsumerGroups,
  dropMongoDatabase,
  testServiceEnv,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import {
  ERASURE_CONSUMER,
  FRIENDSHIP_CONSUMER,
  JOURNAL_STORIES_CONSUMER,
} from '../../src/events/consumers';

const serviceDir = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on loopback (the OS picks it; released before it is returned). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The env of a trips process of a test: its own port, database, bucket and consumer group. */
export async function processEnv(extra: Record<string, string> = {}) {
  const suffix = uniqueSuffix();
  const port = await freePort();
  return testServiceEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    MONGO_DB: `t_trips_${suffix}`,
    PHOTO_BUCKET: `t-photos-${suffix}`,
    ...extra,
  });
}

export interface TripsProcess {
  child: ChildProcess;
  url: string;
  /** Exit code (null while running or when killed by a signal). */
  exitCode(): number | null;
  exited(): boolean;
  /** What it wrote (its logs when TEST_LOG_LEVEL is set, start errors). */
  output(): string;
}

/**
 * Starts trips as production runs it (`tsx src/main.ts`: loadConfig, createService,
 * serveService with its signal handling) with `env`, and waits for its `/readyz`.
 */
export async function startTripsProcess(env: Record<string, string>): Promise<TripsProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serviceDir,
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.TEST_LOG_LEVEL) process.stdout.write(chunk);
    });
  }
  const url = `http://127.0.0.1:${env.PORT}`;
  const proc: TripsProcess = {
    child,
    url,
    exitCode: () => child.exitCode,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    output: () => output,
  };
  await expect
    .poll(
      async () => {
        if (proc.exited()) throw new Error(`trips exited while starting:\n${output}`);
        return fetch(`${url}/readyz`).then(
          (res) => res.status,
          () => 0,
        );
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe(200);
  return proc;
}

/** Kills what is left of `procs` and drops the env's database, bucket and consumer groups. */
export async function cleanUp(env: Record<string, string>, procs: TripsProcess[]): Promise<void> {
  for (const proc of procs) if (!proc.exited()) proc.child.kill('SIGKILL');
  const prefix = { KAFKA_GROUP_PREFIX: env.KAFKA_GROUP_PREFIX ?? '' };
  await dropConsumerGroups(
    [FRIENDSHIP_CONSUMER, JOURNAL_STORIES_CONSUMER, ERASURE_CONSUMER].map((c) =>
      groupId(prefix, c),
    ),
  );
  await dropMongoDatabase(env.MONGO_DB!);
  await dropBucket(env.PHOTO_BUCKET!);
}
