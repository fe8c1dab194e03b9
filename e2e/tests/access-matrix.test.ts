import { describe, expect, it } from 'vitest';
import {
  type Friend,
  type FeedResponse,
  type ShareLink,
  type SharedTrip,
  ShareMessages,
  SharePaths,
  type Trip,
  type TripVisibility,
} from '@wayfarer/contracts';
import { befriend, json, register } from '../support/account';
import { api, type Account, type TripPlaces, tripForm } from '../support/api';

/**
 * The access matrix of trips, on the real stack through the gateway: every read of a trip, its
 * destinations, photos and journal, and friends' data, by every kind of reader (owner, friend,
 * stranger, anonymous, and anonymous holders of a live, a revoked and an expired share link),
 * for a `friends` trip and a `private` one. Each cell is what the reader gets (a status, or
 * whether the trip is in a list); the whole table must equal the one the issue describes, and
 * is printed so the note can show it.
 */

const poll = { timeout: 30_000, interval: 250 };

/** What one cell holds: an HTTP status, `listed` / `absent` for lists, `-` where it means nothing. */
type Cell = number | 'listed' | 'absent' | 'stories' | 'no stories' | '-';

interface Fixture {
  visibility: TripVisibility;
  trip: Trip;
  /** A destination with a journal and a photo. */
  destinationId: string;
  /** Its first photo URL as the owner sees it (`/api/photos/...`). */
  photo: string;
}

const readers = ['owner', 'friend', 'stranger', 'anonymous'] as const;
const linkReaders = ['link holder', 'revoked link', 'expired link'] as const;
type Reader = (typeof readers)[number] | (typeof linkReaders)[number];

const places: TripPlaces = [
  ['Lisbon, Portugal', '38.72', '-9.14', '2026-04-01', '2026-04-04'],
  ['Porto, Portugal', '41.15', '-8.61', '2026-04-05', '2026-04-07'],
];

async function createTrip(owner: Account, name: string, visibility: TripVisibility) {
  const form = tripForm(name, places, `The story of ${name}.`);
  form.append('visibility', visibility);
  const res = await api('/api/trips', owner, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  const trip = (await res.json()) as Trip;
  expect(trip.visibility).toBe(visibility);
  return trip;
}

async function createLink(owner: Account, tripId: string, body: object): Promise<ShareLink> {
  const res = await api(`/api/trips/${tripId}/share`, owner, { method: 'POST', ...json(body) });
  expect(res.status).toBe(201);
  return (await res.json()) as ShareLink;
}

const status = async (path: string, reader?: Account): Promise<number> => {
  const res = await api(path, reader);
  await res.arrayBuffer();
  return res.status;
};

/** The cells of one signed-in (or anonymous) reader for one trip. */
async function readerRow(f: Fixture, owner: Account, reader?: Account): Promise<Cell[]> {
  const tripId = f.trip._id;
  const mytrips = await api('/api/mytrips', reader);
  const mine =
    mytrips.status === 200
      ? ((await mytrips.json()) as Trip[]).some((t) => t._id === tripId)
        ? 'listed'
        : 'absent'
      : mytrips.status;
  const friends = await api('/api/friends', reader);
  const inFriends =
    friends.status === 200
      ? ((await friends.json()) as Friend[]).some((fr) => fr.trips.some((t) => t._id === tripId))
        ? 'listed'
        : 'absent'
      : friends.status;
  const feed = await api('/api/feed', reader);
  const inFeed =
    feed.status === 200
      ? ((await feed.json()) as FeedResponse).items.some((item) => item.trip._id === tripId)
        ? 'listed'
        : 'absent'
      : feed.status;
  return [
    await status(`/api/trips/${tripId}`, reader),
    mine,
    await status(f.photo, reader),
    await status(`/api/journal/${f.destinationId}`, reader),
    inFriends,
    await status(`/api/friends/${owner.userId}/destinations/${f.destinationId}`, reader),
    inFeed,
  ];
}

/** The cells of an anonymous visitor holding `token` (its photo URL taken while it lived). */
async function linkRow(token: string, photoUrl: string): Promise<Cell[]> {
  const res = await api(SharePaths.api(token));
  let page: Cell = res.status;
  if (res.status === 200) {
    const shared = (await res.json()) as SharedTrip;
    page = shared.destinations.some((d) => d.journal) ? 'stories' : 'no stories';
  } else {
    expect(((await res.json()) as { message: string }).message).toBe(ShareMessages.linkGone);
  }
  return [page, await status(photoUrl)];
}

const readerColumns = [
  'GET /api/trips/{id}',
  '/api/mytrips has it',
  'photo URL',
  'GET /api/journal/{dest}',
  '/api/friends has it',
  'GET /api/friends/{owner}/destinations/{dest}',
  '/api/feed has it',
];
const linkColumns = ['GET /api/shared/{token}', 'its photo URL'];

/** The rules, cell by cell. */
function expectedReaderRow(reader: (typeof readers)[number], v: TripVisibility): Cell[] {
  switch (reader) {
    case 'owner':
      // own trips are not in one's own friends' data or feed
      return [200, 'listed', 200, 200, 'absent', 404, 'absent'];
    case 'friend':
      return v === 'friends'
        ? [404, 'absent', 200, 200, 'listed', 200, 'listed']
        : [404, 'absent', 404, 404, 'absent', 404, 'absent'];
    case 'stranger':
      return [404, 'absent', 404, 404, 'absent', 404, 'absent'];
    case 'anonymous':
      return [401, 401, 401, 401, 401, 401, 401];
  }
}
function expectedLinkRow(reader: (typeof linkReaders)[number]): Cell[] {
  return reader === 'link holder' ? ['stories', 200] : [404, 404];
}

function printTable(title: string, columns: string[], rows: [Reader, Cell[]][]): string {
  const header = `| ${title} | ${columns.join(' | ')} |`;
  const rule = `|${' --- |'.repeat(columns.length + 1)}`;
  return [header, rule, ...rows.map(([r, cells]) => `| ${r} | ${cells.join(' | ')} |`)].join('\n');
}

describe('who sees a trip (the access matrix)', () => {
  it(
    'gives every reader exactly what the visibility and the links allow',
    { timeout: 240_000 },
    async () => {
      const owner = await register('Ada Owner');
      const friend = await register('Bob Friend');
      const stranger = await register('Cat Stranger');
      await befriend(owner, friend);

      const fixtures: Fixture[] = [];
      for (const visibility of ['friends', 'private'] as const) {
        const trip = await createTrip(owner, `A ${visibility} trip`, visibility);
        const destination = trip.destinations[0]!;
        // journal knows the destination once it consumed trip.created
        await expect
          .poll(async () => status(`/api/journal/${destination._id}`, owner), poll)
          .toBe(200);
        const saved = await api('/api/journal', owner, {
          method: 'POST',
          ...json({
            destinationId: destination._id,
            content: `Journal of the ${visibility} trip.`,
            date: new Date().toISOString(),
          }),
        });
        expect(saved.status).toBe(200);
        fixtures.push({
          visibility,
          trip,
          destinationId: destination._id,
          photo: destination.photos[0]!,
        });
      }
      const [open, closed] = fixtures as [Fixture, Fixture];
      // the projections caught up: the friend sees the friends trip (and so would see the
      // private one by now, were it leaking)
      await expect
        .poll(async () => {
          const res = await api('/api/friends', friend);
          const list = (await res.json()) as Friend[];
          return list.find((f) => f.id === owner.userId)?.trips.map((t) => t._id);
        }, poll)
        .toEqual([open.trip._id]);

      const tables: string[] = [];
      for (const f of fixtures) {
        // links: one revoked, one expired, then the live one (one live link per trip)
        const revoked = await createLink(owner, f.trip._id, { includeStories: true });
        const revokedRead = (await (await api(SharePaths.api(revoked.token))).json()) as SharedTrip;
        const revokedPhoto = revokedRead.destinations[0]!.photos[0]!;
        expect(await status(revokedPhoto)).toBe(200);
        expect(
          (await api(`/api/trips/${f.trip._id}/share`, owner, { method: 'DELETE' })).status,
        ).toBe(200);

        const expiring = await createLink(owner, f.trip._id, {
          includeStories: true,
          expiresAt: new Date(Date.now() + 8_000).toISOString(),
        });
        const expiringRead = await api(SharePaths.api(expiring.token));
        expect(expiringRead.status).toBe(200);
        const expiringPhoto = ((await expiringRead.json()) as SharedTrip).destinations[0]!
          .photos[0]!;
        expect(await status(expiringPhoto)).toBe(200);
        await expect
          .poll(async () => status(SharePaths.api(expiring.token)), { ...poll, timeout: 60_000 })
          .toBe(404);

        const live = await createLink(owner, f.trip._id, { includeStories: true });
        expect(live.url).toBe(SharePaths.page(live.token));
        // the journal text reaches the link once trips consumed journal.saved
        await expect
          .poll(async () => {
            const res = await api(SharePaths.api(live.token));
            const shared = (await res.json()) as SharedTrip;
            return shared.destinations.find((d) => d._id === f.destinationId)?.journal;
          }, poll)
          .toBe(`Journal of the ${f.visibility} trip.`);
        const liveRead = (await (await api(SharePaths.api(live.token))).json()) as SharedTrip;
        const livePhoto = liveRead.destinations[0]!.photos[0]!;
        // a visitor never gets the owner's id, email or the trip's id
        const text = JSON.stringify(liveRead);
        expect(text).not.toContain(owner.userId);
        expect(text).not.toContain(owner.email);
        expect(text).not.toContain(f.trip._id);

        const rows: [Reader, Cell[]][] = [];
        const expected: [Reader, Cell[]][] = [];
        const as: Record<(typeof readers)[number], Account | undefined> = {
          owner,
          friend,
          stranger,
          anonymous: undefined,
        };
        for (const reader of readers) {
          rows.push([reader, await readerRow(f, owner, as[reader])]);
          expected.push([reader, expectedReaderRow(reader, f.visibility)]);
        }
        const linkRows: [Reader, Cell[]][] = [
          ['link holder', await linkRow(live.token, livePhoto)],
          ['revoked link', await linkRow(revoked.token, revokedPhoto)],
          ['expired link', await linkRow(expiring.token, expiringPhoto)],
        ];
        const expectedLinks: [Reader, Cell[]][] = linkReaders.map((r) => [r, expectedLinkRow(r)]);
        tables.push(
          printTable(`${f.visibility} trip`, readerColumns, rows),
          printTable(`${f.visibility} trip, by link`, linkColumns, linkRows),
        );
        expect({ rows, linkRows }).toEqual({ rows: expected, linkRows: expectedLinks });

        // a link without stories shows none; a photo of another trip is not served through it
        const plain = await createLink(owner, f.trip._id, { includeStories: false });
        const plainRead = (await (await api(SharePaths.api(plain.token))).json()) as SharedTrip;
        expect(plainRead.includeStories).toBe(false);
        expect(plainRead.destinations.every((d) => d.story === undefined && !d.journal)).toBe(true);
        const other = f === open ? closed : open;
        const foreignPhotoId = other.photo.split('?')[0]!.split('/').at(-1)!;
        expect(await status(SharePaths.photo(plain.token, foreignPhotoId))).toBe(404);
        // the replaced live token is dead too
        expect(await status(SharePaths.api(live.token))).toBe(404);
      }
      console.log(`\nAccess matrix:\n\n${tables.join('\n\n')}\n`);
    },
  );
});
