import type { LightMyRequestResponse } from 'fastify';
import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  JournalSaved,
  makeEvent,
  SHARE_TOKEN_PATTERN,
  ShareLimits,
  ShareLink,
  ShareMessages,
  SharePaths,
  SharedTrip,
  Topics,
  tripETag,
  UserDeleted,
  type EventEnvelope,
  type Trip,
} from '@wayfarer/contracts';
import { createProducer } from '@wayfarer/service-kit';
import { testKafka } from '@wayfarer/test-kit';
import { JOURNAL_STORIES_CONSUMER } from '../../src/events/consumers';
import { png } from '../fixtures';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

// share links (owner's API, the public reads under a link, their one check) and the
// journal texts trips keeps for links that include stories

let h: Harness;
let producer: Producer;
let image: Buffer;
beforeAll(async () => {
  h = await startTrips();
  producer = createProducer(testKafka());
  await producer.connect();
  image = await png(64, 48);
});
afterAll(async () => {
  await producer?.disconnect();
  await h?.close();
});

/** The trip's stored document (its link in `share`, its journal texts in `stories`). */
const storedTrip = (tripId: string) =>
  h.db.collection('trips').findOne({ _id: tripId as never }, { projection: { outbox: 0 } });
/** The destination ids the trip keeps a journal text for. */
const storiesOf = async (tripId: string) => Object.keys((await storedTrip(tripId))?.stories ?? {});

const LINK_GONE = { error: 'not_found', message: ShareMessages.linkGone };
const NO_LINK = { error: 'not_found', message: ShareMessages.noLink };

/** A trip of two destinations (Oslo with two photos, Bergen with none), variants made. */
async function createTrip(owner: string, visibility = 'private'): Promise<Trip> {
  const fields = tripFields({ name: 'North', startDate: '2026-06-01', endDate: '2026-06-20' }, [
    { name: 'Oslo', latitude: '59.91', longitude: '10.75', story: 'Fjords and rain.' },
    { name: 'Bergen', latitude: '60.39', longitude: '5.32', story: 'Fish market.' },
  ]);
  fields.push(['visibility', visibility]);
  const res = await postTrip(h.app, owner, fields, [
    { field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' },
    { field: 'photos[0]', data: image, filename: 'b.png', type: 'image/png' },
  ]);
  expect(res.statusCode, res.body).toBe(201);
  await h.variants.idle();
  return (await ownerGet(owner, `/api/trips/${res.json<Trip>()._id}`)).json<Trip>();
}

const ownerGet = (user: string, url: string) => h.app.inject({ url, headers: as(user) });
/** As the gateway forwards a public route: a proof naming no user. */
const anonymous = (url: string) => h.app.inject({ url });

const share = (owner: string, tripId: string, body?: unknown) =>
  h.app.inject({
    method: 'POST',
    url: `/api/trips/${tripId}/share`,
    headers: as(owner),
    ...(body === undefined ? {} : { payload: body as object }),
  });
const shareOf = (owner: string, tripId: string) => ownerGet(owner, `/api/trips/${tripId}/share`);
const revoke = (owner: string, tripId: string) =>
  h.app.inject({ method: 'DELETE', url: `/api/trips/${tripId}/share`, headers: as(owner) });

function expectGone(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual(LINK_GONE);
  expect(res.headers['x-robots-tag']).toBe('noindex');
}

async function publishJournal(event: EventEnvelope) {
  await producer.send({
    topic: event.type === 'user.deleted' ? Topics.authUser : Topics.journalEntry,
    messages: [{ key: event.aggregateId, value: JSON.stringify(event) }],
  });
}

/** Publishes `event` and waits until trips' journal-text consumer has applied it (its marker). */
async function applied(event: EventEnvelope) {
  await publishJournal(event);
  const markers = h.db.collection('processed_events');
  await vi.waitFor(
    async () =>
      expect(
        await markers.findOne({ _id: `${JOURNAL_STORIES_CONSUMER}:${event.id}` as never }),
      ).not.toBeNull(),
    { timeout: 30_000, interval: 50 },
  );
}

const saved = (
  destinationId: string,
  ownerId: string,
  content: string | undefined,
  at: Date,
): EventEnvelope =>
  makeEvent(
    JournalSaved,
    destinationId,
    {
      destinationId,
      ownerId,
      date: at.toISOString(),
      ...(content === undefined ? {} : { content }),
    },
    at,
  );

describe('share links', () => {
  it('create, read as anonymous (trip, photos), replace, revoke', async () => {
    const owner = newUserId();
    const trip = await createTrip(owner);
    const [oslo, bergen] = trip.destinations as [Trip['destinations'][0], Trip['destinations'][0]];
    expect(await shareOf(owner, trip._id).then((r) => [r.statusCode, r.json()])).toEqual([
      404,
      NO_LINK,
    ]);

    // a private trip can be shown by a link: links are the owner's choice, not friends'
    const listVersion = await h.trips.listVersion(owner);
    const created = await share(owner, trip._id);
    expect(created.statusCode, created.body).toBe(201);
    const link = ShareLink.parse(created.json());
    expect(link.token).toMatch(SHARE_TOKEN_PATTERN);
    expect(link).toMatchObject({
      url: SharePaths.page(link.token),
      expiresAt: null,
      includeStories: false,
      allowIndexing: false,
    });
    expect((await shareOf(owner, trip._id)).json()).toEqual(link);
    // stored in the trip as its hash beside it, never found by the token itself
    const doc = await storedTrip(trip._id);
    expect(doc!.share).toMatchObject({ token: link.token });
    expect(doc!.share.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    // not part of the owner's trip: neither its JSON nor its version change
    const own = await ownerGet(owner, `/api/trips/${trip._id}`);
    expect([own.headers.etag, own.json()]).toEqual([tripETag(1), trip]);
    expect(await h.trips.listVersion(owner)).toBe(listVersion);

    const res = await anonymous(SharePaths.api(link.token));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const shared = SharedTrip.parse(res.json());
    expect(shared).toEqual({
      name: 'North',
      startDate: '2026-06-01',
      endDate: '2026-06-20',
      includeStories: false,
      allowIndexing: false,
      expiresAt: null,
      destinations: [oslo, bergen].map((d) => ({
        _id: d._id,
        name: d.name,
        latitude: d.latitude,
        longitude: d.longitude,
        startDate: d.startDate,
        endDate: d.endDate,
        photos: d.photos.map((url) => SharePaths.photo(link.token, url.split('/').pop()!)),
      })),
    });
    // nothing of the owner, the trip's id or the stories
    for (const secret of [owner, trip._id, 'Fjords', '/api/photos/']) {
      expect(res.body).not.toContain(secret);
    }

    // its photos: the owner's bytes, kept by no one for long
    const photoUrl = shared.destinations[0]!.photos[0]!;
    const photo = await anonymous(photoUrl);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.headers['cache-control']).toBe('private, no-cache');
    expect(photo.headers['x-robots-tag']).toBe('noindex');
    expect(photo.rawPayload).toEqual((await ownerGet(owner, oslo.photos[0]!)).rawPayload);
    // someone signed in (not a friend) holding the link sees it too
    expect((await ownerGet(newUserId(), photoUrl)).statusCode).toBe(200);

    // created again: a new token, the old one and its photo URLs dead at once
    const again = await share(owner, trip._id, { includeStories: true });
    expect(again.statusCode).toBe(201);
    const second = ShareLink.parse(again.json());
    expect(second.token).not.toBe(link.token);
    expectGone(await anonymous(SharePaths.api(link.token)));
    expectGone(await anonymous(photoUrl));
    expect((await shareOf(owner, trip._id)).json()).toEqual(second);
    const withStories = SharedTrip.parse((await anonymous(SharePaths.api(second.token))).json());
    expect(withStories.includeStories).toBe(true);
    expect(withStories.destinations.map((d) => [d.story, d.journal])).toEqual([
      ['Fjords and rain.', ''],
      ['Fish market.', ''],
    ]);

    // revoked: the link, its photos and the owner's view of it all gone
    const revoked = await revoke(owner, trip._id);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ message: ShareMessages.revoked });
    expectGone(await anonymous(SharePaths.api(second.token)));
    expectGone(await anonymous(SharePaths.photo(second.token, photoUrl.split('/').pop()!)));
    expect((await shareOf(owner, trip._id)).json()).toEqual(NO_LINK);
    expect((await revoke(owner, trip._id)).json()).toEqual(NO_LINK);
  });

  it('the same 404 for a malformed, unknown or expired token, and for a photo of another trip', async () => {
    const owner = newUserId();
    const trip = await createTrip(owner, 'friends');
    const other = await createTrip(owner);
    const link = ShareLink.parse((await share(owner, trip._id)).json());
    const otherPhotoId = other.destinations[0]!.photos[0]!.split('/').pop()!;
    const ownPhotoId = trip.destinations[0]!.photos[0]!.split('/').pop()!;

    for (const token of ['x', `${link.token}A`, link.token.replace(/^./, '!'), '..%2F..']) {
      expectGone(await anonymous(SharePaths.api(token)));
    }
    const unknown = Buffer.alloc(32, 7).toString('base64url');
    expectGone(await anonymous(SharePaths.api(unknown)));
    expectGone(await anonymous(SharePaths.photo(unknown, ownPhotoId)));
    // a valid link does not open another trip's photos, nor ids of any other shape
    expectGone(await anonymous(SharePaths.photo(link.token, otherPhotoId)));
    expectGone(await anonymous(SharePaths.photo(link.token, 'not-a-photo')));
    expect((await anonymous(SharePaths.photo(link.token, ownPhotoId))).statusCode).toBe(200);

    // expired (set in the past in the store: no waiting)
    await h.db
      .collection('trips')
      .updateOne(
        { _id: trip._id as never },
        { $set: { 'share.expiresAt': new Date(Date.now() - 1000) } },
      );
    expectGone(await anonymous(SharePaths.api(link.token)));
    expectGone(await anonymous(SharePaths.photo(link.token, ownPhotoId)));
    expect((await shareOf(owner, trip._id)).json()).toEqual(NO_LINK);
    // revoking an expired link: none was live
    expect((await revoke(owner, trip._id)).statusCode).toBe(404);
    expect((await storedTrip(trip._id))!.share).toBeUndefined();
  });

  it('bad input is a 4xx and changes nothing; only the owner manages a link', async () => {
    const owner = newUserId();
    const trip = await createTrip(owner);
    const link = ShareLink.parse((await share(owner, trip._id)).json());
    const day = 24 * 60 * 60 * 1000;
    const later = new Date(Date.now() + 30 * day).toISOString();

    const cases: [unknown, string | RegExp][] = [
      [{ expiresAt: new Date(Date.now() - 60_000).toISOString() }, ShareMessages.expiryInPast],
      [
        { expiresAt: new Date(Date.now() + (ShareLimits.maxExpiryDays + 1) * day).toISOString() },
        ShareMessages.expiryTooFar,
      ],
      [{ expiresAt: 'tomorrow' }, /^expiresAt: /],
      [{ includeStories: 'yes' }, /^includeStories: /],
      [{ owner: 'me' }, /owner/],
    ];
    for (const [body, message] of cases) {
      const res = await share(owner, trip._id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    // someone else, a friend or not: 404 as for an unknown trip; the owner's link unchanged
    const stranger = newUserId();
    expect((await share(stranger, trip._id)).statusCode).toBe(404);
    expect((await shareOf(stranger, trip._id)).statusCode).toBe(404);
    expect((await revoke(stranger, trip._id)).statusCode).toBe(404);
    expect((await share(owner, 'f'.repeat(24))).statusCode).toBe(404);
    expect((await shareOf(owner, trip._id)).json()).toEqual(link);
    expect((await anonymous(SharePaths.api(link.token))).statusCode).toBe(200);

    // an expiry within the limit is kept and shown to visitors
    const dated = ShareLink.parse((await share(owner, trip._id, { expiresAt: later })).json());
    expect(dated.expiresAt).toBe(later);
    const shared = SharedTrip.parse((await anonymous(SharePaths.api(dated.token))).json());
    expect(shared.expiresAt).toBe(later);
    // the public routes need no session, but still the gateway's proof
    const unproven = await h.app.inject({
      url: SharePaths.api(dated.token),
      headers: { 'x-identity-proof': 'v1.1.x' },
    });
    expect(unproven.statusCode).toBe(401);
  });
});

describe('journal texts for links that include stories (journal.saved)', () => {
  it('a saved text shows under the link; older, empty-less and foreign events change nothing; gone with the destination, the trip and the user', async () => {
    const owner = newUserId();
    const trip = await createTrip(owner);
    const [oslo, bergen] = trip.destinations.map((d) => d._id) as [string, string];
    const link = ShareLink.parse((await share(owner, trip._id, { includeStories: true })).json());
    const journals = async () =>
      SharedTrip.parse((await anonymous(SharePaths.api(link.token))).json()).destinations.map(
        (d) => d.journal,
      );

    const t0 = new Date(Date.now() - 60_000);
    await publishJournal(saved(oslo, owner, 'Day one in Oslo.', t0));
    await vi.waitFor(async () => expect(await journals()).toEqual(['Day one in Oslo.', '']), {
      timeout: 30_000,
      interval: 100,
    });

    // a newer save, then an older one arriving late, one without its text, one naming another
    // owner: only the newer one counts (each waited for until trips has applied it)
    await applied(saved(oslo, owner, 'Day two in Oslo.', new Date(t0.getTime() + 2000)));
    await applied(saved(oslo, owner, 'stale', new Date(t0.getTime() + 1000)));
    await applied(saved(oslo, owner, undefined, new Date(t0.getTime() + 3000)));
    await applied(saved(bergen, newUserId(), 'not yours', new Date()));
    expect(await journals()).toEqual(['Day two in Oslo.', '']);
    await applied(saved(bergen, owner, 'Bergen.', new Date(t0.getTime() + 4000)));
    expect(await journals()).toEqual(['Day two in Oslo.', 'Bergen.']);
    expect(await storiesOf(trip._id)).toEqual([oslo, bergen]);

    // a link without stories shows neither
    const plain = ShareLink.parse((await share(owner, trip._id)).json());
    const shown = SharedTrip.parse((await anonymous(SharePaths.api(plain.token))).json());
    expect(shown.destinations.every((d) => !('journal' in d) && !('story' in d))).toBe(true);

    // an edit removing Bergen removes its text
    const edit = await h.app.inject({
      method: 'PATCH',
      url: `/api/trips/${trip._id}`,
      headers: { ...as(owner), 'if-match': tripETag(1) },
      payload: { destinations: [{ _id: oslo }] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await storiesOf(trip._id)).toEqual([oslo]);

    // deleting the trip removes its link and texts
    const del = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(owner),
    });
    expect(del.statusCode).toBe(200);
    expectGone(await anonymous(SharePaths.api(plain.token)));
    // in the delete's own update (the document itself goes once the relay sent trip.deleted)
    const deleted = await storedTrip(trip._id);
    expect([deleted?.share, deleted?.stories]).toEqual([undefined, undefined]);
    // a text arriving for the deleted trip's destination is not kept
    await applied(saved(oslo, owner, 'late', new Date()));
    expect(await storiesOf(trip._id)).toEqual([]);

    // user.deleted: every link and text of the user goes
    const other = await createTrip(owner);
    const kept = ShareLink.parse((await share(owner, other._id)).json());
    await publishJournal(saved(other.destinations[0]!._id, owner, 'Again.', new Date()));
    await vi.waitFor(
      async () => expect(await storiesOf(other._id)).toEqual([other.destinations[0]!._id]),
      { timeout: 30_000, interval: 100 },
    );
    await publishJournal(makeEvent(UserDeleted, owner, { userId: owner }));
    await vi.waitFor(
      async () => {
        const erased = await storedTrip(other._id);
        expect(
          erased === null || (erased.deletedAt !== null && !erased.share && !erased.stories),
        ).toBe(true);
      },
      { timeout: 30_000, interval: 100 },
    );
    expectGone(await anonymous(SharePaths.api(kept.token)));
  });
});
