import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { storyPreview, Topics, Trip, TripSummary } from '@wayfarer/contracts';
import { waitForEvents } from '@wayfarer/test-kit';
import { sidewaysJpeg } from '../fixtures';
import { as, createSimpleTrip, newUserId, postTrip, tripFields } from './harness';
import { useTripsHarness, big, type Envelope, h, ready, small } from './trips-harness';

useTripsHarness();

describe('a trip from creation to deletion', () => {
  const owner = newUserId();
  let trip: Trip;

  it('POST /api/trips with 2 destinations and photos: 201 with the spec trip', async () => {
    const res = await postTrip(
      h.app,
      owner,
      tripFields({ name: 'Summer in France', startDate: '2024-07-01', endDate: '2024-07-20' }, [
        {
          name: 'Paris',
          latitude: '48.8566',
          longitude: '2.3522',
          startDate: '2024-07-01',
          endDate: '2024-07-05',
          story: `A long story. ${'Croissants. '.repeat(20)}`,
        },
        {
          name: 'Lyon',
          latitude: '45.764',
          longitude: '4.8357',
          startDate: '2024-07-06',
          endDate: '2024-07-20',
          story: '',
        },
      ]),
      [
        // typed by content: the declared names and types are wrong on purpose
        { field: 'photos[0]', data: big, filename: 'eiffel.png', type: 'image/png' },
        { field: 'photos[0]', data: small, filename: 'louvre.png', type: 'image/png' },
        {
          field: 'photos[1]',
          data: await sidewaysJpeg(),
          filename: 'sideways.jpg',
          type: 'text/plain',
        },
      ],
    );
    expect(res.statusCode, res.body).toBe(201);
    trip = res.json<Trip>();
    expect(Trip.parse(trip)).toEqual(trip);
    expect(Object.keys(trip).sort()).toEqual([
      '_id',
      'destinations',
      'endDate',
      'name',
      'startDate',
      'visibility',
    ]);
    expect(trip).toMatchObject({
      name: 'Summer in France',
      startDate: '2024-07-01',
      endDate: '2024-07-20',
      visibility: 'friends',
    });
    expect(trip._id).toMatch(/^[0-9a-f]{24}$/);
    const [paris, lyon] = trip.destinations;
    expect(paris).toMatchObject({
      name: 'Paris',
      latitude: 48.8566,
      longitude: 2.3522,
      startDate: '2024-07-01',
      endDate: '2024-07-05',
    });
    expect(paris!.story).toMatch(/^A long story\./);
    expect(lyon).toMatchObject({ name: 'Lyon', latitude: 45.764, longitude: 4.8357, story: '' });
    expect(paris!._id).toMatch(/^[0-9a-f]{24}$/);
    expect(lyon!._id).not.toBe(paris!._id);
    expect(paris!.photos).toHaveLength(2);
    expect(lyon!.photos).toHaveLength(1);
    // answered as soon as the stripped originals are stored: display variants come later
    for (const url of [...paris!.photos, ...lyon!.photos]) {
      expect(url).toMatch(new RegExp(`^/api/photos/${trip._id}/[0-9a-f]{32}\\?pending=1$`));
    }
  });

  it('the display variants are made after the answer; the trip then answers plain photo URLs', async () => {
    await h.variants.idle();
    const stored = await h.trips.collection.findOne({ _id: trip._id });
    expect(stored!.pendingVariants).toBeUndefined();
    expect(stored!.destinations.flatMap((d) => d.photos).every((p) => p.display)).toBe(true);
    const res = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(res.json()).toEqual(ready(trip));
  });

  it('stores originals and display variants in MinIO; the display is smaller', async () => {
    await h.variants.idle();
    const stored = await h.trips.findOwned(trip._id, owner);
    const photos = stored!.destinations.flatMap((d) => d.photos);
    expect(photos.map((p) => p.id)).toEqual(
      ready(trip).destinations.flatMap((d) => d.photos.map((u) => u.split('/').pop())),
    );
    expect(photos.map((p) => p.original.key.split('.').pop())).toEqual(['jpg', 'png', 'jpg']);
    expect((await h.photos.list(`${trip._id}/`)).sort()).toEqual(
      photos.flatMap((p) => [p.original.key, p.display!.key]).sort(),
    );

    const bigPhoto = stored!.destinations[0]!.photos[0]!;
    expect(bigPhoto.original).toMatchObject({
      contentType: 'image/jpeg',
      width: 3000,
      height: 2000,
    });
    expect(bigPhoto.display).toMatchObject({
      contentType: 'image/webp',
      width: 1600,
      height: 1067,
    });
    expect(bigPhoto.display!.bytes).toBeLessThan(big.length / 2);

    // the original is re-encoded at full size by the image pipeline (see photo-pipeline.test)
    const original = await h.photos.get(bigPhoto.original.key);
    const chunks: Buffer[] = [];
    for await (const c of original!) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.length).toBe(bigPhoto.original.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({
      format: 'jpeg',
      width: 3000,
      height: 2000,
    });
  });

  it('the owner reads the display variant through the photo URL', async () => {
    const res = await h.app.inject({ url: trip.destinations[0]!.photos[0]!, headers: as(owner) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(big.length / 2);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1600, height: 1067 });

    // the sideways photo is served upright, without its EXIF
    const sideways = await h.app.inject({
      url: trip.destinations[1]!.photos[0]!,
      headers: as(owner),
    });
    expect(await sharp(sideways.rawPayload).metadata()).toMatchObject({ width: 200, height: 400 });
    expect(sideways.rawPayload.includes('exif-marker-owner')).toBe(false);
  });

  it('a stranger gets 404 for the photo; no session is 401', async () => {
    const url = trip.destinations[0]!.photos[0]!;
    const stranger = await h.app.inject({ url, headers: as(newUserId()) });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ error: 'not_found', message: 'Photo not found.' });
    expect((await h.app.inject({ url })).statusCode).toBe(401);
  });

  it('GET /api/trips/:id answers the owner the same trip', async () => {
    const res = await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(ready(trip));
  });

  it('GET /api/mytrips lists the caller’s trips, newest first, as summaries', async () => {
    const second = await createSimpleTrip(h, owner, small, 'Later trip');
    await h.variants.idle();
    const res = await h.app.inject({ url: '/api/mytrips', headers: as(owner) });
    expect(res.statusCode).toBe(200);
    const list = res.json<TripSummary[]>();
    expect(TripSummary.array().parse(list)).toEqual(list);
    expect(list.map((t) => t._id)).toEqual([second._id, trip._id]);
    // the spec's fields; each story is its preview, each destination's photos its first only
    const full = ready(trip);
    expect(list[1]).toEqual({
      ...full,
      destinations: full.destinations.map((d) => ({
        ...d,
        story: storyPreview(d.story),
        photos: d.photos.slice(0, 1),
      })),
    });
    expect(list[1]!.destinations[0]!.story).toHaveLength(103);
    expect(list[1]!.destinations[0]!.story.endsWith('...')).toBe(true);
    expect(list[1]!.destinations[0]!.photos).toHaveLength(1);
    // nobody else sees them
    const other = await h.app.inject({ url: '/api/mytrips', headers: as(newUserId()) });
    expect(other.json()).toEqual([]);
  });

  it('publishes trip.created with the destinations to Kafka, and empties the outbox', async () => {
    const [event] = await waitForEvents<Envelope>(
      Topics.tripsTrip,
      (e) => e.type === 'trip.created' && e.aggregateId === trip._id,
    );
    expect(event).toMatchObject({
      type: 'trip.created',
      version: 1,
      aggregateId: trip._id,
      payload: {
        tripId: trip._id,
        ownerId: owner,
        name: 'Summer in France',
        startDate: '2024-07-01',
        endDate: '2024-07-20',
      },
    });
    const [paris, lyon] = event!.payload.destinations;
    expect(paris).toEqual({
      id: trip.destinations[0]!._id,
      name: 'Paris',
      latitude: 48.8566,
      longitude: 2.3522,
      startDate: '2024-07-01',
      endDate: '2024-07-05',
      photos: ready(trip).destinations[0]!.photos,
      storyPreview: `${trip.destinations[0]!.story.slice(0, 100)}...`,
    });
    expect(lyon).toMatchObject({ id: trip.destinations[1]!._id, storyPreview: '' });
    await expect
      .poll(async () => (await h.trips.collection.findOne({ _id: trip._id }))?.outbox, {
        message: 'the outbox to empty',
        timeout: 20_000,
      })
      .toEqual([]);
  });

  it('DELETE /api/trips/:id: deletedTrip, photos gone, trip.deleted published, doc removed', async () => {
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(owner),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      deletedTrip: ready(trip),
      message: 'Trip deleted successfully.',
    });

    expect(await h.photos.list(`${trip._id}/`)).toEqual([]);
    // gone from the API at once, even before the relay removes the document
    expect(
      (await h.app.inject({ url: `/api/trips/${trip._id}`, headers: as(owner) })).statusCode,
    ).toBe(404);
    const list = (await h.app.inject({ url: '/api/mytrips', headers: as(owner) })).json<Trip[]>();
    expect(list.map((t) => t._id)).not.toContain(trip._id);
    expect(
      (await h.app.inject({ url: trip.destinations[0]!.photos[0]!, headers: as(owner) }))
        .statusCode,
    ).toBe(404);

    const [event] = await waitForEvents<Envelope>(
      Topics.tripsTrip,
      (e) => e.type === 'trip.deleted' && e.aggregateId === trip._id,
    );
    expect(event!.payload).toMatchObject({ tripId: trip._id, ownerId: owner });
    expect(event!.payload.destinations.map((d) => d.id)).toEqual(
      trip.destinations.map((d) => d._id),
    );
    expect(event!.payload.destinations[0]).toMatchObject({
      name: 'Paris',
      photos: ready(trip).destinations[0]!.photos,
    });

    await expect
      .poll(() => h.trips.collection.countDocuments({ _id: trip._id }), {
        message: 'the relay to remove the deleted trip',
        timeout: 20_000,
      })
      .toBe(0);
  });

  it('deleting again: 404', async () => {
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/trips/${trip._id}`,
      headers: as(owner),
    });
    expect(res.statusCode).toBe(404);
  });
});
