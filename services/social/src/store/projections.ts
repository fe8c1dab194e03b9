import { DEFAULT_AVATAR } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { searchKey } from '../domain/search';
import type { friendTrip } from '../domain/trips';

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
  trip: ReturnType<typeof friendTrip>,
  createdAt: Date,
): Promise<void> {
  await client.query(
    `INSERT INTO trips (id, owner_id, created_at, doc, summary) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING`,
    [trip.doc._id, ownerId, createdAt, JSON.stringify(trip.doc), JSON.stringify(trip.summary)],
  );
}

/** A deleted trip becomes a tombstone (even one never seen created: it cannot come back). */
export async function removeTrip(
  client: PoolClient,
  ownerId: string,
  tripId: string,
  deletedAt: Date,
): Promise<void> {
  await client.query(
    `INSERT INTO trips (id, owner_id, created_at, deleted) VALUES ($1, $2, $3, true)
     ON CONFLICT (id) DO UPDATE SET deleted = true, doc = NULL, summary = NULL`,
    [tripId, ownerId, deletedAt],
  );
}
