import { tripSummariesJson } from '../domain/trip';
import type { MyTripsCache } from '../store/mytrips-cache';
import type { TripsRepo } from '../store/trips';

export interface ListMyTripsDeps {
  trips: TripsRepo;
  /** This instance's kept lists (`MYTRIPS_CACHE_MAX_BYTES`; disabled at 0). */
  mytrips: MyTripsCache;
}

/**
 * The body of `GET /api/mytrips` for `ownerId`: the JSON array of their trips' summaries,
 * newest first (`tripSummariesJson`). With the cache on, the owner's list version is read
 * first (one `findOne` by id) and the body kept under that very version answers if there is
 * one; else the list is read and kept under the version read before it. A write landing
 * between the version read and the list is thus kept under the older version, which the next
 * read (after the write's bump) no longer matches: never a stale body for a version.
 */
export async function listMyTrips(deps: ListMyTripsDeps, ownerId: string): Promise<Buffer> {
  const list = async () => tripSummariesJson(await deps.trips.listSummaries(ownerId));
  if (!deps.mytrips.enabled) return list();
  const version = await deps.trips.listVersion(ownerId);
  return deps.mytrips.read(ownerId, version, list);
}
