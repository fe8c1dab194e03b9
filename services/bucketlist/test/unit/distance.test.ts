import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/domain/distance';

describe('distanceKm', () => {
  it('measures known great-circle distances', () => {
    const paris = { latitude: 48.8566, longitude: 2.3522 };
    const london = { latitude: 51.5074, longitude: -0.1278 };
    // about 344 km (great-circle, mean Earth radius)
    expect(distanceKm(paris, london)).toBeCloseTo(343.9, 0);
    expect(distanceKm(london, paris)).toBeCloseTo(distanceKm(paris, london), 9);
    expect(distanceKm(paris, paris)).toBe(0);
    // one degree of latitude: about 111.2 km
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      111.19,
      1,
    );
  });

  it('is right across the antimeridian and at the poles', () => {
    // 179.9 E to 179.9 W on the equator: 0.2 degree, about 22 km, not 40,000
    expect(
      distanceKm({ latitude: 0, longitude: 179.9 }, { latitude: 0, longitude: -179.9 }),
    ).toBeCloseTo(22.24, 1);
    // every longitude is the same point at a pole
    expect(
      distanceKm({ latitude: 90, longitude: 0 }, { latitude: 90, longitude: 120 }),
    ).toBeCloseTo(0, 6);
    // antipodes: half the circumference
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(
      Math.PI * 6371.0088,
      6,
    );
  });
});
