import { describe, expect, it } from 'vitest';
import {
  TripDateMessages,
  TripEditErrors,
  TripEditMessages,
  TripLimits,
  type Trip,
  type TripPatch,
} from '@wayfarer/contracts';
import { Messages } from '../../src/domain/limits';
import { as, newUserId } from './harness';
import {
  useEditsHarness,
  addPhotos,
  createTrip,
  eventsOf,
  get,
  h,
  objectsOf,
  patch,
  photo,
  photoIdOf,
  removePhoto,
  stored,
} from './edits-harness';

useEditsHarness();

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
