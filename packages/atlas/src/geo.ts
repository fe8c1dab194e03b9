/** Plain geodesy on a spherical Earth (IUGG mean radius): pure functions, no data. */

export const EARTH_RADIUS_KM = 6371.0088;
/** Kilometres per degree of latitude (and of longitude at the equator). */
export const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in km between two points (haversine). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = toRadians(lat2 - lat1);
  const dLon = toRadians(lon2 - lon1);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(lat1)) * Math.cos(toRadians(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A longitude difference brought into [-180, 180). */
export function wrapLongitude(delta: number): number {
  return delta - 360 * Math.floor((delta + 180) / 360);
}

/**
 * Distance in km from the origin to the segment a-b, both given in km on a plane (the atlas
 * projects a segment around the point it measures from, see `lookup.ts`).
 */
export function distanceToSegment(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  let t = lengthSquared === 0 ? 0 : -(ax * dx + ay * dy) / lengthSquared;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(ax + t * dx, ay + t * dy);
}
