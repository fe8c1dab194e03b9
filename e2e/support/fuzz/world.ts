import { expect, inject, vi } from 'vitest';
import pg from 'pg';
import { testInfra } from '@wayfarer/test-kit';
import { api, createTrip, signUp, type Account } from '../api';
import { makePng } from '../browser';

/**
 * The users the fuzz suite works with, and what it reads to tell whether a refused request
 * changed anything. The `caller` sends every fuzzed request; `friend` is her friend (a trip, a
 * bucket-list item with an itinerary, a journal: ids the caller may read or must not change);
 * `stranger` has asked the caller to be friends (the request stays pending: no fuzzed request
 * names it where it would be accepted); `leaver` is the session the logout route ends.
 */
export interface World {
  caller: Account;
  friend: Account;
  stranger: Account;
  leaver: Account;
  ids: {
    myTrip: string;
    myDestination: string;
    /** `/api/photos/<trip>/<photo>` of the caller's first photo. */
    myPhotoPath: string;
    myItem: string;
    /** `/api/avatars/<user>/<file>` of the caller's picture. */
    myAvatarPath: string;
    friendTrip: string;
    friendDestination: string;
    friendPhotoPath: string;
    friendItem: string;
    /** A share link of the caller's trip, and the friend's trip's. */
    myShareToken: string;
    friendShareToken: string;
    /** The caller's and her friend's chat room (ids sorted, joined with `_`). */
    room: string;
    strangerRoom: string;
  };
}

const ok = async (res: Response, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res;
};

const post = (path: string, account: Account, body?: unknown) =>
  api(path, account, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

/** Signs the four users up and gives them their trips, places, journals and friendships. */
export async function buildWorld(): Promise<World> {
  const caller = await signUp('Fuzz Caller', 'fuzz', makePng(32));
  const friend = await signUp('Fuzz Friend', 'fuzz');
  const stranger = await signUp('Fuzz Stranger', 'fuzz');
  const leaver = await signUp('Fuzz Leaver', 'fuzz');
  await ok(await post(`/api/add-friend/${friend.userId}`, caller), 'add friend');
  await ok(await post(`/api/acceptFriend/${caller.userId}`, friend), 'accept');
  await ok(await post(`/api/add-friend/${caller.userId}`, stranger), 'stranger asks');

  const myTrip = await createTrip(
    caller,
    'Fuzz Trip',
    [['Lisbon', '38.72', '-9.14', '2026-04-01', '2026-04-03']],
    'A story of Lisbon.',
  );
  const friendTrip = await createTrip(
    friend,
    'Friend Trip',
    [['Porto', '41.15', '-8.61', '2026-05-01', '2026-05-02']],
    'A story of Porto.',
  );
  // far from any trip: a place the trips made by the suite never tick off
  const place = { place: 'Fuzz Reef', latitude: -12.3456, longitude: -145.678, isVisited: false };
  const item = async (account: Account) => {
    const res = await ok(await post('/api/bucketlist', account, place), 'bucket-list item');
    const id = ((await res.json()) as { data: { _id: string } }).data._id;
    await ok(
      await post('/api/itinerary', account, { bucketListId: id, itinerary: ['Dive', 'Rest'] }),
      'itinerary',
    );
    return id;
  };
  const myItem = await item(caller);
  const friendItem = await item(friend);

  const myDestination = myTrip.destinations[0]!._id;
  const friendDestination = friendTrip.destinations[0]!._id;
  const shareToken = async (account: Account, tripId: string) => {
    const res = await ok(await post(`/api/trips/${tripId}/share`, account, {}), 'share link');
    return ((await res.json()) as { token: string }).token;
  };
  const myShareToken = await shareToken(caller, myTrip._id);
  const friendShareToken = await shareToken(friend, friendTrip._id);
  // journal and chat learn of trips and friendships from events: wait until they know them
  for (const [account, destinationId] of [
    [caller, myDestination],
    [friend, friendDestination],
  ] as const) {
    await vi.waitFor(
      async () => {
        const res = await post('/api/journal', account, {
          destinationId,
          content: `Journal of ${account.userId}`,
        });
        expect(res.status).toBe(200);
      },
      { timeout: 30_000, interval: 250 },
    );
  }
  const room = [caller.userId, friend.userId].sort().join('_');
  await vi.waitFor(
    async () => expect((await api(`/api/conversation/${room}`, caller)).status).toBe(200),
    { timeout: 30_000, interval: 250 },
  );
  const details = (await (await api('/api/userDetails', caller)).json()) as {
    profilePicture: string;
  };
  return {
    caller,
    friend,
    stranger,
    leaver,
    ids: {
      myTrip: myTrip._id,
      myDestination,
      myPhotoPath: myTrip.destinations[0]!.photos[0]!,
      myItem,
      myAvatarPath: details.profilePicture,
      friendTrip: friendTrip._id,
      friendDestination,
      friendPhotoPath: friendTrip.destinations[0]!.photos[0]!,
      friendItem,
      myShareToken,
      friendShareToken,
      room,
      strangerRoom: [caller.userId, stranger.userId].sort().join('_'),
    },
  };
}

/**
 * What is compared before and after requests. The caller's own parts may change when a request
 * is accepted (a 2xx: read again then); `others` (the friend's and the stranger's data) and
 * `session` never may, and `users` only by a register that was accepted.
 */
export const PARTS = [
  'myTrips',
  'bucket',
  'itinerary',
  'requests',
  'friends',
  'journal',
  'conversation',
  'user',
  'session',
  'users',
  'others',
] as const;
export type Part = (typeof PARTS)[number];
export type Snapshot = Partial<Record<Part, string>>;

/** The auth service's users, counted in its database (the e2e stack's `auth_<namespace>`). */
export class UserCount {
  private readonly client: pg.Client;
  constructor() {
    const url = new URL(testInfra().pgUrl);
    url.pathname = `/auth_${inject('namespace')}`;
    this.client = new pg.Client({ connectionString: url.toString() });
  }
  connect = () => this.client.connect();
  close = () => this.client.end();
  async count(): Promise<number> {
    const { rows } = await this.client.query<{ n: string }>('SELECT count(*) AS n FROM users');
    return Number(rows[0]!.n);
  }
}

type Json = Record<string, unknown>;
const byId = (a: Json, b: Json) => String(a._id ?? a.id).localeCompare(String(b._id ?? b.id));
const pick = (o: Json, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

/** A GET as `account`, as text: the status and the (normalised) JSON answer. */
async function read(
  account: Account,
  path: string,
  normalise: (json: unknown) => unknown = (j) => j,
): Promise<string> {
  const res = await api(path, account);
  const text = await res.text();
  if (res.status !== 200) return `${res.status} ${text.slice(0, 200)}`;
  return JSON.stringify(normalise(JSON.parse(text)));
}

const TRIP_KEYS = ['_id', 'name', 'startDate', 'endDate'];
const DESTINATION_KEYS = ['_id', 'name', 'latitude', 'longitude', 'startDate', 'endDate', 'story'];
/** Trips without their photos (a new photo's URL changes when its variants are ready). */
const trips = (json: unknown) =>
  (json as Json[])
    .map((t) => ({
      ...pick(t, TRIP_KEYS),
      destinations: (t.destinations as Json[]).map((d) => pick(d, DESTINATION_KEYS)),
    }))
    .sort(byId);
/**
 * The caller's places without their visit: a trip the suite created may tick one off a moment
 * later (an event); the friend's places are compared whole.
 */
const places = (json: unknown) =>
  (json as Json[])
    .map((i) => pick(i, ['_id', 'place', 'latitude', 'longitude', 'description']))
    .sort(byId);
const sorted = (key: string) => (json: unknown) => {
  const list = ((json as Json)[key] ?? json) as Json[];
  return [...list].sort(byId);
};

const idsOf = (key: string) => (json: unknown) =>
  sorted(key)(json).map((o) => String(o._id ?? o.id));

export async function readPart(world: World, users: UserCount, part: Part): Promise<string> {
  const { caller: me, friend, stranger, ids } = world;
  switch (part) {
    case 'myTrips':
      return read(me, '/api/mytrips', trips);
    case 'bucket':
      return read(me, '/api/bucketlist', places);
    case 'itinerary':
      return read(me, `/api/itinerary/${ids.myItem}`);
    case 'requests':
      return read(me, '/api/friendRequests', sorted('requests'));
    case 'friends':
      return read(me, '/api/getUserFriends', sorted('friends'));
    case 'journal':
      return read(me, `/api/journal/${ids.myDestination}`);
    case 'conversation':
      return read(me, `/api/conversation/${ids.room}`, (j) =>
        (j as { conversation: { messages: Json[] } }).conversation.messages.map((m) => m._id),
      );
    case 'user':
      return read(me, '/api/userDetails');
    case 'session':
      return read(me, '/api/protected');
    case 'users':
      return String(await users.count());
    case 'others': {
      const all = await Promise.all([
        read(friend, '/api/mytrips', trips),
        read(friend, '/api/bucketlist', (j) => [...(j as Json[])].sort(byId)),
        read(friend, `/api/itinerary/${ids.friendItem}`),
        read(friend, `/api/journal/${ids.friendDestination}`),
        read(friend, '/api/userDetails'),
        // who their friends and requests are (not the names and pictures shown: the caller may
        // change her own, PATCH /api/userDetails)
        ...[friend, stranger].flatMap((who) => [
          read(who, '/api/friendRequests', idsOf('requests')),
          read(who, '/api/getUserFriends', idsOf('friends')),
        ]),
      ]);
      return all.join('\n');
    }
  }
}

export async function snapshot(
  world: World,
  users: UserCount,
  parts: readonly Part[] = PARTS,
): Promise<Snapshot> {
  const values = await Promise.all(parts.map((p) => readPart(world, users, p)));
  return Object.fromEntries(parts.map((p, i) => [p, values[i]]));
}

/** The parts that differ between two snapshots (of those `a` has). */
export function changedParts(a: Snapshot, b: Snapshot): Part[] {
  return (Object.keys(a) as Part[]).filter((p) => a[p] !== b[p]);
}

/** The e2e stack's processes, from its control endpoint (`stack-setup.ts`). */
export async function stackProcesses(): Promise<
  { name: string; pid?: number; state: string; restarts: number }[]
> {
  const res = await fetch(`${inject('controlUrl')}/processes`);
  return (await res.json()) as { name: string; pid?: number; state: string; restarts: number }[];
}
