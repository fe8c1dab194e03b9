import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Partitioners, type Producer } from 'kafkajs';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import type { z } from 'zod';
import {
  ChatMessageSent,
  FriendRequested,
  FriendshipCreated,
  FriendshipRemoved,
  friendshipId,
  IdentityHeaders,
  makeEvent,
  roomIdOf,
  TripCreated,
  TripUpdated,
  UserRegistered,
  type EventDefinition,
  type EventEnvelope,
  type Notification,
  type NotificationsResponse,
  type TripVisibility,
} from '@wayfarer/contracts';
import { groupIds, loadConfig } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropDatabase,
  freshDatabase,
  testKafka,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { NotificationsEnv } from '../../src/config';
import { CONSUMERS } from '../../src/events/consumers';
import {
  createService,
  type NotificationsService,
  type NotificationsServiceOptions,
} from '../../src/service';

/** The identity header of a signed-in user (`h.app` adds the gateway's proof of it). */
export function as(userId: string): Record<string, string> {
  return { [IdentityHeaders.userId]: userId };
}

export const waitOptions = { timeout: 20_000, interval: 25 };

/**
 * notifications for the calling test file: booted before its tests (`startNotifications` with
 * `options`), handed to `use`, closed after them.
 */
export function notificationsPerFile(
  use: (h: Harness) => void,
  options: NotificationsServiceOptions = {},
): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startNotifications(options);
    use(h);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
}

export interface Harness extends NotificationsService {
  env: NotificationsEnv;
  /** The app as a caller that is not the gateway reaches it (no identity proof). */
  rawApp: FastifyInstance;
  /** Publishes an event as its service would (keyed by the aggregate id); returns it. */
  publish<S extends z.ZodType>(
    def: EventDefinition<S>,
    aggregateId: string,
    payload: z.input<S>,
    at?: Date,
  ): Promise<EventEnvelope>;
  /** Sends an envelope again (a redelivery). */
  republish(envelope: EventEnvelope, topic: string): Promise<void>;
  /** Announces a user (auth's `user.registered`) and waits until notifications knows them. */
  register(name: string, picture?: string): Promise<string>;
  /** A friend request and its acceptance, as social announces them. */
  request(from: string, to: string, at?: Date): Promise<EventEnvelope>;
  befriend(a: string, b: string, by: string): Promise<EventEnvelope>;
  unfriend(a: string, b: string): Promise<EventEnvelope>;
  trip(
    ownerId: string,
    name: string,
    options?: { visibility?: TripVisibility; at?: Date; tripId?: string },
  ): Promise<EventEnvelope>;
  /** `trip.updated` of a trip `trip` made: its new name at `version`, private if asked. */
  updateTrip(
    ownerId: string,
    tripId: string,
    version: number,
    name: string,
    visibility?: TripVisibility,
  ): Promise<EventEnvelope>;
  message(
    from: string,
    to: string,
    text: string,
    options?: { inRoom?: boolean; at?: Date },
  ): Promise<EventEnvelope>;
  /** One page of `GET /api/notifications` (the raw answer). */
  get(userId: string, query?: string): Promise<LightMyRequestResponse>;
  /** `GET /api/notifications`, which must answer 200. */
  page(userId: string, query?: string): Promise<NotificationsResponse>;
  /** Every page, following `nextCursor`. */
  all(userId: string): Promise<Notification[]>;
  /** Waits until `userId` has `count` notifications; returns them newest first. */
  waitFor(userId: string, count: number): Promise<Notification[]>;
  markRead(userId: string, body: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * notifications booted by its composition root on a fresh database and consumer groups of its
 * own (joined before this resolves, reading only events published from now on), called as the
 * gateway calls it, plus a producer publishing what auth, social, trips and chat would.
 */
export async function startNotifications(
  options: NotificationsServiceOptions = {},
): Promise<Harness> {
  const dbUrl = await freshDatabase('notifications');
  const env = loadConfig(NotificationsEnv, testServiceEnv({ DATABASE_URL: dbUrl }));
  const svc = await createService(env, { skipHistory: true, ...options }).catch(
    async (err: unknown) => {
      await dropDatabase(dbUrl);
      throw err;
    },
  );
  const producer: Producer = testKafka().producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const consumers = Object.values(svc.consumers);
  const close = async () => {
    await svc.close();
    await Promise.all(consumers.map((c) => c.started));
    await producer.disconnect();
    await dropConsumerGroups(Object.values(groupIds(env, CONSUMERS)));
    await dropDatabase(dbUrl);
  };
  try {
    await Promise.all(consumers.map((c) => c.started));
    await producer.connect();
  } catch (err) {
    await close();
    throw err;
  }
  const app = throughGateway(svc.app);

  const republish = async (envelope: EventEnvelope, topic: string) => {
    await producer.send({
      topic,
      acks: -1,
      messages: [{ key: envelope.aggregateId, value: JSON.stringify(envelope) }],
    });
  };
  const publish = async <S extends z.ZodType>(
    def: EventDefinition<S>,
    aggregateId: string,
    payload: z.input<S>,
    at?: Date,
  ) => {
    const event = makeEvent(def, aggregateId, payload, at) as EventEnvelope;
    await republish(event, def.topic);
    return event;
  };
  const ok = (res: LightMyRequestResponse): NotificationsResponse => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationsResponse>();
  };

  const h: Harness = {
    ...svc,
    env,
    app,
    rawApp: svc.app,
    publish,
    republish,
    async register(name, picture) {
      const userId = crypto.randomUUID();
      await publish(UserRegistered, userId, {
        userId,
        name,
        email: `${userId}@example.com`,
        profilePicture: picture ?? `/api/avatars/${userId}/a.webp`,
      });
      await vi.waitFor(async () => {
        const { rowCount } = await svc.pool.query('SELECT 1 FROM users WHERE id = $1', [userId]);
        expect(rowCount, `${name} known to notifications`).toBe(1);
      }, waitOptions);
      return userId;
    },
    request: (from, to, at) =>
      publish(
        FriendRequested,
        friendshipId(from, to),
        { requestId: crypto.randomUUID(), fromUserId: from, toUserId: to },
        at,
      ),
    befriend: (a, b, by) =>
      publish(FriendshipCreated, friendshipId(a, b), {
        userIds: [a, b].sort() as [string, string],
        by,
      }),
    unfriend: (a, b) =>
      publish(FriendshipRemoved, friendshipId(a, b), {
        userIds: [a, b].sort() as [string, string],
      }),
    trip: (ownerId, name, o = {}) => {
      const tripId = o.tripId ?? `trip-${uniqueSuffix()}`;
      return publish(
        TripCreated,
        tripId,
        {
          tripId,
          ownerId,
          name,
          startDate: '2026-05-01',
          endDate: '2026-05-09',
          destinations: [],
          ...(o.visibility ? { visibility: o.visibility } : {}),
        },
        o.at,
      );
    },
    updateTrip: (ownerId, tripId, version, name, visibility) =>
      publish(TripUpdated, tripId, {
        tripId,
        ownerId,
        version,
        name,
        startDate: '2026-05-01',
        endDate: '2026-05-09',
        destinations: [],
        addedDestinationIds: [],
        movedDestinationIds: [],
        removedDestinationIds: [],
        ...(visibility ? { visibility } : {}),
      }),
    message: (from, to, text, o = {}) => {
      const roomId = roomIdOf(from, to);
      const at = o.at ?? new Date();
      return publish(
        ChatMessageSent,
        roomId,
        {
          messageId: uniqueSuffix().padStart(24, '0').slice(-24),
          roomId,
          senderId: from,
          recipientId: to,
          preview: text,
          timestamp: at.toISOString(),
          recipientInRoom: o.inRoom ?? false,
        },
        at,
      );
    },
    get: (userId, query = '') =>
      app.inject({ url: `/api/notifications${query}`, headers: as(userId) }),
    page: async (userId, query) => ok(await h.get(userId, query)),
    async all(userId) {
      const all: Notification[] = [];
      let query = '?limit=50';
      for (;;) {
        const page = await h.page(userId, query);
        all.push(...page.notifications);
        if (page.nextCursor === null) return all;
        query = `?limit=50&cursor=${encodeURIComponent(page.nextCursor)}`;
      }
    },
    async waitFor(userId, count) {
      let got: Notification[] = [];
      await vi.waitFor(async () => {
        got = (await h.page(userId, '?limit=50')).notifications;
        expect(got.length, `notifications of ${userId}`).toBeGreaterThanOrEqual(count);
      }, waitOptions);
      return got;
    },
    markRead: (userId, body) =>
      app.inject({
        method: 'POST',
        url: '/api/notifications/read',
        headers: { ...as(userId), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      }),
    close,
  };
  return h;
}

/** Waits until every consumer has applied `event` (its processed marker is written). */
export async function applied(h: Harness, event: EventEnvelope): Promise<void> {
  await vi.waitFor(async () => {
    const { rowCount } = await h.pool.query('SELECT 1 FROM processed_events WHERE event_id = $1', [
      event.id,
    ]);
    expect(rowCount, `event ${event.type} applied`).toBeGreaterThan(0);
  }, waitOptions);
}
