import type { LightMyRequestResponse } from 'fastify';
import { Partitioners, type Producer } from 'kafkajs';
import { expect, vi } from 'vitest';
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
import { groupId, loadConfig } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropMongoDatabase,
  testKafka,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { JournalEnv } from '../../src/config';
import { CONSUMERS } from '../../src/events/consumers';
import { createService, type JournalService } from '../../src/service';

export interface Harness extends JournalService {
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

/**
 * journal booted by its composition root on its own database and consumer groups (joined
 * before this resolves, reading only what is published from now on), plus a producer to
 * publish what other services would. `close()` also drops the database and the groups.
 */
/** trips' summaries of destinations with these ids, as its trip events carry them. */
export const destinationSummaries = (ids: readonly string[]) =>
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

export async function startJournal(): Promise<Harness> {
  const suffix = uniqueSuffix();
  const env = loadConfig(JournalEnv, testServiceEnv({ MONGO_DB: `t_journal_${suffix}` }));
  // each file publishes its own events after this: no need to replay every earlier run
  const svc = await createService(env, { skipHistory: true });
  const producer: Producer = testKafka().producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const close = async () => {
    await svc.close();
    // a join still in progress leaves the group by itself once done
    await svc.projections.started;
    await producer.disconnect();
    await dropConsumerGroups(Object.values(CONSUMERS).map((name) => groupId(env, name)));
    await dropMongoDatabase(env.MONGO_DB);
  };
  try {
    await svc.projections.started;
    await producer.connect();
  } catch (err) {
    await close();
    throw err;
  }
  // called as the gateway calls it: the identity a test names comes with a valid proof
  const app = throughGateway(svc.app);

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
  const identity = (userId: string | null): Record<string, string> =>
    userId ? { [IdentityHeaders.userId]: userId } : {};

  return {
    ...svc,
    app,
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
        destinations: destinationSummaries(destinationIds),
      }),
    deleteTrip: (ownerId, destinationIds, tripId) =>
      publish(TripDeleted, tripId, {
        tripId,
        ownerId,
        destinations: destinationSummaries(destinationIds),
      }),
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
    close,
  };
}

const waitOptions = { timeout: 20_000, interval: 10 };

/** Waits until `userId` gets a 200 on the destination's journal (the events were applied). */
export function readable(h: Harness, userId: string, destinationId: string) {
  return vi.waitFor(async () => {
    const res = await h.get(userId, destinationId);
    expect(res.statusCode, `${userId} to read ${destinationId}`).toBe(200);
    return res;
  }, waitOptions);
}

/** Waits until `userId` gets a 404 on the destination's journal. */
export function hidden(h: Harness, userId: string, destinationId: string) {
  return vi.waitFor(async () => {
    const res = await h.get(userId, destinationId);
    expect(res.statusCode, `${destinationId} to be hidden from ${userId}`).toBe(404);
    return res;
  }, waitOptions);
}
