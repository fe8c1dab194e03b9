/**
 * The trips service in a process of its own for the trips benches (`service.ts`: its
 * composition root on a free port, a fresh database, bucket and consumer groups on the local
 * infra), and a keep-alive HTTP client that signs each request as the gateway would (test-kit
 * `gatewayHeaders`: a user, or nobody for the public routes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  dropBucket,
  dropConsumerGroups,
  dropMongoDatabase,
  gatewayHeaders,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import type { MongoClient } from 'mongodb';
import type { TripInput } from '@wayfarer/contracts';
import { ERASURE_CONSUMER, FRIENDSHIP_CONSUMER, JOURNAL_STORIES_CONSUMER } from '@wayfarer/trips';
import {
  newId,
  newPhotoId,
  newTripDoc,
  storedTrip,
  type PhotoDoc,
  type TripDoc,
} from '@wayfarer/trips/bench';

export interface Answer {
  ms: number;
  status: number;
  etag: string;
  text: string;
}

export interface TripsProcess {
  port: number;
  /** The service process (its RSS: /proc/<pid>/status). */
  pid: number;
  /** Resolves once every display variant the service has queued so far is made. */
  idle(): Promise<void>;
  mongoDb: string;
  /** One request as `userId` (null: anonymous); its latency, status, ETag and body; throws on >= 300. */
  call(
    method: string,
    path: string,
    userId: string | null,
    headers?: Record<string, string>,
    body?: string,
  ): Promise<Answer>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts trips as `name` (names its database, bucket and consumer groups). */
export async function startTripsProcess(name: string): Promise<TripsProcess> {
  const suffix = uniqueSuffix();
  const mongoDb = `bench_${name}_${suffix}`;
  const bucket = `bench-${name}-${suffix}`;
  const groupPrefix = `bench-${suffix}-`;
  const port = await freePort();
  const child: ChildProcess = fork(fileURLToPath(new URL('./service.ts', import.meta.url)), {
    // BENCH_TRIPS_EXEC_ARGV: Node flags for the service's process only, e.g. `--cpu-prof
    // --cpu-prof-dir=.data/bench` (the profile is written when `stop` ends it: SIGTERM, then
    // the service's own graceful exit)
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_TRIPS_EXEC_ARGV?.split(/\s+/).filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      MONGO_DB: mongoDb,
      PHOTO_BUCKET: bucket,
      PORT: String(port),
      KAFKA_GROUP_PREFIX: groupPrefix,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`trips exited with ${code}`)));
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });

  const call: TripsProcess['call'] = (method, path, userId, headers = {}, body) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const identity = userId === null ? {} : { userId };
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          headers: { ...gatewayHeaders(method, path, identity), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - started;
            const text = Buffer.concat(chunks).toString();
            const status = res.statusCode ?? 500;
            if (status >= 300) {
              reject(new Error(`${method} ${path}: ${status} ${text}`));
              return;
            }
            resolve({ ms, status, etag: String(res.headers.etag), text });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const stop = async () => {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await dropMongoDatabase(mongoDb).catch(() => undefined);
    await dropBucket(bucket).catch(() => undefined);
    await dropConsumerGroups(
      [FRIENDSHIP_CONSUMER, ERASURE_CONSUMER, JOURNAL_STORIES_CONSUMER].map(
        (consumer) => `${groupPrefix}${consumer}`,
      ),
    ).catch(() => undefined);
  };
  let asked = 0;
  const idle = () =>
    new Promise<void>((resolve) => {
      const id = ++asked;
      const onMessage = (msg: { id?: number }) => {
        if (msg.id !== id) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      child.send({ id, kind: 'idle' });
    });
  return { port, pid: child.pid!, idle, mongoDb, call, stop };
}

/** A stored photo of a trip as the pipeline leaves it (original and display variant). */
function benchPhoto(tripId: string): PhotoDoc {
  const id = newPhotoId();
  return {
    id,
    original: { key: `${tripId}/${id}/original.jpg`, contentType: 'image/jpeg', bytes: 2e6 },
    display: { key: `${tripId}/${id}/display.webp`, contentType: 'image/webp', bytes: 3e5 },
  };
}

/**
 * `count` trips of `owner` with `destinations` Norwegian destinations of 2 photos each, trip t
 * named `name(t)`, each destination's story `story(n)` of n words, as the service's insert
 * makes them.
 */
export function benchTrips(options: {
  count: number;
  owner: string;
  destinations: number;
  name: (t: number) => string;
  story: (words: number) => string;
  /** The trips' end date (default 2025-08-30). */
  endDate?: string;
  /** When trip t was created (default now). */
  createdAt?: (t: number) => Date;
}): TripDoc[] {
  return Array.from({ length: options.count }, (_, t) => {
    const id = newId();
    const input: TripInput = {
      visibility: 'friends',
      name: options.name(t),
      startDate: '2025-08-01',
      endDate: options.endDate ?? '2025-08-30',
      destinations: Array.from({ length: options.destinations }, (_, d) => ({
        name: `Destination ${d} of trip ${t}, Norway`,
        latitude: 59 + d / 10,
        longitude: 10 + t / 100,
        startDate: '2025-08-01',
        endDate: '2025-08-04',
        story: options.story(50 + ((t * 5 + d) % 5) * 50),
      })),
    };
    return newTripDoc({
      id,
      ownerId: options.owner,
      input,
      destinationIds: input.destinations.map(() => newId()),
      photos: input.destinations.map(() => [benchPhoto(id), benchPhoto(id)]),
      now: options.createdAt?.(t) ?? new Date(),
    });
  });
}

/** Stores `docs` as the service stores them (with their list summary), plus `extra(doc)`'s fields. */
export async function insertTrips(
  client: MongoClient,
  mongoDb: string,
  docs: TripDoc[],
  extra: (doc: TripDoc) => Record<string, unknown> = () => ({}),
): Promise<void> {
  await client
    .db(mongoDb)
    .collection('trips')
    .insertMany(docs.map((trip) => ({ ...storedTrip(trip), ...extra(trip) })) as never[]);
}
