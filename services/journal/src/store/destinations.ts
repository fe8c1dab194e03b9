import type { Collection, Db } from 'mongodb';

/**
 * Projection of destination owners, built from trips' `trip.created` / `trip.deleted`.
 * A deleted trip's destinations stay as tombstones (`deletedAt` set), so a replayed or late
 * `trip.created` cannot bring them (and their journals) back: ids are never reused.
 */
export interface DestinationDoc {
  _id: string;
  ownerId: string;
  tripId: string;
  deletedAt: Date | null;
}

const DUPLICATE_KEY = 11000;

export class DestinationsStore {
  readonly collection: Collection<DestinationDoc>;

  constructor(db: Db, name = 'destinations') {
    this.collection = db.collection<DestinationDoc>(name);
  }

  /** The owner of a live destination, or null (unknown or deleted). */
  async ownerOf(destinationId: string): Promise<string | null> {
    const doc = await this.collection.findOne(
      { _id: destinationId, deletedAt: null },
      { projection: { ownerId: 1 } },
    );
    return doc?.ownerId ?? null;
  }

  /**
   * Records the destinations of a created trip. Insert-if-absent: a redelivery changes
   * nothing, an existing tombstone stays dead and an owner is never replaced. Returns the ids
   * that already existed with another owner or trip (a conflict worth logging).
   */
  async addTripDestinations(
    tripId: string,
    ownerId: string,
    destinationIds: readonly string[],
  ): Promise<string[]> {
    const conflicts: string[] = [];
    for (const _id of new Set(destinationIds)) {
      try {
        await this.collection.insertOne({ _id, ownerId, tripId, deletedAt: null });
      } catch (err) {
        if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
        const existing = await this.collection.findOne({ _id });
        if (existing && (existing.ownerId !== ownerId || existing.tripId !== tripId)) {
          conflicts.push(_id);
        }
      }
    }
    return conflicts;
  }

  /**
   * Marks a deleted trip's destinations dead (upserting a tombstone for any not seen yet).
   * A tombstone names no owner (`TOMBSTONE_OWNER`): only its id matters, and an owner who closed
   * their account must not stay named (the erasure's `trip.deleted` may come after
   * `eraseOwner`). Idempotent: repeating it sets the same fields again.
   */
  async removeTripDestinations(
    tripId: string,
    destinationIds: readonly string[],
    deletedAt: Date,
  ): Promise<void> {
    for (const _id of new Set(destinationIds)) {
      await this.collection.updateOne(
        { _id },
        { $set: { deletedAt, ownerId: TOMBSTONE_OWNER }, $setOnInsert: { tripId } },
        { upsert: true },
      );
    }
  }

  /** Erasure (auth's `user.deleted`): every destination the user owns, live or not. */
  async eraseOwner(ownerId: string): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({ ownerId });
    return deletedCount;
  }
}

/** The owner of a tombstone: nobody. */
export const TOMBSTONE_OWNER = '-';
