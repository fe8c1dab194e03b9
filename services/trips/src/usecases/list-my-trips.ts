import { promisify } from 'node:util';
import { brotliCompress, constants as zlib } from 'node:zlib';
import { tripSummariesJson } from '../domain/trip';
import type { MyTripsCache } from '../store/mytrips-cache';
import type { TripsStore } from '../store/trips';

const brotli = promisify(brotliCompress);

/**
 * The list as answered: its JSON, and (once the cache keeps it) the same bytes brotli-encoded
 * once, at the quality the gateway would use per request (4), so a kept list is not compressed
 * again on every read, here or at the gateway (which passes an encoded answer through). The
 * read that makes the list encodes it before answering (off the event loop, in zlib's thread
 * pool): through the gateway that costs what the gateway's own compression of the answer would
 * have, once per list version instead of once per read.
 */
export class MyTripsBody {
  constructor(
    readonly json: Buffer,
    readonly br: Buffer | null,
  ) {}

  /** Bytes kept (the cache's bound counts both). */
  get length(): number {
    return this.json.length + (this.br?.length ?? 0);
  }
}

export interface ListMyTripsDeps {
  trips: TripsStore;
  /** This instance's kept lists (`MYTRIPS_CACHE_MAX_BYTES`; disabled at 0). */
  mytrips: MyTripsCache<MyTripsBody>;
}

/**
 * The body of `GET /api/mytrips` for `ownerId`: the JSON array of their trips' summaries,
 * newest first (`tripSummariesJson`). With the cache on, the owner's list version is read
 * first (one `findOne` by id) and the body kept under that very version answers if there is
 * one; else the list is read and kept under the version read before it. A write landing
 * between the version read and the list is thus kept under the older version, which the next
 * read (after the write's bump) no longer matches: never a stale body for a version.
 */
export async function listMyTrips(deps: ListMyTripsDeps, ownerId: string): Promise<MyTripsBody> {
  const list = async () => tripSummariesJson(await deps.trips.listSummaries(ownerId));
  if (!deps.mytrips.enabled) return new MyTripsBody(await list(), null);
  const version = await deps.trips.listVersion(ownerId);
  return deps.mytrips.read(ownerId, version, async () => {
    const json = await list();
    const br = await brotli(json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } });
    return new MyTripsBody(json, br);
  });
}
