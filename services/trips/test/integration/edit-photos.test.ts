import { describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  isPendingPhotoUrl,
  TRIP_PHOTOS_FIELD,
  TripEditMessages,
  TripLimits,
  type Trip,
} from '@wayfarer/contracts';
import { Messages } from '../../src/domain/limits';
import { TEXT } from '../fixtures';
import { as, newUserId } from './harness';
import {
  useEditsHarness,
  addPhotos,
  createTrip,
  type Envelope,
  eventsOf,
  get,
  h,
  objectsOf,
  photo,
  photoIdOf,
  removePhoto,
  stored,
} from './edits-harness';

useEditsHarness();

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
