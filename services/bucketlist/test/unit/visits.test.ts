import { describe, expect, it } from 'vitest';
import { VISIT_RADIUS_KM } from '@wayfarer/contracts';
import { isItemId, placesVisitedBy } from '../../src/domain/visits';

/** A point `km` kilometres north of `from` (one degree of latitude is about 111.195 km). */
const north = (from: { latitude: number; longitude: number }, km: number) => ({
  latitude: from.latitude + km / 111.19508,
  longitude: from.longitude,
});

describe('placesVisitedBy', () => {
  const rome = { id: 'rome', latitude: 41.9028, longitude: 12.4964 };
  const lima = { id: 'lima', latitude: -12.0464, longitude: -77.0428 };

  it(`ticks off the places within ${VISIT_RADIUS_KM} km of any destination`, () => {
    expect(placesVisitedBy([rome, lima], [north(rome, 24.9)])).toEqual(['rome']);
    expect(placesVisitedBy([rome, lima], [north(lima, 1), north(rome, 10)])).toEqual([
      'rome',
      'lima',
    ]);
  });

  it('leaves places further away, and does nothing without destinations', () => {
    expect(placesVisitedBy([rome, lima], [north(rome, 25.1)])).toEqual([]);
    expect(placesVisitedBy([rome], [])).toEqual([]);
    expect(placesVisitedBy([], [rome])).toEqual([]);
  });

  it('takes another radius when given', () => {
    expect(placesVisitedBy([rome], [north(rome, 40)], 50)).toEqual(['rome']);
  });
});

describe('isItemId', () => {
  it('accepts the UUIDs the service makes and nothing else', () => {
    expect(isItemId(crypto.randomUUID())).toBe(true);
    expect(isItemId('not-an-id')).toBe(false);
    expect(isItemId(`${crypto.randomUUID()}x`)).toBe(false);
    expect(isItemId("' OR 1=1 --")).toBe(false);
  });
});
