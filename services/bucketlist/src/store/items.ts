import { randomUUID } from 'node:crypto';
import type { BucketListItem, NewBucketListItem, VisitedByTrip } from '@wayfarer/contracts';
import type { Pool, PoolClient } from '@wayfarer/service-kit/pg';
import type { UnvisitedPlace } from '../domain/visits';

interface ItemRow {
  id: string;
  place: string;
  latitude: number;
  longitude: number;
  description: string | null;
  visited_at: Date | null;
  visited_trip_id: string | null;
  visited_trip_name: string | null;
}

const ITEM_COLUMNS =
  'id, place, latitude, longitude, description, visited_at, visited_trip_id, visited_trip_name';

/** A row as the API answers it (absent optional fields are left out, not null). */
function toItem(row: ItemRow): BucketListItem {
  const item: BucketListItem = {
    _id: row.id,
    place: row.place,
    latitude: row.latitude,
    longitude: row.longitude,
    isVisited: row.visited_at !== null,
  };
  if (row.description !== null) item.description = row.description;
  if (row.visited_at !== null) item.visitedAt = row.visited_at.toISOString();
  if (row.visited_trip_id !== null) {
    item.visitedByTrip = { tripId: row.visited_trip_id, name: row.visited_trip_name ?? '' };
  }
  return item;
}

/** An item as the account export holds it: with its itinerary. */
export type ExportedBucketListItem = BucketListItem & { itinerary: string[] };

/**
 * Bucket-list items in PostgreSQL. Reads use the pool; writes run in the caller's transaction
 * (`client`: the use case's, which writes the change's events to the outbox in it). Every
 * query is scoped by owner: another user's item is not found.
 */
export class ItemsStore {
  constructor(private readonly pool: Pool) {}

  /** Every item of `ownerId`, oldest first, visited ones included. */
  async list(ownerId: string): Promise<BucketListItem[]> {
    const { rows } = await this.pool.query<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM bucket_items WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return rows.map(toItem);
  }

  /** Every item of `ownerId` with its itinerary, oldest first (the account export). */
  async listWithItineraries(ownerId: string): Promise<ExportedBucketListItem[]> {
    const { rows } = await this.pool.query<ItemRow & { itinerary: string[] }>(
      `SELECT ${ITEM_COLUMNS}, itinerary FROM bucket_items
        WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return rows.map((row) => ({ ...toItem(row), itinerary: row.itinerary }));
  }

  /** Adds a place (a new id), in the caller's transaction. */
  async insert(
    client: PoolClient,
    ownerId: string,
    input: NewBucketListItem,
  ): Promise<BucketListItem> {
    const { rows } = await client.query<ItemRow>(
      `INSERT INTO bucket_items (id, owner_id, place, latitude, longitude, description)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ITEM_COLUMNS}`,
      [
        randomUUID(),
        ownerId,
        input.place,
        input.latitude,
        input.longitude,
        input.description ?? null,
      ],
    );
    return toItem(rows[0]!);
  }

  /** Marks the owner's unvisited item visited at `at`; null when there is no such unvisited item. */
  async markVisited(
    client: PoolClient,
    ownerId: string,
    id: string,
    at: Date,
  ): Promise<BucketListItem | null> {
    const { rows } = await client.query<ItemRow>(
      `UPDATE bucket_items SET visited_at = $3
        WHERE id = $1 AND owner_id = $2 AND visited_at IS NULL
       RETURNING ${ITEM_COLUMNS}`,
      [id, ownerId, at],
    );
    return rows[0] ? toItem(rows[0]) : null;
  }

  /** The owner's item, or null. */
  async find(client: PoolClient, ownerId: string, id: string): Promise<BucketListItem | null> {
    const { rows } = await client.query<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM bucket_items WHERE id = $1 AND owner_id = $2`,
      [id, ownerId],
    );
    return rows[0] ? toItem(rows[0]) : null;
  }

  /** The owner's item's itinerary; null when the owner has no such item. */
  async itinerary(ownerId: string, id: string): Promise<string[] | null> {
    const { rows } = await this.pool.query<{ itinerary: string[] }>(
      'SELECT itinerary FROM bucket_items WHERE id = $1 AND owner_id = $2',
      [id, ownerId],
    );
    return rows[0]?.itinerary ?? null;
  }

  /**
   * The owner's item's itinerary, the row locked until the caller's transaction ends; null
   * when the owner has no such item.
   */
  async lockItinerary(client: PoolClient, ownerId: string, id: string): Promise<string[] | null> {
    const { rows } = await client.query<{ itinerary: string[] }>(
      'SELECT itinerary FROM bucket_items WHERE id = $1 AND owner_id = $2 FOR UPDATE',
      [id, ownerId],
    );
    return rows[0]?.itinerary ?? null;
  }

  /** Replaces an item's itinerary (locked by `lockItinerary` in the same transaction). */
  async setItinerary(client: PoolClient, id: string, itinerary: readonly string[]): Promise<void> {
    await client.query('UPDATE bucket_items SET itinerary = $2 WHERE id = $1', [id, itinerary]);
  }

  /** The owner's unvisited places (what a trip may tick off), in the caller's transaction. */
  async unvisited(client: PoolClient, ownerId: string): Promise<UnvisitedPlace[]> {
    const { rows } = await client.query<UnvisitedPlace>(
      `SELECT id, latitude, longitude FROM bucket_items
        WHERE owner_id = $1 AND visited_at IS NULL`,
      [ownerId],
    );
    return rows;
  }

  /**
   * Marks these items of the owner visited by `trip` at `at`, in the caller's transaction; the
   * ones visited meanwhile are left as they are. Returns the items it changed.
   */
  async visitByTrip(
    client: PoolClient,
    ownerId: string,
    ids: readonly string[],
    trip: VisitedByTrip,
    at: Date,
  ): Promise<BucketListItem[]> {
    if (ids.length === 0) return [];
    const { rows } = await client.query<ItemRow>(
      `UPDATE bucket_items
          SET visited_at = $3, visited_trip_id = $4, visited_trip_name = $5
        WHERE id = ANY($1::uuid[]) AND owner_id = $2 AND visited_at IS NULL
       RETURNING ${ITEM_COLUMNS}`,
      [ids, ownerId, at, trip.tripId, trip.name],
    );
    return rows.map(toItem);
  }

  /**
   * Erasure: every place of the owner (visited ones and itineraries included) and the
   * `Idempotency-Key`s of their adds (each holds a copy of an answer naming a place).
   */
  async eraseOwner(client: PoolClient, ownerId: string): Promise<void> {
    await client.query('DELETE FROM bucket_items WHERE owner_id = $1', [ownerId]);
    await client.query('DELETE FROM idempotency_keys WHERE owner_id = $1', [ownerId]);
  }
}
