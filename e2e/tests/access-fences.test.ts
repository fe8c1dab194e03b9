import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthEnv, createService as createAuth } from '@wayfarer/auth';
import { ChatEnv, createService as createChat } from '@wayfarer/chat';
import {
  AccountMessages,
  CHAT_SOCKET_PATH,
  ChatEvents,
  ChatMessages,
  roomIdOf,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { createService as createJournal, JournalEnv } from '@wayfarer/journal';
import { loadConfig } from '@wayfarer/service-kit';
import { createService as createSocial, SocialEnv } from '@wayfarer/social';
import {
  dropBucket,
  dropDatabase,
  dropMongoDatabase,
  freshDatabase,
  gatewayHeaders,
  testServiceEnv,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { startKafkaServer, type KafkaServer } from '@wayfarer/test-kit/faults';
import { createService as createTrips, TripsEnv } from '@wayfarer/trips';
import { makePng } from '../support/browser';
import { tripForm, type TripSummary } from '../support/api';

/**
 * Access ends when the change is answered, whatever Kafka does (docs/architecture.md, "Access
 * fences"). auth, social, trips, journal and chat are booted by their composition roots in this
 * process on the shared PostgreSQL, MongoDB, MinIO and Redis, and on a Kafka broker of this
 * test's own, which is killed (SIGKILL) before the changes: no event of theirs reaches any
 * projection, so nothing but the fences social and auth write can end the access. Requests
 * carry the identity proof the gateway would add.
 */

type Service = { url: string; close: () => Promise<void> };
const suffix = uniqueSuffix();
const poll = { timeout: 60_000, interval: 100 };

/** Waits until `read` answers `want` (observable state; `expect.poll` is for tests only). */
async function until<T>(read: () => Promise<T>, want: T): Promise<void> {
  await vi.waitFor(async () => expect(await read()).toEqual(want), poll);
}

let kafka: KafkaServer;
let spool: string;
const cleanups: (() => Promise<unknown>)[] = [];
const sockets: Socket[] = [];

let auth: Service & Awaited<ReturnType<typeof createAuth>>;
let social: Service & Awaited<ReturnType<typeof createSocial>>;
let trips: Service & Awaited<ReturnType<typeof createTrips>>;
let journal: Service & Awaited<ReturnType<typeof createJournal>>;
let chat: Service & Awaited<ReturnType<typeof createChat>>;

async function listen<T extends { app: { listen: (o: object) => Promise<string> } }>(
  svc: T,
): Promise<T & { url: string }> {
  const url = await svc.app.listen({ port: 0, host: '127.0.0.1' });
  return Object.assign(svc, { url });
}

/** A request to `service` as the gateway forwards it: as `userId`, or anonymous (null). */
function call(
  service: { url: string },
  path: string,
  userId: string | null,
  init: RequestInit = {},
): Promise<Response> {
  const method = init.method ?? 'GET';
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(gatewayHeaders(method, path, { userId }))) headers.set(k, v);
  return fetch(`${service.url}${path}`, { ...init, method, headers });
}

const json = (body: unknown): RequestInit => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

interface User {
  id: string;
  name: string;
  email: string;
  password: string;
  /** The picture's URL. */
  picture: string;
}

async function register(name: string): Promise<User> {
  const email = `fence.${name.toLowerCase()}.${suffix}@example.com`;
  const password = 'a long password for fences';
  const form = new FormData();
  form.append('name', `${name} ${suffix}`);
  form.append('email', email);
  form.append('password', password);
  form.append(
    'profilePicture',
    new Blob([new Uint8Array(makePng(48))], { type: 'image/png' }),
    'me.png',
  );
  const res = await call(auth, '/api/register', null, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  const { userId } = (await res.json()) as { userId: string };
  const details = await call(auth, '/api/userDetails', userId);
  const { profilePicture } = (await details.json()) as { profilePicture: string };
  return { id: userId, name: `${name} ${suffix}`, email, password, picture: profilePicture };
}

/** `a` asks, `b` accepts (once social has heard of both), and every projection holds it. */
async function befriend(a: User, b: User): Promise<void> {
  await until(
    async () => (await call(social, `/api/add-friend/${b.id}`, a.id, { method: 'POST' })).status,
    200,
  );
  expect((await call(social, `/api/acceptFriend/${a.id}`, b.id, { method: 'POST' })).status).toBe(
    200,
  );
  await until(
    async () =>
      (await trips.friendships.areFriends(a.id, b.id)) &&
      (await journal.stores.friendships.areFriends(a.id, b.id)) &&
      (await chat.stores.friendships.areFriends(a.id, b.id)),
    true,
  );
}

/** A trip of `owner` with a photo and a journal entry, as `owner` sees it. */
async function tripWithJournal(owner: User, name: string) {
  const form = tripForm(name, [['Lisbon, Portugal', '38.72', '-9.14', '2026-04-01', '2026-04-04']]);
  const res = await call(trips, '/api/trips', owner.id, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  const trip = (await res.json()) as TripSummary;
  const destination = trip.destinations[0]!;
  // journal knows the destination once trip.created reached it
  await until(
    async () => (await call(journal, `/api/journal/${destination._id}`, owner.id)).status,
    200,
  );
  const saved = await call(journal, '/api/journal', owner.id, {
    method: 'POST',
    ...json({ destinationId: destination._id, content: 'A day.', date: new Date().toISOString() }),
  });
  expect(saved.status).toBe(200);
  const share = await call(trips, `/api/trips/${trip._id}/share`, owner.id, {
    method: 'POST',
    ...json({}),
  });
  expect(share.status).toBe(201);
  const { token } = (await share.json()) as { token: string };
  const shared = (await (await call(trips, `/api/shared/${token}`, null)).json()) as {
    destinations: { photos: string[] }[];
  };
  return {
    trip,
    photo: destination.photos[0]!,
    journal: `/api/journal/${destination._id}`,
    shared: `/api/shared/${token}`,
    sharedPhoto: shared.destinations[0]!.photos[0]!,
  };
}

/** A socket of `userId` to chat, connected, as the gateway forwards its upgrade. */
async function socketOf(userId: string): Promise<Socket> {
  const socket = connectSocket(chat.url, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: gatewayHeaders('GET', CHAT_SOCKET_PATH, { userId }),
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

const send = (socket: Socket, to: string, text: string) =>
  socket
    .timeout(10_000)
    .emitWithAck(ChatEvents.sendMessage, { to, text }) as Promise<SendMessageAck>;

const stored = async (roomId: string) =>
  (await chat.stores.messages.page(roomId, null, 100)).messages.length;

let ann: User; // unfriends ben
let ben: User; // ann's and dan's friend
let cat: User; // searches
let dan: User; // closes the account
let annTrip: Awaited<ReturnType<typeof tripWithJournal>>;
let danTrip: Awaited<ReturnType<typeof tripWithJournal>>;
let benSocket: Socket;
const annRoom = () => roomIdOf(ann.id, ben.id);

beforeAll(async () => {
  kafka = await startKafkaServer();
  cleanups.push(() => kafka.stop());
  spool = await mkdtemp(join(tmpdir(), 'wayfarer-fences-'));
  cleanups.push(() => rm(spool, { recursive: true, force: true }));
  const env = (extra: Record<string, string>) =>
    testServiceEnv({ KAFKA_BROKERS: kafka.brokers, OUTBOX_POLL_MS: '50', ...extra });

  const authDb = await freshDatabase('auth');
  const avatars = `t-fence-avatars-${suffix}`;
  cleanups.push(
    () => dropDatabase(authDb),
    () => dropBucket(avatars),
  );
  auth = await listen(
    await createAuth(
      loadConfig(
        AuthEnv,
        env({
          DATABASE_URL: authDb,
          AVATAR_BUCKET: avatars,
          SPOOL_DIR: join(spool, 'auth'),
          SESSION_PRIVATE_KEY: generateKeyPairSync('ed25519')
            .privateKey.export({ format: 'pem', type: 'pkcs8' })
            .toString(),
        }),
      ),
    ),
  );
  cleanups.push(() => auth.close());

  const socialDb = await freshDatabase('social');
  cleanups.push(() => dropDatabase(socialDb));
  social = await listen(await createSocial(loadConfig(SocialEnv, env({ DATABASE_URL: socialDb }))));
  cleanups.push(() => social.close());

  const photos = `t-fence-photos-${suffix}`;
  cleanups.push(
    () => dropMongoDatabase(`t_fence_trips_${suffix}`),
    () => dropBucket(photos),
  );
  trips = await listen(
    await createTrips(
      loadConfig(
        TripsEnv,
        env({
          MONGO_DB: `t_fence_trips_${suffix}`,
          PHOTO_BUCKET: photos,
          SPOOL_DIR: join(spool, 'trips'),
        }),
      ),
    ),
  );
  cleanups.push(() => trips.close());

  cleanups.push(() => dropMongoDatabase(`t_fence_journal_${suffix}`));
  journal = await listen(
    await createJournal(loadConfig(JournalEnv, env({ MONGO_DB: `t_fence_journal_${suffix}` }))),
  );
  cleanups.push(() => journal.close());

  cleanups.push(() => dropMongoDatabase(`t_fence_chat_${suffix}`));
  chat = await listen(
    await createChat(
      loadConfig(ChatEnv, env({ MONGO_DB: `t_fence_chat_${suffix}`, PORT: '4006' })),
    ),
  );
  cleanups.push(async () => {
    for (const s of sockets) s.disconnect();
    await chat.close();
  });

  [ann, ben, cat, dan] = await Promise.all([
    register('Ann'),
    register('Ben'),
    register('Cat'),
    register('Dan'),
  ]);
  await befriend(ann, ben);
  await befriend(dan, ben);
  annTrip = await tripWithJournal(ann, 'Ann’s trip');
  danTrip = await tripWithJournal(dan, 'Dan’s trip');

  // everything the fences must end works before, so each refusal below can fail
  for (const t of [annTrip, danTrip]) {
    expect((await call(trips, t.photo, ben.id)).status).toBe(200);
    expect((await call(journal, t.journal, ben.id)).status).toBe(200);
    expect((await call(trips, t.shared, null)).status).toBe(200);
    expect((await call(trips, t.sharedPhoto, null)).status).toBe(200);
  }
  benSocket = await socketOf(ben.id);
  expect(await benSocket.emitWithAck(ChatEvents.join, annRoom())).toEqual({ ok: true });
  expect((await send(benSocket, ann.id, 'Hello Ann')).ok).toBe(true);
  expect((await call(chat, `/api/conversation/${annRoom()}`, ben.id)).status).toBe(200);
  await until(async () => {
    const res = await call(
      social,
      `/api/search-users?query=${encodeURIComponent(dan.name)}`,
      cat.id,
    );
    return ((await res.json()) as { users: { _id: string }[] }).users.map((u) => u._id);
  }, [dan.id]);
  expect((await call(auth, dan.picture, cat.id)).status).toBe(200);

  // Kafka really stopped, for good: nothing below can reach a projection
  await kafka.kill();
}, 240_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}, 120_000);

describe('access ends when the change is answered (own Kafka broker killed)', () => {
  it('unfriended: the ex-friend’s next photo, trip, journal, history and socket send are refused, nothing stored', async () => {
    const before = await stored(annRoom());
    const res = await call(social, `/api/friends/${ben.id}`, ann.id, { method: 'DELETE' });
    expect(res.status).toBe(200);

    expect((await call(trips, annTrip.photo, ben.id)).status).toBe(404);
    expect((await call(trips, `/api/trips/${annTrip.trip._id}`, ben.id)).status).toBe(404);
    expect((await call(journal, annTrip.journal, ben.id)).status).toBe(404);
    expect((await call(chat, `/api/conversation/${annRoom()}`, ben.id)).status).toBe(403);
    // on the socket opened (and joined to the room) while they were friends
    expect(await send(benSocket, ann.id, 'Still there?')).toEqual({
      ok: false,
      error: ChatMessages.notFriends,
    });
    expect(await stored(annRoom())).toBe(before);
    // and the other way round
    expect((await call(chat, `/api/conversation/${annRoom()}`, ann.id)).status).toBe(403);

    // the projections have not heard (Kafka is down): the fence alone refused
    expect(await trips.friendships.areFriends(ben.id, ann.id)).toBe(false);
    expect(
      await trips.db.collection('friendships').countDocuments({ active: true, userIds: ann.id }),
    ).toBe(1);
    // ben's other friendship is untouched
    expect((await call(trips, danTrip.photo, ben.id)).status).toBe(200);
  });

  it('account closed: its share link, shared and friends’ photos, journal, picture and search are refused at once', async () => {
    const res = await call(auth, '/api/account', dan.id, {
      method: 'DELETE',
      ...json({ password: dan.password }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: AccountMessages.accountDeleted });

    expect((await call(trips, danTrip.shared, null)).status).toBe(404);
    expect((await call(trips, danTrip.sharedPhoto, null)).status).toBe(404);
    expect((await call(trips, danTrip.photo, ben.id)).status).toBe(404);
    expect((await call(auth, dan.picture, cat.id)).status).toBe(404);
    expect((await call(journal, danTrip.journal, ben.id)).status).toBe(404);
    expect((await call(chat, `/api/conversation/${roomIdOf(dan.id, ben.id)}`, ben.id)).status).toBe(
      403,
    );
    const search = await call(
      social,
      `/api/search-users?query=${encodeURIComponent(dan.name)}`,
      cat.id,
    );
    expect(search.status).toBe(200);
    expect(await search.json()).toEqual({ users: [] });

    // the rest follows the events, which have not left (Kafka is down): ben's list still has
    // dan, and social still holds the user row search found a moment ago
    const friends = (await (await call(social, '/api/getUserFriends', ben.id)).json()) as {
      friends: { _id?: string; id?: string }[];
    };
    expect(JSON.stringify(friends)).toContain(dan.id);
  });
});
