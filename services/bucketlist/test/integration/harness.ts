import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Partitioners, type Producer } from 'kafkajs';
import { expect, vi } from 'vitest';
import {
  IdentityHeaders,
  makeEvent,
  Topics,
  TripCreated,
  TripDeleted,
  type BucketListItem,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { groupId, loadConfig } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropDatabase,
  freshDatabase,
  readTopicToEnd,
  testKafka,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { BucketListEnv } from '../../src/config';
import { CONSUMERS } from '../../src/events/consumers';
import { createService, type BucketListService } from '../../src/service';

/** The identity header of a signed-in user (`h.app` adds the gateway's proof of it). */
export function as(userId: string): Record<string, string> {
  return { [IdentityHeaders.userId]: userId };
}

export const newUserId = (): string => crypto.randomUUID();

export interface Destination {
  latitude: number;
  longitude: number;
}

export interface Harness extends BucketListService {
  /** The app as a caller that is not the gateway reaches it (no identity proof). */
  rawApp: FastifyInstance;
  add(userId: string, body: unknown): Promise<LightMyRequestResponse>;
  /** Adds a place and returns the created item (fails the test unless 201). */
  addPlace(userId: string, place: string, at: Destination): Promise<BucketListItem>;
  list(userId: string): Promise<BucketListItem[]>;
  visit(userId: string, id: string): Promise<LightMyRequestResponse>;
  getItinerary(userId: string, id: string): Promise<LightMyRequestResponse>;
  saveItinerary(userId: string, body: unknown): Promise<LightMyRequestResponse>;
  /**
   * Publishes `trip.created` as trips does (keyed by the trip id, or `key`: a marker on the
   * partition of an earlier event, applied after it); returns the envelope.
   */
  createTrip(
    ownerId: string,
    destinations: Destination[],
    trip?: { tripId?: string; name?: string; key?: string },
  ): Promise<EventEnvelope>;
  deleteTrip(ownerId: string, tripId: string, destinations: Destination[]): Promise<EventEnvelope>;
  /** Sends an envelope again (a redelivery), keyed by `key` (default its aggregate id). */
  publishEnvelope(envelope: EventEnvelope, key?: string): Promise<void>;
  /** Rows of `bucket_items` and `outbox`: what a refused request must leave as it was. */
  counts(): Promise<{ items: number; outbox: number }>;
  close(): Promise<void>;
}

/**
 * bucketlist booted by its composition root on a fresh database and consumer group of its own
 * (joined before this resolves, reading only trip events published from now on), called as
 * the gateway calls it, plus a producer publishing what trips would. `close()` also drops the
 * database and the group.
 */
export async function startBucketList(): Promise<Harness> {
  const dbUrl = await freshDatabase('bucketlist');
  const env = loadConfig(BucketListEnv, testServiceEnv({ DATABASE_URL: dbUrl }));
  const svc = await createService(env, { skipHistory: true }).catch(async (err: unknown) => {
    await dropDatabase(dbUrl);
    throw err;
  });
  const producer: Producer = testKafka().producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const close = async () => {
    await svc.close();
    await svc.tripConsumer.started;
    await svc.erasureConsumer.started;
    await producer.disconnect();
    await dropConsumerGroups([groupId(env, CONSUMERS.trips), groupId(env, CONSUMERS.erasure)]);
    await dropDatabase(dbUrl);
  };
  try {
    await svc.tripConsumer.started;
    await svc.erasureConsumer.started;
    await producer.connect();
  } catch (err) {
    await close();
    throw err;
  }
  const app = throughGateway(svc.app);
  const json = { 'content-type': 'application/json' };

  const publishEnvelope = async (envelope: EventEnvelope, key?: string) => {
    await producer.send({
      topic: Topics.tripsTrip,
      acks: -1,
      messages: [{ key: key ?? envelope.aggregateId, value: JSON.stringify(envelope) }],
    });
  };
  const summaries = (destinations: Destination[]) =>
    destinations.map((d, i) => ({
      id: `dest-${uniqueSuffix()}`,
      name: `Stop ${i}`,
      latitude: d.latitude,
      longitude: d.longitude,
      startDate: '2026-05-01',
      endDate: '2026-05-03',
      photos: [],
      storyPreview: '',
    }));
  const add = (userId: string, body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/bucketlist',
      headers: { ...json, ...as(userId) },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  return {
    ...svc,
    app,
    rawApp: svc.app,
    add,
    async addPlace(userId, place, at) {
      const res = await add(userId, { place, ...at, isVisited: false });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ data: BucketListItem }>().data;
    },
    async list(userId) {
      const res = await app.inject({ url: '/api/bucketlist', headers: as(userId) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<BucketListItem[]>();
    },
    visit: (userId, id) =>
      app.inject({
        method: 'DELETE',
        url: `/api/bucketlist/${encodeURIComponent(id)}`,
        headers: as(userId),
      }),
    getItinerary: (userId, id) =>
      app.inject({ url: `/api/itinerary/${encodeURIComponent(id)}`, headers: as(userId) }),
    saveItinerary: (userId, body) =>
      app.inject({
        method: 'POST',
        url: '/api/itinerary',
        headers: { ...json, ...as(userId) },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async createTrip(ownerId, destinations, trip = {}) {
      const tripId = trip.tripId ?? `trip-${uniqueSuffix()}`;
      const event = makeEvent(TripCreated, tripId, {
        tripId,
        ownerId,
        name: trip.name ?? 'Spring trip',
        startDate: '2026-05-01',
        endDate: '2026-05-09',
        destinations: summaries(destinations),
      }) as EventEnvelope;
      await publishEnvelope(event, trip.key);
      return event;
    },
    async deleteTrip(ownerId, tripId, destinations) {
      const event = makeEvent(TripDeleted, tripId, {
        tripId,
        ownerId,
        destinations: summaries(destinations),
      }) as EventEnvelope;
      await publishEnvelope(event);
      return event;
    },
    publishEnvelope,
    async counts() {
      const { rows } = await svc.pool.query<{ items: number; outbox: number }>(
        `SELECT (SELECT count(*) FROM bucket_items)::int AS items,
                (SELECT count(*) FROM outbox)::int AS outbox`,
      );
      return rows[0]!;
    },
    close,
  };
}

const waitOptions = { timeout: 20_000, interval: 20 };

/** Waits until the user's item is visited (a trip event was applied); returns it. */
/**
 * A new user with one place (Oslo) whose itinerary is saved (['Opera']): what the validation
 * files refuse changes to.
 */
export async function userWithPlace(h: Harness): Promise<{ user: string; itemId: string }> {
  const user = newUserId();
  const itemId = (await h.addPlace(user, 'Oslo, Norway', { latitude: 59.91, longitude: 10.75 }))
    ._id;
  const saved = await h.saveItinerary(user, { bucketListId: itemId, itinerary: ['Opera'] });
  expect(saved.statusCode).toBe(200);
  return { user, itemId };
}

export function visited(h: Harness, userId: string, id: string): Promise<BucketListItem> {
  return vi.waitFor(async () => {
    const item = (await h.list(userId)).find((i) => i._id === id);
    expect(item?.isVisited, `${id} to be visited`).toBe(true);
    return item!;
  }, waitOptions);
}

/** Waits until every outbox row has been sent to Kafka (the relay marks it after the ack). */
export function outboxDrained(h: Harness): Promise<void> {
  return vi.waitFor(async () => {
    const { rows } = await h.pool.query<{ pending: number }>(
      'SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL',
    );
    expect(rows[0]!.pending, 'outbox rows waiting for Kafka').toBe(0);
  }, waitOptions);
}

/**
 * The bucketlist events of `ownerIds` on the topic as it stands now, one per event id: the relay
 * sends at least once, so a Kafka redelivery of the same envelope is one event. Call after
 * `outboxDrained`.
 */
export async function publishedEvents(ownerIds: readonly string[]): Promise<EventEnvelope[]> {
  const byId = new Map<string, EventEnvelope>();
  for (const { json } of await readTopicToEnd(Topics.bucketlistItem)) {
    const event = json as EventEnvelope<{ ownerId?: string }> | null;
    if (event?.payload?.ownerId && ownerIds.includes(event.payload.ownerId)) {
      byId.set(event.id, event);
    }
  }
  return [...byId.values()];
}
