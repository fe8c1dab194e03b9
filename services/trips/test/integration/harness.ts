import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Consumer, Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { IdentityHeaders, type Trip } from '@wayfarer/contracts';
import { createKafka, createLogger, type OutboxRelay } from '@wayfarer/service-kit';
import { connectMongo, FriendshipProjection } from '@wayfarer/service-kit/mongo';
import { testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { buildApp, type TripsDeps } from '../../src/app';
import { startFriendshipConsumer } from '../../src/events/friendships';
import { startTripsRelay } from '../../src/events/outbox';
import { PhotoStore } from '../../src/store/photos';
import { TripsRepo } from '../../src/store/trips';

export interface Harness {
  app: FastifyInstance;
  db: Db;
  trips: TripsRepo;
  photos: PhotoStore;
  friendships: FriendshipProjection;
  kafka: Kafka;
  relay: OutboxRelay;
  consumer: Consumer | null;
  bucket: string;
  close(): Promise<void>;
}

/**
 * trips wired to real stores: a fresh MongoDB database and a fresh bucket for this test file,
 * the outbox relay to the real Kafka, and (optionally) the friendship consumer.
 */
export async function startTrips(
  options: { consumer?: boolean; overrides?: Partial<TripsDeps> } = {},
): Promise<Harness> {
  const infra = testInfra();
  const suffix = uniqueSuffix();
  const { client, db } = await connectMongo(infra.mongoUrl, `t_trips_${suffix}`);
  const trips = new TripsRepo(db);
  await trips.init();
  const friendships = new FriendshipProjection(db);
  await friendships.init();
  const bucket = `t-photos-${suffix}`;
  const photos = PhotoStore.connect({
    endpoint: infra.s3.endpoint,
    accessKey: infra.s3.accessKey,
    secretKey: infra.s3.secretKey,
    region: 'us-east-1',
    bucket,
  });
  await photos.ensureBucket();
  const logger = createLogger('trips-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const kafka = createKafka({
    clientId: `trips-test-${suffix}`,
    brokers: infra.kafkaBrokers,
    logger,
  });
  const relay = startTripsRelay({ trips, kafka, logger, pollIntervalMs: 100 });
  const dropStores = async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    await photos.removeMany(await photos.list());
    await removeBucket(photos);
  };
  let consumer: Consumer | null = null;
  try {
    if (options.consumer) {
      consumer = await startFriendshipConsumer({
        kafka,
        db,
        projection: friendships,
        logger,
        groupId: `trips-friendships-test-${suffix}`,
      });
    }
  } catch (err) {
    // e.g. Kafka restarted by another suite: leave no database or bucket behind
    await relay.stop();
    await dropStores();
    throw err;
  }
  const app = buildApp({ logger, db, photos, friendships, relay, ...options.overrides });
  await app.ready();
  return {
    app,
    db,
    trips,
    photos,
    friendships,
    kafka,
    relay,
    consumer,
    bucket,
    async close() {
      await app.close();
      await consumer?.disconnect();
      await relay.stop();
      await dropStores();
    },
  };
}

async function removeBucket(photos: PhotoStore): Promise<void> {
  // the store has no bucket removal (the service never needs one): use a plain client
  const { Client } = await import('minio');
  const { s3 } = testInfra();
  const url = new URL(s3.endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: url.protocol === 'https:',
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    pathStyle: true,
  });
  await client.removeBucket(photos.bucket);
}

/** Headers the gateway forwards for a signed-in user. */
export function as(userId: string): Record<string, string> {
  return { [IdentityHeaders.userId]: userId };
}

export const newUserId = (): string => crypto.randomUUID();

export interface FilePart {
  field: string;
  data: Uint8Array;
  filename?: string;
  type?: string;
}

/** A real multipart body (bytes and content type), built the way a browser's FormData is. */
export async function multipart(
  fields: [string, string][] | Record<string, string>,
  files: FilePart[] = [],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  const entries = Array.isArray(fields) ? fields : Object.entries(fields);
  for (const [name, value] of entries) form.append(name, value);
  for (const f of files) {
    form.append(
      f.field,
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.filename ?? 'photo.bin',
    );
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

export interface DestinationFields {
  name: string;
  latitude: string;
  longitude: string;
  startDate?: string;
  endDate?: string;
  story?: string;
}

/** The text fields of a trip form, named exactly as the spec's client names them. */
export function tripFields(
  trip: { name?: string; startDate?: string; endDate?: string },
  destinations: DestinationFields[],
): [string, string][] {
  const fields: [string, string][] = [];
  for (const key of ['name', 'startDate', 'endDate'] as const) {
    if (trip[key] !== undefined) fields.push([key, trip[key]]);
  }
  destinations.forEach((d, i) => {
    for (const [key, value] of Object.entries(d)) {
      if (value !== undefined) fields.push([`destinations[${i}][${key}]`, value]);
    }
  });
  return fields;
}

export async function postTrip(
  app: FastifyInstance,
  userId: string,
  fields: [string, string][] | Record<string, string>,
  files: FilePart[] = [],
): Promise<LightMyRequestResponse> {
  const body = await multipart(fields, files);
  return app.inject({
    method: 'POST',
    url: '/api/trips',
    payload: body.payload,
    headers: { ...body.headers, ...as(userId) },
  });
}

/** Creates a small valid trip (one destination, one PNG) and returns it. */
export async function createSimpleTrip(
  h: Harness,
  userId: string,
  image: Buffer,
  name = 'Weekend',
): Promise<Trip> {
  const res = await postTrip(
    h.app,
    userId,
    tripFields({ name }, [{ name: 'Oslo', latitude: '59.91', longitude: '10.75' }]),
    [{ field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' }],
  );
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json<Trip>();
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function eventually(
  check: () => Promise<boolean>,
  { timeoutMs = 20_000, intervalMs = 100, what = 'condition' } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
