import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Consumer, Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { IdentityHeaders, type Trip } from '@wayfarer/contracts';
import { createKafka, createLogger, startConsumer, type OutboxRelay } from '@wayfarer/service-kit';
import {
  connectMongo,
  FriendshipProjection,
  startMongoOutboxRelay,
} from '@wayfarer/service-kit/mongo';
import { ObjectStore } from '@wayfarer/storage';
import {
  dropBucket,
  multipartBody,
  testInfra,
  uniqueSuffix,
  type FormFile,
} from '@wayfarer/test-kit';
import { buildApp, type TripsDeps } from '../../src/app';
import { friendshipConsumer } from '../../src/events/friendships';
import { PUBLISHED_TOPICS } from '../../src/events/outbox';
import { TripsRepo } from '../../src/store/trips';

export interface Harness {
  app: FastifyInstance;
  db: Db;
  trips: TripsRepo;
  photos: ObjectStore;
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
  const photos = ObjectStore.connect({ ...infra.s3, region: 'us-east-1', bucket });
  await photos.ensureBucket();
  const logger = createLogger('trips-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const kafka = createKafka({
    clientId: `trips-test-${suffix}`,
    brokers: infra.kafkaBrokers,
    logger,
  });
  const relay = startMongoOutboxRelay({
    collections: [trips.collection],
    kafka,
    logger,
    topics: PUBLISHED_TOPICS,
    pollIntervalMs: 100,
  });
  const dropStores = async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    await dropBucket(bucket);
  };
  let consumer: Consumer | null = null;
  try {
    if (options.consumer) {
      consumer = await startConsumer(
        friendshipConsumer({
          kafka,
          db,
          projection: friendships,
          logger,
          groupId: `trips-friendships-test-${suffix}`,
        }),
      );
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

/** Headers the gateway forwards for a signed-in user. */
export function as(userId: string): Record<string, string> {
  return { [IdentityHeaders.userId]: userId };
}

export const newUserId = (): string => crypto.randomUUID();

export type FilePart = FormFile;

/** A trip form body (see test-kit's `multipartBody`); files are named `photo.bin` by default. */
export function multipart(
  fields: [string, string][] | Record<string, string>,
  files: FilePart[] = [],
) {
  return multipartBody(
    fields,
    files.map((f) => ({ ...f, filename: f.filename ?? 'photo.bin' })),
  );
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
