import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  isPendingPhotoUrl,
  TRIP_PHOTOS_FIELD,
  TripDateMessages,
  TripEditErrors,
  TripEditMessages,
  TripLimits,
  Topics,
  tripETag,
  type Trip,
  type TripPatch,
} from '@wayfarer/contracts';
import { readTopicToEnd } from '@wayfarer/test-kit';
import { Messages } from '../../src/domain/limits';
import { png, TEXT } from '../fixtures';
import {
  as,
  multipart,
  newUserId,
  postTrip,
  startTrips,
  tripFields,
  type FilePart,
  type Harness,
} from './harness';

let h: Harness;
let image: Buffer;

beforeAll(async () => {
  h = await startTrips();
  image = await png(64, 48);
});

afterAll(async () => {
  await h?.close();
});

const photo = (name = 'p.png'): FilePart => ({
  field: TRIP_PHOTOS_FIELD,
  data: image,
  filename: name,
  type: 'image/png',
});

const get = (owner: string, id: string) =>
  h.app.inject({ url: `/api/trips/${id}`, headers: as(owner) });

/** A trip of three destinations (Oslo with two photos, Bergen with one, Tromsø with none). */
async function createTrip(owner: string): Promise<{ trip: Trip; etag: string }> {
  const res = await postTrip(
    h.app,
    owner,
    tripFields({ name: 'North', startDate: '2026-06-01', endDate: '2026-06-20' }, [
      { name: 'Oslo', latitude: '59.91', longitude: '10.75', story: 'Fjord' },
      { name: 'Bergen', latitude: '60.39', longitude: '5.32' },
      { name: 'Tromsø', latitude: '69.65', longitude: '18.96' },
    ]),
    [
      { field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' },
      { field: 'photos[0]', data: image, filename: 'b.png', type: 'image/png' },
      { field: 'photos[1]', data: image, filename: 'c.png', type: 'image/png' },
    ],
  );
  expect(res.statusCode, res.body).toBe(201);
  expect(res.headers.etag).toBe(tripETag(1));
  await h.variants.idle();
  // as the edit screen has it: the variants made (plain photo URLs), the version unchanged
  const made = await get(owner, res.json<Trip>()._id);
  expect(made.headers.etag).toBe(tripETag(1));
  return { trip: made.json<Trip>(), etag: made.headers.etag as string };
}

const patch = (owner: string, id: string, body: TripPatch | string, ifMatch?: string) =>
  h.app.inject({
    method: 'PATCH',
    url: `/api/trips/${id}`,
    headers: {
      ...as(owner),
      'content-type': 'application/json',
      ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function addPhotos(
  owner: string,
  tripId: string,
  destinationId: string,
  files: FilePart[],
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = await multipart([], files);
  return h.app.inject({
    method: 'POST',
    url: `/api/trips/${tripId}/destinations/${destinationId}/photos`,
    payload: body.payload,
    headers: { ...body.headers, ...as(owner), ...headers },
  });
}

const removePhoto = (owner: string, url: string, ifMatch: string) =>
  h.app.inject({ method: 'DELETE', url, headers: { ...as(owner), 'if-match': ifMatch } });

/** The photo id of a photo URL (`/api/photos/<trip>/<photo>[?pending=1]`). */
const photoIdOf = (url: string) => url.split('?')[0]!.split('/').pop()!;

/** The bucket's objects under a trip (every variant of every photo). */
const objectsOf = (tripId: string) => h.photos.list(`${tripId}/`);

/** A trip's stored version and outbox state (what a refused request must leave as it was). */
async function stored(tripId: string) {
  const doc = await h.trips.collection.findOne({ _id: tripId });
  return { version: doc?.version, name: doc?.name, destinations: doc?.destinations };
}

interface Envelope {
  id: string;
  type: string;
  aggregateId: string;
  payload: Record<string, unknown> & { version?: number };
}

/** The trip's events once its outbox is empty (each once: the relay sends at least once). */
async function eventsOf(tripId: string): Promise<Envelope[]> {
  await expect
    .poll(() => h.trips.collection.countDocuments({ _id: tripId, outboxPending: true }), {
      message: 'the relay to publish the trip’s events',
      timeout: 20_000,
    })
    .toBe(0);
  const seen = new Set<string>();
  return (await readTopicToEnd(Topics.tripsTrip))
    .map((m) => m.json as Envelope | null)
    .filter((e): e is Envelope => e?.aggregateId === tripId && !seen.has(e.id) && !!seen.add(e.id));
}

describe('the trip version', () => {
  it('is the ETag of GET /api/trips/{id} and of the create', async () => {
    const owner = newUserId();
    const { trip } = await createTrip(owner);
    const res = await get(owner, trip._id);
    expect(res.headers.etag).toBe('"1"');
  });
});

describe('PATCH /api/trips/{id}', () => {
  it('each edit: rename, dates, a destination changed, added, removed, reordered; one trip.updated each', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const [oslo, bergen, tromso] = trip.destinations as [
      Trip['destinations'][number],
      Trip['destinations'][number],
      Trip['destinations'][number],
    ];
    const objectsBefore = await objectsOf(trip._id);
    expect(objectsBefore).toHaveLength(6); // 3 photos x (original, display)

    // rename
    const renamed = await patch(owner, trip._id, { name: '  Far North ' }, etag);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.headers.etag).toBe('"2"');
    expect(renamed.json<Trip>()).toEqual({ ...trip, name: 'Far North' });
    // the owner's list shows it at once (its cached body is out of date)
    const list = await h.app.inject({ url: '/api/mytrips', headers: as(owner) });
    expect(list.json<Trip[]>()[0]!.name).toBe('Far North');

    // dates (the trip's; a destination keeps its own)
    const dated = await patch(
      owner,
      trip._id,
      { startDate: '2026-05-30', endDate: '2026-06-21' },
      '"2"',
    );
    expect(dated.statusCode, dated.body).toBe(200);
    expect(dated.json<Trip>()).toMatchObject({ startDate: '2026-05-30', endDate: '2026-06-21' });
    expect(dated.json<Trip>().destinations[0]!.startDate).toBe(oslo.startDate);

    // a destination changed: name, place, dates, story (its photos stay)
    const changed = await patch(
      owner,
      trip._id,
      {
        destinations: [
          {
            _id: oslo._id,
            name: 'Oslo S',
            latitude: 59.91,
            longitude: 10.76,
            startDate: '2026-06-02',
            endDate: '2026-06-04',
            story: 'A new story',
          },
          { _id: bergen._id },
          { _id: tromso._id },
        ],
      },
      '"3"',
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Trip>().destinations[0]).toEqual({
      ...oslo,
      name: 'Oslo S',
      longitude: 10.76,
      startDate: '2026-06-02',
      endDate: '2026-06-04',
      story: 'A new story',
    });

    // added (in the middle, dates defaulting to the trip's) and reordered
    const added = await patch(
      owner,
      trip._id,
      {
        destinations: [
          { _id: tromso._id },
          { name: 'Lofoten', latitude: '68.2', longitude: '13.6', story: 'Islands' },
          { _id: oslo._id },
          { _id: bergen._id },
        ],
      },
      '"4"',
    );
    expect(added.statusCode, added.body).toBe(200);
    const afterAdd = added.json<Trip>();
    expect(afterAdd.destinations.map((d) => d.name)).toEqual([
      'Tromsø',
      'Lofoten',
      'Oslo S',
      'Bergen',
    ]);
    const lofoten = afterAdd.destinations[1]!;
    expect(lofoten).toMatchObject({
      latitude: 68.2,
      longitude: 13.6,
      startDate: '2026-05-30',
      endDate: '2026-06-21',
      photos: [],
      story: 'Islands',
    });
    expect(lofoten._id).toMatch(/^[0-9a-f]{24}$/);
    expect(afterAdd.destinations[2]!.photos).toEqual(oslo.photos);

    // removed: Oslo, with its two photos (their objects leave the bucket)
    const removed = await patch(
      owner,
      trip._id,
      { destinations: [{ _id: tromso._id }, { _id: lofoten._id }, { _id: bergen._id }] },
      '"5"',
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.headers.etag).toBe('"6"');
    expect(removed.json<Trip>().destinations.map((d) => d.name)).toEqual([
      'Tromsø',
      'Lofoten',
      'Bergen',
    ]);
    const osloPhotos = oslo.photos.map(photoIdOf);
    const left = await objectsOf(trip._id);
    expect(left).toHaveLength(2);
    for (const id of osloPhotos) expect(left.some((key) => key.includes(id))).toBe(false);
    expect((await get(owner, trip._id)).json<Trip>()).toEqual(removed.json<Trip>());

    // a patch that changes nothing: no new version, no event
    const same = await patch(
      owner,
      trip._id,
      {
        name: 'Far North',
        destinations: [{ _id: tromso._id }, { _id: lofoten._id }, { _id: bergen._id }],
      },
      '"6"',
    );
    expect(same.statusCode).toBe(200);
    expect(same.headers.etag).toBe('"6"');

    const events = await eventsOf(trip._id);
    expect(events.map((e) => [e.type, e.payload.version])).toEqual([
      ['trip.created', undefined],
      ['trip.updated', 2],
      ['trip.updated', 3],
      ['trip.updated', 4],
      ['trip.updated', 5],
      ['trip.updated', 6],
    ]);
    const [, rename, , change, add, remove] = events;
    expect(rename!.payload).toMatchObject({
      name: 'Far North',
      addedDestinationIds: [],
      movedDestinationIds: [],
      removedDestinationIds: [],
    });
    expect(change!.payload).toMatchObject({ movedDestinationIds: [oslo._id] });
    expect(add!.payload).toMatchObject({
      addedDestinationIds: [lofoten._id],
      movedDestinationIds: [],
      removedDestinationIds: [],
    });
    expect((add!.payload.destinations as { id: string }[]).map((d) => d.id)).toEqual([
      tromso._id,
      lofoten._id,
      oslo._id,
      bergen._id,
    ]);
    expect(remove!.payload).toMatchObject({
      ownerId: owner,
      name: 'Far North',
      removedDestinationIds: [oslo._id],
      destinations: [
        expect.objectContaining({ id: tromso._id, name: 'Tromsø', photos: [] }),
        expect.objectContaining({ id: lofoten._id, storyPreview: 'Islands' }),
        expect.objectContaining({ id: bergen._id, photos: bergen.photos }),
      ],
    });
  });

  it('answers 412 to a stale If-Match and 428 without one: nothing changes', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    expect((await patch(owner, trip._id, { name: 'First tab' }, etag)).statusCode).toBe(200);
    const before = await stored(trip._id);

    const stale = await patch(owner, trip._id, { name: 'Second tab' }, etag);
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({
      error: TripEditErrors.changed,
      message: TripEditMessages.changedElsewhere,
    });
    const missing = await patch(owner, trip._id, { name: 'No version' });
    expect(missing.statusCode).toBe(428);
    expect(missing.json()).toEqual({
      error: TripEditErrors.versionRequired,
      message: TripEditMessages.versionRequired,
    });
    // one version among several, weak or strong, and * match; junk matches none
    expect((await patch(owner, trip._id, { name: 'Listed' }, `"9", W/"2"`)).statusCode).toBe(200);
    expect((await patch(owner, trip._id, { name: 'Any' }, '*')).statusCode).toBe(200);
    expect((await patch(owner, trip._id, { name: 'Junk' }, 'yesterday')).statusCode).toBe(412);
    expect((await stored(trip._id)).version).toBe(4);
    expect(before.version).toBe(2);
  });

  it('refuses what creation refuses (400) and changes nothing', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const [oslo, bergen] = trip.destinations;
    const before = await stored(trip._id);
    const cases: [TripPatch | string, RegExp | string][] = [
      [{ startDate: '2026-07-01' }, `endDate: ${TripDateMessages.endBeforeStart}`],
      [
        { destinations: [{ _id: oslo!._id, endDate: '2026-05-01' }] },
        `destinations.0.endDate: ${TripDateMessages.endBeforeStart}`,
      ],
      [{ startDate: '2026-02-30' }, /startDate: must be a real date/],
      [{ name: 'x'.repeat(TripLimits.nameMax + 1) }, /^name: /],
      [{ name: 'tab\there' }, /name: must not contain control characters/],
      [
        { destinations: [{ _id: oslo!._id, story: 'x'.repeat(TripLimits.storyMax + 1) }] },
        /destinations\.0\.story/,
      ],
      [
        { destinations: [{ _id: oslo!._id, latitude: 91 }] },
        /destinations\.0\.latitude: must be between -90 and 90/,
      ],
      [
        { destinations: [{ _id: oslo!._id, longitude: '0x10' }] },
        /destinations\.0\.longitude: must be a decimal number/,
      ],
      [
        { destinations: [{ _id: oslo!._id, name: ' ' }] },
        /destinations\.0\.name: Destination name is required/,
      ],
      [
        { destinations: [{ name: 'New' }] },
        TripEditMessages.required(0, 'latitude') + ' ' + TripEditMessages.required(0, 'longitude'),
      ],
      [
        { destinations: [{ _id: 'ffffffffffffffffffffffff' }] },
        TripEditMessages.unknownDestination(0),
      ],
      [
        { destinations: [{ _id: bergen!._id }, { _id: bergen!._id }] },
        TripEditMessages.repeatedDestination(1),
      ],
      [
        {
          destinations: Array.from({ length: TripLimits.destinationsMax + 1 }, () => ({
            name: 'x',
            latitude: 1,
            longitude: 1,
          })),
        },
        /destinations/,
      ],
      [
        { destinations: [{ _id: oslo!._id, photos: [] }] } as unknown as TripPatch,
        /Unrecognized key/,
      ],
      [{ ownerId: 'someone' } as unknown as TripPatch, /Unrecognized key/],
      ['[1, 2]', /expected object/],
      ['{"name": ', /JSON/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(owner, trip._id, body, etag);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    expect(await stored(trip._id)).toEqual(before);
    const events = await eventsOf(trip._id);
    expect(events.map((e) => e.type)).toEqual(['trip.created']);
  });

  it("is the owner's only: another user's PATCH and photo changes are 404, as reads", async () => {
    const owner = newUserId();
    const other = newUserId();
    const { trip, etag } = await createTrip(owner);
    const before = await stored(trip._id);
    const oslo = trip.destinations[0]!;
    for (const res of [
      await patch(other, trip._id, { name: 'Mine now' }, etag),
      await patch(other, 'not-an-id', { name: 'x' }, etag),
      await patch(owner, 'ffffffffffffffffffffffff', { name: 'x' }, etag),
      await addPhotos(other, trip._id, oslo._id, [photo()], { 'if-match': etag }),
      await removePhoto(
        other,
        `/api/trips/${trip._id}/destinations/${oslo._id}/photos/${photoIdOf(oslo.photos[0]!)}`,
        etag,
      ),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: Messages.tripNotFound });
    }
    expect(await stored(trip._id)).toEqual(before);
    expect(await objectsOf(trip._id)).toHaveLength(6);
  });
});

describe('photos added and removed', () => {
  it('adds photos through the image pipeline with a version, and removes one with its objects', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const tromso = trip.destinations[2]!;

    const res = await addPhotos(owner, trip._id, tromso._id, [photo('x.png'), photo('y.png')], {
      'if-match': etag,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.etag).toBe('"2"');
    const added = res.json<Trip>().destinations[2]!.photos;
    expect(added).toHaveLength(2);
    expect(added.every(isPendingPhotoUrl)).toBe(true);
    await h.variants.idle();
    const ready = (await get(owner, trip._id)).json<Trip>().destinations[2]!.photos;
    expect(ready.map(photoIdOf)).toEqual(added.map(photoIdOf));
    expect(ready.some(isPendingPhotoUrl)).toBe(false);
    // original and display variant of each, under the photo's own prefix
    expect(await objectsOf(trip._id)).toHaveLength(10);
    const served = await h.app.inject({ url: ready[0]!, headers: as(owner) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');

    const url = `/api/trips/${trip._id}/destinations/${tromso._id}/photos/${photoIdOf(ready[0]!)}`;
    expect((await removePhoto(owner, url, etag)).statusCode).toBe(412);
    const removed = await removePhoto(owner, url, '"2"');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.headers.etag).toBe('"3"');
    expect(removed.json<Trip>().destinations[2]!.photos).toEqual([ready[1]]);
    const keys = await objectsOf(trip._id);
    expect(keys).toHaveLength(8);
    expect(keys.some((k) => k.includes(photoIdOf(ready[0]!)))).toBe(false);
    expect((await h.app.inject({ url: ready[0]!, headers: as(owner) })).statusCode).toBe(404);
    // again: the photo is gone
    expect((await removePhoto(owner, url, '"3"')).json()).toEqual({
      error: 'not_found',
      message: Messages.photoNotFound,
    });
    // a photo of another destination named under this one
    const osloPhoto = photoIdOf(trip.destinations[0]!.photos[0]!);
    expect(
      (
        await removePhoto(
          owner,
          `/api/trips/${trip._id}/destinations/${tromso._id}/photos/${osloPhoto}`,
          '"3"',
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await addPhotos(owner, trip._id, 'ffffffffffffffffffffffff', [photo()], {
          'if-match': '"3"',
        })
      ).json(),
    ).toEqual({ error: 'not_found', message: Messages.destinationNotFound });

    const events = await eventsOf(trip._id);
    expect(events.map((e) => [e.type, e.payload.version])).toEqual([
      ['trip.created', undefined],
      ['trip.updated', 2],
      ['trip.updated', 3],
    ]);
    const photosIn = (e: Envelope) => (e.payload.destinations as { photos: string[] }[])[2]!.photos;
    expect(photosIn(events[1]!)).toEqual(ready);
    expect(photosIn(events[2]!)).toEqual([ready[1]]);
  });

  it('holds the per-destination limit, refuses non-images and stale versions, storing nothing', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const oslo = trip.destinations[0]!; // 2 photos
    const room = TripLimits.photosPerDestinationMax - oslo.photos.length;
    const before = await objectsOf(trip._id);

    const tooMany = await addPhotos(
      owner,
      trip._id,
      oslo._id,
      Array.from({ length: room + 1 }, () => photo()),
      { 'if-match': etag },
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ message: string }>().message).toBe(Messages.tooManyPhotosPerDestination);
    const text = await addPhotos(
      owner,
      trip._id,
      oslo._id,
      [{ field: TRIP_PHOTOS_FIELD, data: TEXT, filename: 'notes.txt', type: 'image/png' }],
      { 'if-match': etag },
    );
    expect(text.statusCode).toBe(400);
    expect(text.json<{ message: string }>().message).toMatch(Messages.notAnImage);
    const wrongField = await addPhotos(
      owner,
      trip._id,
      oslo._id,
      [{ ...photo(), field: 'photos[0]' }],
      { 'if-match': etag },
    );
    expect(wrongField.statusCode).toBe(400);
    const none = await addPhotos(owner, trip._id, oslo._id, [], { 'if-match': etag });
    expect(none.json()).toEqual({ error: 'bad_request', message: TripEditMessages.noPhotos });
    expect((await addPhotos(owner, trip._id, oslo._id, [photo()])).statusCode).toBe(428);
    expect(
      (await addPhotos(owner, trip._id, oslo._id, [photo()], { 'if-match': '"7"' })).statusCode,
    ).toBe(412);

    expect(await objectsOf(trip._id)).toEqual(before);
    expect(await h.pending.collection.countDocuments({ tripId: trip._id })).toBe(0);
    expect((await stored(trip._id)).version).toBe(1);
    // exactly the room left fits
    const fits = await addPhotos(
      owner,
      trip._id,
      oslo._id,
      Array.from({ length: room }, () => photo()),
      { 'if-match': etag },
    );
    expect(fits.statusCode, fits.body).toBe(201);
    expect(fits.json<Trip>().destinations[0]!.photos).toHaveLength(
      TripLimits.photosPerDestinationMax,
    );
  });

  it('takes an Idempotency-Key: a retry adds nothing and answers the trip as it is', async () => {
    const owner = newUserId();
    const { trip, etag } = await createTrip(owner);
    const bergen = trip.destinations[1]!;
    const keyed = { 'if-match': etag, [IDEMPOTENCY_KEY_HEADER]: `add-${crypto.randomUUID()}` };
    const first = await addPhotos(owner, trip._id, bergen._id, [photo()], keyed);
    expect(first.statusCode, first.body).toBe(201);
    // the retry carries the If-Match of the first try: the key answers before the version
    const retry = await addPhotos(owner, trip._id, bergen._id, [photo()], keyed);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers.etag).toBe('"2"');
    expect(retry.json<Trip>().destinations[1]!.photos).toHaveLength(2);
    const other = await addPhotos(owner, trip._id, bergen._id, [photo(), photo()], keyed);
    expect(other.statusCode).toBe(422);
    // concurrent same-key adds: one adds, the others replay it
    const key = { 'if-match': '"2"', [IDEMPOTENCY_KEY_HEADER]: `add-${crypto.randomUUID()}` };
    const results = await Promise.all(
      Array.from({ length: 3 }, () => addPhotos(owner, trip._id, bergen._id, [photo()], key)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    await h.variants.idle();
    const now = (await get(owner, trip._id)).json<Trip>();
    expect(now.destinations[1]!.photos).toHaveLength(3);
    // 3 + 2 photos of the trip, original and display each: no object of the losers is left
    await expect.poll(() => objectsOf(trip._id), { timeout: 10_000 }).toHaveLength(10);
    expect((await stored(trip._id)).version).toBe(3);
  });
});
