import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FeedResponse,
  makeEvent,
  SocialLimits,
  SocialMessages,
  Topics,
  TripCreated,
  TripUpdated,
  type EventEnvelope,
  type TripVisibility,
} from '@wayfarer/contracts';
import { uniqueSuffix } from '@wayfarer/test-kit';
import { as, waitOptions, type Harness, socialPerFile } from './harness';

// GET /api/feed, friends' shared trips newest first, from social's read model as its
// consumers write it (trips' events through Kafka), keyset-paged

let h: Harness;
socialPerFile((harness) => (h = harness));

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
/** The instant `minutes` after T0, ISO 8601 (the feed's `createdAt` format). */
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

interface TripSpec {
  id: string;
  minutes: number;
  visibility?: TripVisibility;
  photos?: string[][];
}

/** Publishes `trip.created` as trips does, created at `at(minutes)` (the event's time). */
async function createTrip(ownerId: string, spec: TripSpec): Promise<EventEnvelope> {
  const photos = spec.photos ?? [[]];
  const event = makeEvent(TripCreated, spec.id, {
    tripId: spec.id,
    ownerId,
    name: `Trip ${spec.id}`,
    startDate: '2026-05-01',
    endDate: '2026-05-09',
    destinations: photos.map((p, i) => ({
      id: `${spec.id}-d${i}`,
      name: `Stop ${i}`,
      latitude: 10 + i,
      longitude: 20 + i,
      startDate: '2026-05-01',
      endDate: '2026-05-03',
      photos: p,
      storyPreview: 'A story...',
    })),
    ...(spec.visibility ? { visibility: spec.visibility } : {}),
  }) as EventEnvelope;
  const timed = { ...event, occurredAt: at(spec.minutes) };
  await h.publishEnvelope(Topics.tripsTrip, timed);
  return timed;
}

/** Waits until social's trips consumer has written every one of `ids`. */
async function stored(ids: string[]) {
  await vi.waitFor(async () => {
    const { rows } = await h.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM trips WHERE id = ANY($1)',
      [ids],
    );
    expect(rows[0]!.n).toBe(ids.length);
  }, waitOptions);
}

const get = (userId: string, query = '') =>
  h.app.inject({ url: `/api/feed${query}`, headers: as(userId) });

async function feed(userId: string, query = '') {
  const res = await get(userId, query);
  expect(res.statusCode, res.body).toBe(200);
  return FeedResponse.parse(res.json());
}

const tripIds = (page: FeedResponse) => page.items.map((i) => i.trip._id);

/** Every page, following nextCursor; the ids and the page sizes. */
async function allPages(userId: string, limit: number) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await feed(
      userId,
      `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    ids.push(...tripIds(page));
    sizes.push(page.items.length);
    cursor = page.nextCursor;
  } while (cursor !== null && sizes.length < 20);
  return { ids, sizes };
}

describe('GET /api/feed', () => {
  it("lists friends' shared trips newest first, never a private one nor a non-friend's", async () => {
    const [me, ann, bob, eve, pat] = await Promise.all([
      h.register('Me'),
      h.register('Ann'),
      h.register('Bob'),
      h.register('Eve'),
      h.register('Pat'),
    ]);
    await h.befriend(me, ann);
    await h.befriend(me, bob);
    // Pat asked and was not answered: not a friend
    expect((await h.addFriend(pat, me)).statusCode).toBe(200);
    const run = uniqueSuffix();
    const id = (n: number) => `feed-${run}-${n}`;
    await createTrip(ann, {
      id: id(1),
      minutes: 1,
      photos: [[], ['/api/photos/a/first.webp', '/api/photos/a/second.webp'], ['/api/photos/a/x']],
    });
    await createTrip(bob, { id: id(2), minutes: 2 });
    await createTrip(ann, { id: id(3), minutes: 3, visibility: 'private' });
    await createTrip(bob, { id: id(4), minutes: 4, visibility: 'friends' });
    await createTrip(ann, { id: id(5), minutes: 5 });
    await createTrip(eve, { id: id(6), minutes: 6 }); // a stranger
    await createTrip(pat, { id: id(7), minutes: 7 }); // asked, not a friend
    await createTrip(me, { id: id(8), minutes: 8 }); // the caller's own
    await stored([1, 2, 3, 4, 5, 6, 7, 8].map(id));

    const page = await feed(me);
    expect(tripIds(page)).toEqual([id(5), id(4), id(2), id(1)]);
    expect(page.nextCursor).toBeNull();
    expect(page.items[3]).toEqual({
      friend: { id: ann, name: 'Ann', picture: `/api/avatars/${ann}/a.webp` },
      trip: { _id: id(1), name: `Trip ${id(1)}`, startDate: '2026-05-01', endDate: '2026-05-09' },
      destinations: [0, 1, 2].map((i) => ({
        _id: `${id(1)}-d${i}`,
        name: `Stop ${i}`,
        latitude: 10 + i,
        longitude: 20 + i,
        startDate: '2026-05-01',
        endDate: '2026-05-03',
      })),
      // the first photo of the first destination that has one
      firstPhoto: '/api/photos/a/first.webp',
      createdAt: at(1),
    });
    expect(page.items[0]!.firstPhoto).toBeNull();
    expect(page.items[1]!.friend.id).toBe(bob);

    // each sees only their own friends' trips
    expect(tripIds(await feed(ann))).toEqual([id(8)]);
    expect(tripIds(await feed(eve))).toEqual([]);
    expect(tripIds(await feed(pat))).toEqual([]);
  });

  it('follows changes: made private leaves, shared again returns in its place; deleted or unfriended leaves', async () => {
    const [me, ann, bob] = await Promise.all([
      h.register('Me'),
      h.register('Ann'),
      h.register('Bob'),
    ]);
    await h.befriend(me, ann);
    await h.befriend(me, bob);
    const run = uniqueSuffix();
    const id = (n: number) => `feedchg-${run}-${n}`;
    const created = await createTrip(ann, { id: id(1), minutes: 1 });
    await createTrip(bob, { id: id(2), minutes: 2 });
    await createTrip(ann, { id: id(3), minutes: 3 });
    await stored([1, 2, 3].map(id));
    expect(tripIds(await feed(me))).toEqual([id(3), id(2), id(1)]);

    const update = async (version: number, visibility: TripVisibility) => {
      const payload = created.payload as { destinations: unknown[] };
      await h.publishEnvelope(
        Topics.tripsTrip,
        makeEvent(TripUpdated, id(1), {
          tripId: id(1),
          ownerId: ann,
          version,
          name: 'Renamed',
          startDate: '2026-05-01',
          endDate: '2026-05-09',
          destinations: payload.destinations as never,
          addedDestinationIds: [],
          movedDestinationIds: [],
          removedDestinationIds: [],
          visibility,
        }) as EventEnvelope,
      );
    };
    await update(2, 'private');
    await vi.waitFor(
      async () => expect(tripIds(await feed(me))).toEqual([id(3), id(2)]),
      waitOptions,
    );
    await update(3, 'friends');
    const back = await vi.waitFor(async () => {
      const page = await feed(me);
      expect(tripIds(page)).toEqual([id(3), id(2), id(1)]);
      return page;
    }, waitOptions);
    expect(back.items[2]).toMatchObject({ trip: { name: 'Renamed' }, createdAt: at(1) });

    await h.deleteTrip(ann, id(3));
    await vi.waitFor(
      async () => expect(tripIds(await feed(me))).toEqual([id(2), id(1)]),
      waitOptions,
    );
    expect((await h.unfriend(me, bob)).statusCode).toBe(200);
    await vi.waitFor(async () => expect(tripIds(await feed(me))).toEqual([id(1)]), waitOptions);
    expect(tripIds(await feed(bob))).toEqual([]);
  });
});

describe('GET /api/feed paging', () => {
  let me: string;
  let expected: string[];

  beforeAll(async () => {
    const [caller, ann, bob] = await Promise.all([
      h.register('Me'),
      h.register('Ann'),
      h.register('Bob'),
    ]);
    me = caller;
    await h.befriend(me, ann);
    await h.befriend(me, bob);
    const run = uniqueSuffix();
    const specs: { owner: string; spec: TripSpec }[] = [];
    for (let i = 0; i < 26; i += 1) {
      specs.push({
        owner: i % 2 ? ann : bob,
        spec: {
          // same-width ids that differ in their digits only: they order alike everywhere
          id: `pg-${run}-${String(i).padStart(2, '0')}`,
          // trips 10 to 17 share one instant, across both friends: the id breaks the tie
          minutes: i >= 10 && i <= 17 ? 10 : i,
          visibility: i % 7 === 3 ? 'private' : undefined,
        },
      });
    }
    for (const { owner, spec } of specs) await createTrip(owner, spec);
    await stored(specs.map((s) => s.spec.id));
    expected = specs
      .filter((s) => s.spec.visibility !== 'private')
      .sort((a, b) => b.spec.minutes - a.spec.minutes || (a.spec.id < b.spec.id ? 1 : -1))
      .map((s) => s.spec.id);
  });

  it('without parameters answers the first feedPageDefault trips and a cursor', async () => {
    const page = await feed(me);
    expect(tripIds(page)).toEqual(expected.slice(0, SocialLimits.feedPageDefault));
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('following the cursors lists each shared trip once, in order, ties across friends too', async () => {
    expect(expected).toHaveLength(22);
    const pages = await allPages(me, 5);
    expect(pages.ids).toEqual(expected);
    expect(pages.sizes).toEqual([5, 5, 5, 5, 2]);
    // a page ending exactly at the end has no cursor
    expect((await allPages(me, 11)).sizes).toEqual([11, 11]);
    expect((await allPages(me, SocialLimits.feedPageMax)).ids).toEqual(expected);
  });

  it('a cursor pages only the caller’s own friends', async () => {
    const first = await feed(me, '?limit=3');
    const stranger = await feed(`stranger-${uniqueSuffix()}`, `?cursor=${first.nextCursor}`);
    expect(stranger).toEqual({ items: [], nextCursor: null });
  });

  it('refuses a bad limit or a cursor it did not make with 400 and a message', async () => {
    for (const limit of ['0', '-1', String(SocialLimits.feedPageMax + 1), 'x', '2.5', '']) {
      const res = await get(me, `?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json<{ message: string }>().message, limit).toContain(SocialMessages.badFeedLimit);
    }
    for (const cursor of ['nope', '123', 'x'.repeat(300)]) {
      const res = await get(me, `?cursor=${cursor}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json()).toMatchObject({
        error: expect.any(String),
        message: SocialMessages.badFeedCursor,
      });
    }
    expect((await get('', '')).statusCode).toBe(401);
  });
});
