/** Mean Earth radius in km (IUGG), the usual radius for great-circle distances. */
export const EARTH_RADIUS_KM = 6371.0088;

export interface Point {
  latitude: number;
  longitude: number;
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * Great-circle distance between two points in km (haversine formula): within about 0.5 % of
 * the ellipsoidal distance, far finer than what a 25 km visit radius needs. Correct across the
 * antimeridian and at the poles.
 */
export function distanceKm(a: Point, b: Point): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
