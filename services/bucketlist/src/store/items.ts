import { randomUUID } from 'node:crypto';
import type { BucketListItem, NewBucketListItem, VisitedByTrip } from '@wayfarer/contracts';
import type { IdempotencyClaim, IdempotentOutcome, RecordedAnswer } from '@wayfarer/service-kit';
import {
  idempotentTransaction,
  withTransaction,
  type Pool,
  type PoolClient,
} from '@wayfarer/service-kit/pg';
import type { UnvisitedPlace } from '../domain/visits';
import { enqueueItemAdded, enqueueItemVisited, enqueueItinerarySaved } from '../events/outbox';

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
 * Bucket-list items in PostgreSQL. Every change writes its event to the outbox in the same
 * transaction; a change that changes nothing (visiting a visited place, saving the same
 * itinerary) writes none. Every query is scoped by owner: another user's item is not found.
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

  /** Every item of `ownerId` with its itinerary, oldest first (the account export, issue 22). */
  async listWithItineraries(ownerId: string): Promise<ExportedBucketListItem[]> {
    const { rows } = await this.pool.query<ItemRow & { itinerary: string[] }>(
      `SELECT ${ITEM_COLUMNS}, itinerary FROM bucket_items
        WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return rows.map((row) => ({ ...toItem(row), itinerary: row.itinerary }));
  }

  /**
   * Adds a place, with its event, in one transaction; with a `claim` (the request's
   * `Idempotency-Key`) the key and `answer` are recorded in that same transaction, and a retry
   * with the key is answered what the first was, adding nothing (service-kit
   * `idempotentTransaction`).
   */
  async add(
    ownerId: string,
    input: NewBucketListItem,
    claim: IdempotencyClaim | null,
    answer: (item: BucketListItem) => RecordedAnswer,
  ): Promise<IdempotentOutcome<BucketListItem>> {
    return idempotentTransaction(this.pool, claim, async (client) => {
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
      const item = toItem(rows[0]!);
      await enqueueItemAdded(client, ownerId, item);
      return { answer: answer(item), value: item };
    });
  }

  /**
   * Marks the owner's item visited now (the checkbox). Null when the owner has no such item;
   * an item already visited is answered as it is, with no new event.
   */
  async visit(ownerId: string, id: string, now: Date): Promise<BucketListItem | null> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<ItemRow>(
        `UPDATE bucket_items SET visited_at = $3
          WHERE id = $1 AND owner_id = $2 AND visited_at IS NULL
         RETURNING ${ITEM_COLUMNS}`,
        [id, ownerId, now],
      );
      if (rows[0]) {
        const item = toItem(rows[0]);
        await enqueueItemVisited(client, ownerId, item);
        return item;
      }
      return this.find(client, ownerId, id);
    });
  }

  /** The owner's item's itinerary; null when the owner has no such item. */
  async itinerary(ownerId: string, id: string): Promise<string[] | null> {
    const { rows } = await this.pool.query<{ itinerary: string[] }>(
      'SELECT itinerary FROM bucket_items WHERE id = $1 AND owner_id = $2',
      [id, ownerId],
    );
    return rows[0]?.itinerary ?? null;
  }

  /** Replaces the owner's item's itinerary; null when the owner has no such item. */
  async saveItinerary(ownerId: string, id: string, itinerary: string[]): Promise<string[] | null> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ itinerary: string[] }>(
        'SELECT itinerary FROM bucket_items WHERE id = $1 AND owner_id = $2 FOR UPDATE',
        [id, ownerId],
      );
      const saved = rows[0]?.itinerary;
      if (saved === undefined) return null;
      if (sameList(saved, itinerary)) return saved;
      await client.query('UPDATE bucket_items SET itinerary = $2 WHERE id = $1', [id, itinerary]);
      await enqueueItinerarySaved(client, ownerId, id, itinerary);
      return itinerary;
    });
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
   * Marks these items of the owner visited by `trip` at `at`, in the caller's transaction
   * (the consumer's, with its processed-event marker); the ones visited meanwhile are left as
   * they are. Returns the items it changed.
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
    const items = rows.map(toItem);
    for (const item of items) await enqueueItemVisited(client, ownerId, item);
    return items;
  }

  private async find(
    client: PoolClient,
    ownerId: string,
    id: string,
  ): Promise<BucketListItem | null> {
    const { rows } = await client.query<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM bucket_items WHERE id = $1 AND owner_id = $2`,
      [id, ownerId],
    );
    return rows[0] ? toItem(rows[0]) : null;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}
