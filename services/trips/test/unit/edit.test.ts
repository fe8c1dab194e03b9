import { describe, expect, it } from 'vitest';
import { TripEditMessages, TripLimits } from '@wayfarer/contracts';
import { IMAGE_TYPES } from '@wayfarer/storage/image';
import { addPhotos, applyTripPatch, checkVersion, removePhoto } from '../../src/domain/edit';
import { NotFoundError, StaleTripError } from '../../src/domain/errors';
import { isTripId, newId, tripIdTime } from '../../src/domain/ids';
import { Messages } from '../../src/domain/limits';
import { newTripDoc, photoKeys, type PhotoDoc } from '../../src/domain/trip';
import { refusal } from '../refusal';

const tripId = 'a'.repeat(24);
const [D1, D2] = ['d'.repeat(24), 'e'.repeat(24)];

function photo(id: string, made = true): PhotoDoc {
  const keys = photoKeys(tripId, id, IMAGE_TYPES.png, IMAGE_TYPES.webp);
  return {
    id,
    original: { key: keys.original, contentType: 'image/png', bytes: 10 },
    display: made ? { key: keys.display, contentType: 'image/webp', bytes: 5 } : null,
  };
}
const [P1, P2, P3] = ['1', '2', '3'].map((c) => c.repeat(32)) as [string, string, string];

const trip = newTripDoc({
  id: tripId,
  ownerId: 'owner',
  input: {
    visibility: 'friends',
    name: 'Trip',
    startDate: '2026-01-01',
    endDate: '2026-01-10',
    destinations: [
      {
        name: 'A',
        latitude: 1,
        longitude: 2,
        startDate: '2026-01-01',
        endDate: '2026-01-02',
        story: 'sa',
      },
      {
        name: 'B',
        latitude: 3,
        longitude: 4,
        startDate: '2026-01-03',
        endDate: '2026-01-10',
        story: '',
      },
    ],
  },
  destinationIds: [D1, D2],
  photos: [[photo(P1), photo(P2, false)], [photo(P3, false)]],
  now: new Date('2026-01-01T00:00:00Z'),
});
const ids = () => {
  let n = 0;
  return () => `${'f'.repeat(23)}${n++}`;
};

describe('applyTripPatch', () => {
  it('changes nothing for an empty patch, or one naming what is there', () => {
    expect(trip.version).toBe(1);
    expect(applyTripPatch(trip, {}, ids())).toBeNull();
    expect(
      applyTripPatch(
        trip,
        { name: ' Trip ', destinations: [{ _id: D1, name: 'A' }, { _id: D2 }] },
        ids(),
      ),
    ).toBeNull();
  });

  it('visibility: a change of its own, one version on; the same one changes nothing', () => {
    expect(applyTripPatch(trip, { visibility: 'friends' }, ids())).toBeNull();
    const change = applyTripPatch(trip, { visibility: 'private' }, ids())!;
    expect(change.trip).toMatchObject({ visibility: 'private', version: 2, name: 'Trip' });
    expect(change.trip.destinations).toEqual(trip.destinations);
    expect(change).toMatchObject({
      addedDestinationIds: [],
      movedDestinationIds: [],
      removedDestinationIds: [],
      removedPhotoIds: [],
    });
    // kept through any other change
    const renamed = applyTripPatch(change.trip, { name: 'Renamed' }, ids())!;
    expect(renamed.trip).toMatchObject({ visibility: 'private', version: 3 });
  });

  it('reorders, adds, moves and removes; the removed destination takes its photos and pending variants', () => {
    const change = applyTripPatch(
      trip,
      {
        destinations: [
          { name: 'New', latitude: '5', longitude: 6 },
          { _id: D2, latitude: 3.5 },
        ],
      },
      ids(),
    )!;
    expect(change.trip.version).toBe(2);
    expect(change.trip.destinations.map((d) => [d._id, d.name, d.latitude, d.startDate])).toEqual([
      ['f'.repeat(23) + '0', 'New', 5, '2026-01-01'],
      [D2, 'B', 3.5, '2026-01-03'],
    ]);
    expect(change.trip.destinations[1]!.photos).toEqual(trip.destinations[1]!.photos);
    expect(change).toMatchObject({
      addedDestinationIds: ['f'.repeat(23) + '0'],
      movedDestinationIds: [D2],
      removedDestinationIds: [D1],
      removedPhotoIds: [P1, P2],
    });
    expect(change.trip.pendingVariants).toEqual([P3]);
    // the trip read is not changed
    expect(trip.destinations).toHaveLength(2);

    const reordered = applyTripPatch(trip, { destinations: [{ _id: D2 }, { _id: D1 }] }, ids())!;
    expect(reordered.trip.destinations.map((d) => d._id)).toEqual([D2, D1]);
    expect(reordered).toMatchObject({
      addedDestinationIds: [],
      movedDestinationIds: [],
      removedDestinationIds: [],
    });
  });

  it('refuses unknown and repeated ids, new destinations without a place, and what TripInput refuses', () => {
    expect(
      refusal(() =>
        applyTripPatch(
          trip,
          { destinations: [{ _id: 'x' }, { _id: D1 }, { _id: D1 }, { name: 'N' }] },
          ids(),
        ),
      ),
    ).toMatchObject({
      statusCode: 400,
      message: [
        TripEditMessages.unknownDestination(0),
        TripEditMessages.repeatedDestination(2),
        TripEditMessages.required(3, 'latitude'),
        TripEditMessages.required(3, 'longitude'),
      ].join(' '),
    });
    expect(refusal(() => applyTripPatch(trip, { endDate: '2025-12-31' }, ids())).statusCode).toBe(
      400,
    );
    expect(
      refusal(() => applyTripPatch(trip, { destinations: [{ _id: D1, latitude: 'north' }] }, ids()))
        .message,
    ).toBe('destinations.0.latitude: must be a decimal number');
  });
});

describe('photos', () => {
  it('adds at the end of a destination, pending, within the limits', () => {
    const P4 = '4'.repeat(32);
    const change = addPhotos(trip, D2, [photo(P4, false)]);
    expect(change.trip.destinations[1]!.photos.map((p) => p.id)).toEqual([P3, P4]);
    expect(change.trip.pendingVariants).toEqual([P2, P3, P4]);
    expect(change.trip.version).toBe(2);
    const many = Array.from({ length: TripLimits.photosPerDestinationMax }, (_, i) =>
      photo(String(i).padStart(32, '0')),
    );
    expect(refusal(() => addPhotos(trip, D2, many)).message).toBe(
      Messages.tooManyPhotosPerDestination,
    );
    expect(refusal(() => addPhotos(trip, D2, [])).message).toBe(TripEditMessages.noPhotos);
    expect(() => addPhotos(trip, 'nope', [photo(P4)])).toThrow(NotFoundError);
  });

  it('removes one, its pending variant with it', () => {
    const change = removePhoto(trip, D1, P2);
    expect(change.trip.destinations[0]!.photos.map((p) => p.id)).toEqual([P1]);
    expect(change.trip.pendingVariants).toEqual([P3]);
    expect(change.removedPhotoIds).toEqual([P2]);
    expect(() => removePhoto(trip, D2, P1)).toThrow(new NotFoundError('photo'));
  });
});

describe('versions and ids', () => {
  it('a change is made to a version the client named', () => {
    expect(() => checkVersion(trip, [1])).not.toThrow();
    expect(() => checkVersion(trip, 'any')).not.toThrow();
    expect(() => checkVersion(trip, [2, 3])).toThrow(StaleTripError);
    expect(() => checkVersion(trip, [])).toThrow(StaleTripError);
  });

  it('new ids are ObjectId-shaped, time-ordered, and name their second', () => {
    const at = Date.parse('2026-03-01T12:00:00Z');
    const [a, b] = [newId(at), newId(at)];
    expect(isTripId(a) && isTripId(b)).toBe(true);
    expect(a < b).toBe(true);
    expect(newId(at + 1000) > b).toBe(true);
    expect(tripIdTime(a).getTime()).toBe(at);
  });
});
