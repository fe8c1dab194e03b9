import { DEFAULT_AVATAR, type TripVisibility } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { searchKey } from '../domain/search';
import type { CountryCode } from '../domain/stats';
import type { friendTrip } from '../domain/trips';

/** A trip as social projects it: what friends see, and each destination's country (issue 22). */
export type ProjectedTrip = ReturnType<typeof friendTrip> & { countries: readonly CountryCode[] };

/**
 * social's read models of other services' events, written in the consumer's transaction (the
 * one recording the event as processed). Each write is idempotent and order-safe on its own.
 */

/** A user as auth announced them; announced again (a replay), the row is the same. */
export async function upsertUser(
  client: PoolClient,
  user: { userId: string; name: string; profilePicture: string },
): Promise<void> {
  await client.query(
    `INSERT INTO users (id, name, search_key, picture) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE
       SET name = EXCLUDED.name, search_key = EXCLUDED.search_key, picture = EXCLUDED.picture`,
    [user.userId, user.name, searchKey(user.name), user.profilePicture || DEFAULT_AVATAR],
  );
}

/** A created trip; a trip already known (a replay, or deleted since) is left as it is. */
export async function addTrip(
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
    [
      trip.doc._id,
      ownerId,
      createdAt,
      JSON.stringify(trip.doc),
      JSON.stringify(trip.summary),
      visibility,
      JSON.stringify(trip.countries),
    ],
  );
}

/**
 * The owner of a tombstone: nobody. A tombstone needs only the trip's id, and an owner who
 * closed their account must not stay named in it (trips' `trip.deleted` of an erasure may
 * arrive after social erased the owner). Not '' (the friends cache reads '' as "everyone").
 */
export const TOMBSTONE_OWNER = '-';

/**
 * A changed trip (trips' `trip.updated`, the whole trip after the change): replaces what friends
 * see of it, only when `version` is newer than the one held, so a replay or an older update
 * arriving late changes nothing, and never on a tombstone. A trip not seen yet is added (its
 * `trip.created` is older; arriving after this, it changes nothing).
 */
export async function updateTrip(
  client: PoolClient,
  ownerId: string,
  trip: ProjectedTrip,
  version: number,
  at: Date,
  visibility: TripVisibility = 'friends',
): Promise<void> {
  await client.query(
    `INSERT INTO trips (id, owner_id, created_at, doc, summary, version, visibility, countries)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, summary = EXCLUDED.summary,
                                    version = EXCLUDED.version, visibility = EXCLUDED.visibility,
                                    countries = EXCLUDED.countries
       WHERE NOT trips.deleted AND trips.version < EXCLUDED.version`,
    [
      trip.doc._id,
      ownerId,
      at,
      JSON.stringify(trip.doc),
      JSON.stringify(trip.summary),
      version,
      visibility,
      JSON.stringify(trip.countries),
    ],
  );
}

/** A deleted trip becomes a tombstone (even one never seen created: it cannot come back). */
export async function removeTrip(
  client: PoolClient,
  tripId: string,
  deletedAt: Date,
): Promise<void> {
  // the update still names the real owner to the friends cache (the trigger's OLD row)
  await client.query(
    `INSERT INTO trips (id, owner_id, created_at, deleted) VALUES ($1, $2, $3, true)
     ON CONFLICT (id) DO UPDATE
       SET deleted = true, doc = NULL, summary = NULL, countries = NULL,
           owner_id = EXCLUDED.owner_id`,
    [tripId, TOMBSTONE_OWNER, deletedAt],
  );
}

/** A user changed their name or picture (auth's `user.updated`): the row as announced. */
export { upsertUser as updateUser };

/**
 * Erasure (auth's `user.deleted`), in the consumer's transaction: the user's row, friendships
 * (both sides), requests (both ways), trips as friends saw them, idempotency keys and outbox
 * rows. Returns the friends they had, whose pairs the caller announces as erased.
 */
export async function eraseUser(client: PoolClient, userId: string): Promise<string[]> {
  const { rows } = await client.query<{ friend_id: string }>(
    'DELETE FROM friendships WHERE user_id = $1 RETURNING friend_id',
    [userId],
  );
  await client.query('DELETE FROM friendships WHERE friend_id = $1', [userId]);
  await client.query('DELETE FROM friend_requests WHERE from_id = $1 OR to_id = $1', [userId]);
  await client.query('DELETE FROM trips WHERE owner_id = $1', [userId]);
  await client.query('DELETE FROM idempotency_keys WHERE owner_id = $1', [userId]);
  await client.query('DELETE FROM users WHERE id = $1', [userId]);
  return rows.map((r) => r.friend_id);
}
