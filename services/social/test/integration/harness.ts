import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Partitioners, type Producer } from 'kafkajs';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import {
  FRIENDS_NEXT_CURSOR_HEADER,
  IdentityHeaders,
  makeEvent,
  Topics,
  TripCreated,
  TripDeleted,
  TripUpdated,
  UserRegistered,
  type EventEnvelope,
  type Friend,
  type FriendRequest,
  type SearchUser,
  type Topic,
  type TripVisibility,
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
import { SocialEnv } from '../../src/config';
import { CONSUMERS } from '../../src/events/consumers';
import { createService, type SocialService } from '../../src/service';

/** The identity header of a signed-in user (`h.app` adds the gateway's proof of it). */
export function as(userId: string): Record<string, string> {
  return { [IdentityHeaders.userId]: userId };
}

export interface TestDestination {
  name?: string;
  latitude: number;
  longitude: number;
  photos?: string[];
  storyPreview?: string;
}

export interface Harness extends SocialService {
  /** The env the service was booted with (its database, its consumer groups). */
  env: SocialEnv;
  /** The app as a caller that is not the gateway reaches it (no identity proof). */
  rawApp: FastifyInstance;
  /** Registers a user as auth announces one, and waits until social knows them. */
  register(name: string): Promise<string>;
  /** Announces a user again with a new name and picture (auth's `user.registered`). */
  announceUser(userId: string, name: string, picture: string): Promise<void>;
  addFriend(userId: string, id: string): Promise<LightMyRequestResponse>;
  accept(userId: string, id: string): Promise<LightMyRequestResponse>;
  decline(userId: string, id: string): Promise<LightMyRequestResponse>;
  unfriend(userId: string, id: string): Promise<LightMyRequestResponse>;
  /** Makes two registered users friends (a request and its acceptance). */
  befriend(a: string, b: string): Promise<void>;
  /** Every page of `GET /api/friends`, following the cursors. */
  friends(userId: string): Promise<Friend[]>;
  requests(userId: string): Promise<FriendRequest[]>;
  search(userId: string, query: string): Promise<SearchUser[]>;
  /** Publishes `trip.created` as trips does (keyed by the trip id); returns the envelope. */
  createTrip(
    ownerId: string,
    destinations: TestDestination[],
    trip?: { tripId?: string; name?: string; visibility?: TripVisibility },
  ): Promise<EventEnvelope>;
  /**
   * Publishes `trip.updated` as trips does (the whole trip after the change) for a trip
   * `createTrip` made: its destinations unless others are given, and `visibility` if given.
   */
  updateTrip(
    created: EventEnvelope,
    version: number,
    change?: { destinations?: ReadonlyArray<Record<string, unknown>>; visibility?: TripVisibility },
  ): Promise<EventEnvelope>;
  deleteTrip(ownerId: string, tripId: string): Promise<EventEnvelope>;
  /** Sends an envelope again (a redelivery) on `topic`, keyed by its aggregate id. */
  publishEnvelope(topic: Topic, envelope: EventEnvelope): Promise<void>;
  /** Rows of each table: what a refused request must leave as it was. */
  counts(): Promise<Record<'requests' | 'friendships' | 'outbox', number>>;
  close(): Promise<void>;
}

/**
 * social booted by its composition root on a fresh database and consumer groups of its own
 * (joined before this resolves, reading only events published from now on), called as the
 * gateway calls it, plus a producer publishing what auth and trips would. `close()` also drops
 * the database and the groups.
 */
export async function startSocial(extraEnv: Record<string, string> = {}): Promise<Harness> {
  const dbUrl = await freshDatabase('social');
  const env = loadConfig(SocialEnv, testServiceEnv({ DATABASE_URL: dbUrl, ...extraEnv }));
  const svc = await createService(env, { skipHistory: true }).catch(async (err: unknown) => {
    await dropDatabase(dbUrl);
    throw err;
  });
  const producer: Producer = testKafka().producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const close = async () => {
    await svc.close();
    await Promise.all([svc.consumers.users.started, svc.consumers.trips.started]);
    await producer.disconnect();
    await dropConsumerGroups([groupId(env, CONSUMERS.users), groupId(env, CONSUMERS.trips)]);
    await dropDatabase(dbUrl);
  };
  try {
    await Promise.all([svc.consumers.users.started, svc.consumers.trips.started]);
    await producer.connect();
  } catch (err) {
    await close();
    throw err;
  }
  const app = throughGateway(svc.app);

  const publishEnvelope = async (topic: Topic, envelope: EventEnvelope) => {
    await producer.send({
      topic,
      acks: -1,
      messages: [{ key: envelope.aggregateId, value: JSON.stringify(envelope) }],
    });
  };
  const post = (url: string, userId: string) =>
    app.inject({ method: 'POST', url, headers: as(userId) });
  const ok = <T>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const enc = encodeURIComponent;
  const announceUser = async (userId: string, name: string, picture: string) => {
    const event = makeEvent(UserRegistered, userId, {
      userId,
      name,
      email: `${userId}@example.com`,
      profilePicture: picture,
    }) as EventEnvelope;
    await publishEnvelope(Topics.authUser, event);
  };
  const h: Harness = {
    ...svc,
    env,
    app,
    rawApp: svc.app,
    announceUser,
    async register(name) {
      const userId = crypto.randomUUID();
      await announceUser(userId, name, `/api/avatars/${userId}/a.webp`);
      await vi.waitFor(async () => {
        const { rowCount } = await svc.pool.query('SELECT 1 FROM users WHERE id = $1', [userId]);
        expect(rowCount, `${name} known to social`).toBe(1);
      }, waitOptions);
      return userId;
    },
    addFriend: (userId, id) => post(`/api/add-friend/${enc(id)}`, userId),
    accept: (userId, id) => post(`/api/acceptFriend/${enc(id)}`, userId),
    decline: (userId, id) => post(`/api/declineFriend/${enc(id)}`, userId),
    unfriend: (userId, id) =>
      app.inject({ method: 'DELETE', url: `/api/friends/${enc(id)}`, headers: as(userId) }),
    async befriend(a, b) {
      expect((await h.addFriend(a, b)).statusCode).toBe(200);
      expect((await h.accept(b, a)).statusCode).toBe(200);
    },
    async friends(userId) {
      // every page, following x-next-cursor
      const all: Friend[] = [];
      let url: string | null = '/api/friends';
      while (url !== null) {
        const res: LightMyRequestResponse = await app.inject({ url, headers: as(userId) });
        all.push(...ok<Friend[]>(res));
        const next = res.headers[FRIENDS_NEXT_CURSOR_HEADER];
        url = typeof next === 'string' ? `/api/friends?cursor=${enc(next)}` : null;
      }
      return all;
    },
    requests: async (userId) =>
      ok<FriendRequest[]>(await app.inject({ url: '/api/friendRequests', headers: as(userId) })),
    search: async (userId, query) =>
      ok<{ users: SearchUser[] }>(
        await app.inject({ url: `/api/search-users?query=${enc(query)}`, headers: as(userId) }),
      ).users,
    async createTrip(ownerId, destinations, trip = {}) {
      const tripId = trip.tripId ?? `trip-${uniqueSuffix()}`;
      const event = makeEvent(TripCreated, tripId, {
        tripId,
        ownerId,
        name: trip.name ?? 'Spring trip',
        startDate: '2026-05-01',
        endDate: '2026-05-09',
        destinations: destinations.map((d, i) => ({
          id: `dest-${uniqueSuffix()}`,
          name: d.name ?? `Stop ${i}`,
          latitude: d.latitude,
          longitude: d.longitude,
          startDate: '2026-05-01',
          endDate: '2026-05-03',
          photos: d.photos ?? [],
          storyPreview: d.storyPreview ?? '',
        })),
        ...(trip.visibility ? { visibility: trip.visibility } : {}),
      }) as EventEnvelope;
      await publishEnvelope(Topics.tripsTrip, event);
      return event;
    },
    async updateTrip(created, version, change = {}) {
      const p = created.payload as { tripId: string; ownerId: string; destinations: unknown };
      const event = makeEvent(TripUpdated, p.tripId, {
        tripId: p.tripId,
        ownerId: p.ownerId,
        version,
        name: 'Spring trip',
        startDate: '2026-05-01',
        endDate: '2026-05-09',
        destinations: (change.destinations ?? p.destinations) as never,
        addedDestinationIds: [],
        movedDestinationIds: [],
        removedDestinationIds: [],
        ...(change.visibility ? { visibility: change.visibility } : {}),
      }) as EventEnvelope;
      await publishEnvelope(Topics.tripsTrip, event);
      return event;
    },
    async deleteTrip(ownerId, tripId) {
      const event = makeEvent(TripDeleted, tripId, {
        tripId,
        ownerId,
        destinations: [],
      }) as EventEnvelope;
      await publishEnvelope(Topics.tripsTrip, event);
      return event;
    },
    publishEnvelope,
    async counts() {
      const { rows } = await svc.pool.query<Record<'requests' | 'friendships' | 'outbox', number>>(
        `SELECT (SELECT count(*) FROM friend_requests)::int AS requests,
                (SELECT count(*) FROM friendships)::int AS friendships,
                (SELECT count(*) FROM outbox)::int AS outbox`,
      );
      return rows[0]!;
    },
    close,
  };
  return h;
}

export const waitOptions = { timeout: 20_000, interval: 20 };

/**
 * social for the calling test file: booted before its tests (`startSocial`; with
 * `cacheListening`, also until its friends cache listens), handed to `use`, closed after them.
 */
export function socialPerFile(
  use: (h: Harness) => void,
  options: { cacheListening?: boolean; timeout?: number } = {},
): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startSocial();
    if (options.cacheListening) await friendsCacheListening(h);
    use(h);
  }, options.timeout);
  afterAll(async () => {
    await h?.close();
  });
}

/**
 * A second social instance on the harness's database (its own consumer groups and friends
 * cache), as two replicas behind the gateway run; `app` is called as the gateway calls it.
 */
export async function startSecondInstance(h: Harness): Promise<{
  svc: SocialService;
  app: FastifyInstance;
  close(): Promise<void>;
}> {
  const env = loadConfig(SocialEnv, testServiceEnv({ DATABASE_URL: h.env.DATABASE_URL }));
  const svc = await createService(env, { skipHistory: true });
  const close = async () => {
    await svc.close();
    await Promise.all([svc.consumers.users.started, svc.consumers.trips.started]);
    await dropConsumerGroups([groupId(env, CONSUMERS.users), groupId(env, CONSUMERS.trips)]);
  };
  return { svc, app: throughGateway(svc.app), close };
}

/** Waits until a service's friends cache listens for changes (it stores nothing before). */
export async function friendsCacheListening(svc: SocialService): Promise<void> {
  await vi.waitFor(() => expect(svc.friendsListener?.listening).toBe(true), waitOptions);
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
 * The social events about `userIds` on the topic as it stands now, one per event id: the relay
 * sends at least once, so a Kafka redelivery of the same envelope is one event. Other services'
 * tests publish junk on this topic too (skipped-payload tests): it is not JSON, or concerns
 * nobody here. Call after `outboxDrained`.
 */
export async function publishedEvents(userIds: readonly string[]): Promise<EventEnvelope[]> {
  const concerns = (payload: unknown): boolean => {
    if (typeof payload !== 'object' || payload === null) return false;
    const p = payload as { userIds?: unknown; fromUserId?: string; toUserId?: string };
    if (Array.isArray(p.userIds)) return p.userIds.some((id) => userIds.includes(id as string));
    return [p.fromUserId, p.toUserId].some((id) => id !== undefined && userIds.includes(id));
  };
  const byId = new Map<string, EventEnvelope>();
  for (const { json } of await readTopicToEnd(Topics.socialFriendship)) {
    const event = json as EventEnvelope | null;
    if (event && concerns(event.payload)) byId.set(event.id, event);
  }
  return [...byId.values()];
}
