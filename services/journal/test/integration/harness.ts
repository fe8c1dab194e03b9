import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Partitioners, type Producer } from 'kafkajs';
import type { Db, MongoClient } from 'mongodb';
import type { z } from 'zod';
import {
  FriendshipCreated,
  FriendshipRemoved,
  friendshipId,
  IdentityHeaders,
  makeEvent,
  TripCreated,
  TripDeleted,
  type EventDefinition,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { createKafka, createLogger, type OutboxRelay } from '@wayfarer/service-kit';
import { connectMongo, startMongoOutboxRelay } from '@wayfarer/service-kit/mongo';
import { testInfra, testKafka, uniqueSuffix } from '@wayfarer/test-kit';
import { buildApp } from '../../src/app';
import { startProjections, type Projections } from '../../src/events/consumers';
import { PUBLISHED_TOPICS } from '../../src/events/outbox';
import { createStores, initStores, type JournalStores } from '../../src/store';

export interface Harness {
  app: FastifyInstance;
  db: Db;
  client: MongoClient;
  stores: JournalStores;
  relay: OutboxRelay;
  projections: Projections;
  /** Unique per harness: prefix ids with it so runs never collide on shared topics. */
  suffix: string;
  id(name: string): string;
  /** Publishes an event the way the owning service would (keyed by aggregate id). */
  publish<S extends z.ZodType>(
    def: EventDefinition<S>,
    aggregateId: string,
    payload: z.input<S>,
  ): Promise<EventEnvelope>;
  /** Sends an already-made envelope again (a redelivery), keyed by `key`. */
  publishEnvelope(topic: string, envelope: EventEnvelope, key?: string): Promise<void>;
  /** Publishes `trip.created` for a new trip with these destinations; returns the envelope. */
  createTrip(ownerId: string, destinationIds: string[], tripId?: string): Promise<EventEnvelope>;
  deleteTrip(ownerId: string, destinationIds: string[], tripId: string): Promise<EventEnvelope>;
  befriend(a: string, b: string): Promise<EventEnvelope>;
  unfriend(a: string, b: string): Promise<EventEnvelope>;
  get(userId: string | null, destinationId: string): Promise<LightMyRequestResponse>;
  post(userId: string | null, body: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** journal wired to the real MongoDB-wire server and Kafka, with its own db and groups. */
export async function startJournal(): Promise<Harness> {
  const infra = testInfra();
  const suffix = uniqueSuffix();
  const { client, db } = await connectMongo(infra.mongoUrl, `t_journal_${suffix}`);
  const stores = createStores(db);
  await initStores(stores);
  const logger = createLogger('journal-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const kafka = createKafka({
    clientId: `journal-test-${suffix}`,
    brokers: infra.kafkaBrokers,
    logger,
  });
  const relay = startMongoOutboxRelay({
    collections: [stores.entries.collection],
    kafka,
    logger,
    topics: PUBLISHED_TOPICS,
    pollIntervalMs: 100,
  });
  const groupIds = {
    trips: `journal-trips-test-${suffix}`,
    friendships: `journal-friendships-test-${suffix}`,
  };
  const projections = startProjections({
    kafka,
    db,
    stores,
    logger,
    groupIds,
    // each file publishes its own events after this: no need to replay every earlier run
    skipHistory: true,
  });
  await projections.started;
  const producer: Producer = testKafka().producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const app = buildApp({ logger, db, stores, relay });
  await app.ready();

  const publishEnvelope = async (topic: string, envelope: EventEnvelope, key?: string) => {
    await producer.send({
      topic,
      acks: -1,
      messages: [{ key: key ?? envelope.aggregateId, value: JSON.stringify(envelope) }],
    });
  };
  const publish = async <S extends z.ZodType>(
    def: EventDefinition<S>,
    aggregateId: string,
    payload: z.input<S>,
  ) => {
    const event = makeEvent(def, aggregateId, payload) as EventEnvelope;
    await publishEnvelope(def.topic, event);
    return event;
  };
  const summaries = (ids: string[]) =>
    ids.map((id, i) => ({
      id,
      name: `Place ${i}`,
      latitude: 10 + i,
      longitude: 20 + i,
      startDate: '2026-05-01',
      endDate: '2026-05-03',
      photos: [],
      storyPreview: '',
    }));
  const identity = (userId: string | null): Record<string, string> =>
    userId ? { [IdentityHeaders.userId]: userId } : {};

  return {
    app,
    db,
    client,
    stores,
    relay,
    projections,
    suffix,
    id: (name) => `${name}${suffix}`,
    publish,
    publishEnvelope,
    createTrip: (ownerId, destinationIds, tripId = `trip${uniqueSuffix()}`) =>
      publish(TripCreated, tripId, {
        tripId,
        ownerId,
        name: 'A trip',
        startDate: '2026-05-01',
        endDate: '2026-05-09',
        destinations: summaries(destinationIds),
      }),
    deleteTrip: (ownerId, destinationIds, tripId) =>
      publish(TripDeleted, tripId, { tripId, ownerId, destinations: summaries(destinationIds) }),
    befriend: (a, b) => publish(FriendshipCreated, friendshipId(a, b), { userIds: [a, b] }),
    unfriend: (a, b) => publish(FriendshipRemoved, friendshipId(a, b), { userIds: [a, b] }),
    get: (userId, destinationId) =>
      app.inject({
        method: 'GET',
        url: `/api/journal/${encodeURIComponent(destinationId)}`,
        // the spec's client sends a JSON content type on this GET, with no body
        headers: { 'content-type': 'application/json', ...identity(userId) },
      }),
    post: (userId, body) =>
      app.inject({
        method: 'POST',
        url: '/api/journal',
        headers: { 'content-type': 'application/json', ...identity(userId) },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async close() {
      await app.close();
      await projections.stop();
      await relay.stop();
      await producer.disconnect();
      await deleteGroups(Object.values(groupIds));
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}

/** Removes the test's consumer groups from the shared broker (best effort). */
async function deleteGroups(groupIds: string[]): Promise<void> {
  const admin = testKafka().admin();
  try {
    await admin.connect();
    await admin.deleteGroups(groupIds);
  } catch {
    // a group still settling after its consumer left: harmless, Kafka expires it later
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Polls `check` until it returns a truthy value, or fails after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T>,
  { timeoutMs = 20_000, intervalMs = 10, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until `userId` gets a 200 on the destination's journal (the events were applied). */
export function readable(h: Harness, userId: string, destinationId: string) {
  return waitUntil(
    async () => {
      const res = await h.get(userId, destinationId);
      return res.statusCode === 200 ? res : null;
    },
    { what: `${userId} to read ${destinationId}` },
  );
}

/** Waits until `userId` gets a 404 on the destination's journal. */
export function hidden(h: Harness, userId: string, destinationId: string) {
  return waitUntil(
    async () => {
      const res = await h.get(userId, destinationId);
      return res.statusCode === 404 ? res : null;
    },
    { what: `${destinationId} to be hidden from ${userId}` },
  );
}
