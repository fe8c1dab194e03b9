import { describe, expect, it } from 'vitest';
import {
  BodyLimits,
  ifMatchVersions,
  makeEvent,
  TripLimits,
  TripPatch,
  tripETag,
  tripPatchBodyMaxBytes,
  tripPhotosBodyMaxBytes,
  TripUpdated,
} from '../src';

describe('trip versions in ETag and If-Match', () => {
  it('names a version as a strong tag and reads it back, weak or in a list', () => {
    expect(tripETag(3)).toBe('"3"');
    expect(ifMatchVersions(tripETag(3))).toEqual([3]);
    expect(ifMatchVersions('W/"3", "12"')).toEqual([3, 12]);
    expect(ifMatchVersions(' * ')).toBe('any');
    expect(ifMatchVersions(undefined)).toBeNull();
  });

  it('names no version for tags it did not make', () => {
    for (const junk of ['', '3', '"abc"', '"0"', '"03"', '"-1"', '"1e3"', '"99999999999999999"']) {
      expect(ifMatchVersions(junk), junk).toEqual([]);
    }
  });
});

describe('PATCH /api/trips/{id}', () => {
  it('takes any of the fields, and destinations with or without _id', () => {
    expect(TripPatch.safeParse({}).success).toBe(true);
    expect(
      TripPatch.safeParse({
        name: 'Renamed',
        destinations: [
          { _id: 'a'.repeat(24), story: 'new' },
          { name: 'Oslo', latitude: 59.9, longitude: '10.7' },
        ],
      }).success,
    ).toBe(true);
  });

  it('refuses keys it does not know (photos are changed by their own routes)', () => {
    expect(TripPatch.safeParse({ ownerId: 'x' }).success).toBe(false);
    expect(TripPatch.safeParse({ destinations: [{ _id: 'a', photos: [] }] }).success).toBe(false);
    expect(
      TripPatch.safeParse({
        destinations: Array.from({ length: TripLimits.destinationsMax + 1 }, () => ({})),
      }).success,
    ).toBe(false);
  });

  it('the body cap holds the largest legal patch, escaped at its longest', () => {
    const longest = (n: number) => '\u0001'.repeat(n); // JSON.stringify writes \u0001: 6 bytes
    const patch = {
      name: longest(TripLimits.nameMax),
      startDate: longest(64),
      endDate: longest(64),
      destinations: Array.from({ length: TripLimits.destinationsMax }, () => ({
        _id: longest(64),
        name: longest(TripLimits.destinationNameMax),
        startDate: longest(64),
        endDate: longest(64),
        latitude: longest(64),
        longitude: longest(64),
        story: longest(TripLimits.storyMax),
      })),
    };
    expect(Buffer.byteLength(JSON.stringify(patch))).toBe(tripPatchBodyMaxBytes);
  });
});

describe('photo adds', () => {
  it("fit the trip form's cap, which the gateway applies under /api/trips", () => {
    expect(tripPhotosBodyMaxBytes).toBeGreaterThan(
      TripLimits.photosPerDestinationMax * 1024 * 1024,
    );
    expect(tripPhotosBodyMaxBytes).toBeLessThanOrEqual(BodyLimits.trip);
  });
});

describe('trip.updated', () => {
  const payload = {
    tripId: 't1',
    ownerId: 'u1',
    version: 2,
    name: 'Trip',
    startDate: '2026-01-01',
    endDate: '2026-01-02',
    destinations: [],
    addedDestinationIds: [],
    movedDestinationIds: [],
    removedDestinationIds: ['d1'],
  };

  it('carries a version after the first', () => {
    expect(makeEvent(TripUpdated, 't1', payload).payload).toEqual(payload);
    expect(() => makeEvent(TripUpdated, 't1', { ...payload, version: 1 })).toThrow();
  });
});
