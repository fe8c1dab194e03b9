import { describe, expect, it, vi } from 'vitest';
import {
  FriendStatsResponse,
  StatsMessages,
  StatsResponse,
  type EventEnvelope,
  type TripVisibility,
} from '@wayfarer/contracts';
import { backfillCountries } from '../../src/store/stats';
import { as, waitOptions, type Harness, type TestDestination, socialPerFile } from './harness';

/**
 * `GET /api/stats` and `GET /api/stats/friends/{friendId}` follow trips' events
 * (create, edit moving a destination to another country, privacy change, delete), the friend's
 * view never counts a private trip, the countries are stored when the event is applied (and
 * filled for rows older than that), and anyone but a current friend gets the same 404.
 */

let h: Harness;
socialPerFile((harness) => (h = harness), { cacheListening: true });

const ROME = { latitude: 41.9028, longitude: 12.4964 };
const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const TOKYO = { latitude: 35.6762, longitude: 139.6503 };
const LISBON = { latitude: 38.7223, longitude: -9.1393 };
// the Atlantic, far from any coast: a destination in no country
const OPEN_SEA = { latitude: 30, longitude: -40 };

const enc = encodeURIComponent;
const get = (userId: string, url: string) => h.app.inject({ url, headers: as(userId) });

async function ownStats(userId: string): Promise<StatsResponse> {
  const res = await get(userId, '/api/stats');
  expect(res.statusCode, res.body).toBe(200);
  return StatsResponse.parse(res.json());
}

async function friendStats(userId: string, friendId: string): Promise<FriendStatsResponse> {
  const res = await get(userId, `/api/stats/friends/${enc(friendId)}`);
  expect(res.statusCode, res.body).toBe(200);
  return FriendStatsResponse.strict().parse(res.json());
}

const codes = (stats: { countries: { code: string }[] }) => stats.countries.map((c) => c.code);

/** Waits until `read` answers countries `expected` (in the answer's order). */
async function untilCountries(read: () => Promise<StatsResponse>, expected: string[]) {
  await vi.waitFor(async () => expect(codes(await read())).toEqual(expected), waitOptions);
}

/** Publishes `trip.updated` as trips does: the whole trip after the change. */
const updateTrip = (
  created: EventEnvelope,
  version: number,
  destinations: Array<Record<string, unknown>>,
  visibility?: TripVisibility,
) => h.updateTrip(created, version, { destinations, ...(visibility ? { visibility } : {}) });

const destinationsOf = (event: EventEnvelope) =>
  (event.payload as { destinations: Array<Record<string, unknown>> }).destinations;

async function storedCountries(tripId: string): Promise<unknown> {
  const { rows } = await h.pool.query<{ countries: unknown }>(
    'SELECT countries FROM trips WHERE id = $1',
    [tripId],
  );
  return rows[0]?.countries;
}

async function trip(ownerId: string, places: TestDestination[], visibility?: TripVisibility) {
  return h.createTrip(ownerId, places, visibility ? { visibility } : {});
}

describe('GET /api/stats', () => {
  it('answers zeros for a traveller with no trip', async () => {
    const me = await h.register('Nobody Yet');
    expect(await ownStats(me)).toEqual({
      countryCount: 0,
      countries: [],
      continents: [],
      worldShare: 0,
      tripCount: 0,
      destinationCount: 0,
      daysTravelled: 0,
      distanceKm: 0,
    });
  });

  it('follows a trip created, edited (a destination moved to another country) and deleted', async () => {
    const me = await h.register('Ada Atlas');
    const created = await trip(me, [ROME, PARIS, OPEN_SEA]);
    const tripId = created.aggregateId;
    await untilCountries(() => ownStats(me), ['FR', 'IT']);
    // stored when the event was applied, in the destinations' order
    expect(await storedCountries(tripId)).toEqual(['IT', 'FR', null]);
    const first = await ownStats(me);
    expect(first).toMatchObject({
      countryCount: 2,
      countries: [
        { code: 'FR', name: 'France', firstVisited: '2026-05-01', destinations: 1 },
        { code: 'IT', name: 'Italy', firstVisited: '2026-05-01', destinations: 1 },
      ],
      continents: [{ name: 'Europe', countryCount: 2 }],
      worldShare: Number((2 / 195).toFixed(4)),
      tripCount: 1,
      destinationCount: 3,
      daysTravelled: 9,
    });
    expect(first.distanceKm).toBeGreaterThan(1000);

    // Paris moved to Tokyo
    const moved = destinationsOf(created).map((d, i) => (i === 1 ? { ...d, ...TOKYO } : d));
    await updateTrip(created, 2, moved);
    await untilCountries(() => ownStats(me), ['IT', 'JP']);
    expect(await storedCountries(tripId)).toEqual(['IT', 'JP', null]);
    expect((await ownStats(me)).continents).toEqual([
      { name: 'Asia', countryCount: 1 },
      { name: 'Europe', countryCount: 1 },
    ]);
    // a version not newer than the one held (a replay, a late update) changes nothing
    await updateTrip(created, 2, destinationsOf(created));
    const second = await trip(me, [LISBON]);
    await untilCountries(() => ownStats(me), ['IT', 'JP', 'PT']);
    expect(await storedCountries(tripId)).toEqual(['IT', 'JP', null]);

    await h.deleteTrip(me, tripId);
    await untilCountries(() => ownStats(me), ['PT']);
    expect(await storedCountries(tripId)).toBeNull();
    expect(await ownStats(me)).toMatchObject({ tripCount: 1, destinationCount: 1 });
    await h.deleteTrip(me, second.aggregateId);
    await untilCountries(() => ownStats(me), []);
  });

  it('counts the caller’s private trips in their own stats', async () => {
    const me = await h.register('Private Pat');
    await trip(me, [TOKYO], 'private');
    await untilCountries(() => ownStats(me), ['JP']);
  });

  it('needs the identity proof', async () => {
    const res = await h.rawApp.inject({ url: '/api/stats', headers: as('someone') });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/stats/friends/{friendId}', () => {
  it('answers a friend’s shared trips only, following privacy changes, with the shared countries', async () => {
    const me = await h.register('Me Stats');
    const friend = await h.register('Friend Stats');
    await h.befriend(me, friend);
    await trip(me, [ROME, TOKYO]);
    const shared = await trip(friend, [PARIS, ROME]);
    await trip(friend, [LISBON], 'private');
    await untilCountries(() => ownStats(friend), ['FR', 'IT', 'PT']);
    await untilCountries(() => ownStats(me), ['IT', 'JP']);

    const seen = await friendStats(me, friend);
    expect(codes(seen)).toEqual(['FR', 'IT']);
    expect(seen).toMatchObject({ tripCount: 1, destinationCount: 2, countryCount: 2 });
    expect(seen.sharedCountries).toEqual([{ code: 'IT', name: 'Italy' }]);
    // the other way round: the caller's own side counts their private trip
    expect((await friendStats(friend, me)).sharedCountries).toEqual([
      { code: 'IT', name: 'Italy' },
    ]);

    // the shared trip made private: gone from the friend's view, still in the owner's own
    await updateTrip(shared, 2, destinationsOf(shared), 'private');
    await untilCountries(() => friendStats(me, friend), []);
    expect((await friendStats(me, friend)).sharedCountries).toEqual([]);
    expect(codes(await ownStats(friend))).toEqual(['FR', 'IT', 'PT']);
    // and back to friends
    await updateTrip(shared, 3, destinationsOf(shared), 'friends');
    await untilCountries(() => friendStats(me, friend), ['FR', 'IT']);
  });

  it('answers the same 404 for a non-friend, an unknown id, oneself and a former friend', async () => {
    const me = await h.register('Lonely Stats');
    const stranger = await h.register('Stranger Stats');
    const former = await h.register('Former Stats');
    await trip(stranger, [PARIS]);
    await untilCountries(() => ownStats(stranger), ['FR']);
    await h.befriend(me, former);
    await friendStats(me, former);
    expect((await h.unfriend(me, former)).statusCode).toBe(200);
    const notFound = { error: 'not_found', message: StatsMessages.friendNotFound };
    for (const id of [stranger, crypto.randomUUID(), me, former]) {
      const res = await get(me, `/api/stats/friends/${enc(id)}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
  });

  it('refuses bad input with a 4xx and { error, message }', async () => {
    const me = await h.register('Bad Input Stats');
    for (const url of [
      `/api/stats/friends/${enc('a\u0000b')}`,
      `/api/stats/friends/${enc('x\u0007')}`,
      `/api/stats/friends/${'x'.repeat(150)}`,
      '/api/stats/friends/',
    ]) {
      const res = await get(me, url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(Object.keys(res.json()).sort(), url).toEqual(['error', 'message']);
    }
  });
});

describe('countries of trips stored before they were computed', () => {
  it('are found at read time until the backfill at start fills them', async () => {
    const me = await h.register('Old Rows');
    const created = await trip(me, [PARIS, TOKYO]);
    await untilCountries(() => ownStats(me), ['FR', 'JP']);
    await h.pool.query('UPDATE trips SET countries = NULL WHERE id = $1', [created.aggregateId]);
    // read meanwhile (no countries stored): found at read time, the same answer
    await untilCountries(() => ownStats(me), ['FR', 'JP']);
    expect(await backfillCountries(h.pool)).toBeGreaterThanOrEqual(1);
    expect(await storedCountries(created.aggregateId)).toEqual(['FR', 'JP']);
    expect(await backfillCountries(h.pool)).toBe(0);
  });
});
