import type { TripVisibility } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import type { CountryCode } from '../domain/stats';
import type { friendTrip } from '../domain/trips';

/** A trip as social projects it: what friends see, and each destination's country. */
export type ProjectedTrip = ReturnType<typeof friendTrip> & { countries: readonly CountryCode[] };

/**
 * The owner of a tombstone: nobody. A tombstone needs only the trip's id, and an owner who
 * closed their account must not stay named in it (trips' `trip.deleted` of an erasure may
 * arrive after social erased the owner). Not '' (the friends cache reads '' as "everyone").
 */
export const TOMBSTONE_OWNER = '-';

/** A trips row's id, owner_id, created_at, doc, summary, visibility and countries. */
const rowOf = (ownerId: string, trip: ProjectedTrip, at: Date, visibility: TripVisibility) => [
  trip.doc._id,
  ownerId,
  at,
  JSON.stringify(trip.doc),
  JSON.stringify(trip.summary),
  visibility,
  JSON.stringify(trip.countries),
];

/**
 * Friends' trips (trips' events), written in the consumer's transaction (the one recording the
 * event as processed). Each write is idempotent and order-safe on its own.
 */
export class FriendTripsStore {
  /** A created trip; a trip already known (a replay, or deleted since) is left as it is. */
  async add(
    client: PoolClient,
    ownerId: string,
    trip: ProjectedTrip,
    createdAt: Date,
    visibility: TripVisibility = 'friends',
  ): Promise<void> {
    await client.query(
      `INSERT INTO trips (id, owner_id, created_at, doc, summary, visibility, countries)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO NOTHING`,
      rowOf(ownerId, trip, createdAt, visibility),
    );
  }

  /**
   * A changed trip (trips' `trip.updated`, the whole trip after the change): replaces what friends
   * see of it, only when `version` is newer than the one held, so a replay or an older update
   * arriving late changes nothing, and never on a tombstone. A trip not seen yet is added (its
   * `trip.created` is older; arriving after this, it changes nothing).
   */
  async update(
    client: PoolClient,
    ownerId: string,
    trip: ProjectedTrip,
    version: number,
    at: Date,
    visibility: TripVisibility = 'friends',
  ): Promise<void> {
    await client.query(
      `INSERT INTO trips (id, owner_id, created_at, doc, summary, visibility, countries, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, summary = EXCLUDED.summary,
                                      version = EXCLUDED.version, visibility = EXCLUDED.visibility,
                                      countries = EXCLUDED.countries
         WHERE NOT trips.deleted AND trips.version < EXCLUDED.version`,
      [...rowOf(ownerId, trip, at, visibility), version],
    );
  }

  /** A deleted trip becomes a tombstone (even one never seen created: it cannot come back). */
  async remove(client: PoolClient, tripId: string, deletedAt: Date): Promise<void> {
    // the update still names the real owner to the friends cache (the trigger's OLD row)
    await client.query(
      `INSERT INTO trips (id, owner_id, created_at, deleted) VALUES ($1, $2, $3, true)
       ON CONFLICT (id) DO UPDATE
         SET deleted = true, doc = NULL, summary = NULL, countries = NULL,
             owner_id = EXCLUDED.owner_id`,
      [tripId, TOMBSTONE_OWNER, deletedAt],
    );
  }

  /** Erasure: every trip of `ownerId` as friends saw it. */
  async eraseOwner(client: PoolClient, ownerId: string): Promise<void> {
    await client.query('DELETE FROM trips WHERE owner_id = $1', [ownerId]);
  }
}
