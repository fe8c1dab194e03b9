import type { Collection, Db } from 'mongodb';
import { TRIP_FIRST_VERSION, type TripVisibility } from '@wayfarer/contracts';

/**
 * Projection of destination owners, built from trips' `trip.created` / `trip.updated` /
 * `trip.deleted`. A deleted trip's destinations stay as tombstones (`deletedAt` set), so a
 * replayed or late `trip.created` cannot bring them (and their journals) back: ids are never
 * reused. Each keeps its trip's visibility and the trip version that said it, so an older
 * `trip.updated` arriving late cannot undo a newer one; documents written before trips had a
 * visibility have neither (`friends`, version 1).
 */
export interface DestinationDoc {
  _id: string;
  ownerId: string;
  tripId: string;
  deletedAt: Date | null;
  visibility?: TripVisibility;
  version?: number;
}

/** Who may see a live destination: its owner and its trip's visibility. */
export interface DestinationAccess {
  ownerId: string;
  visibility: TripVisibility;
}

const DUPLICATE_KEY = 11000;

export class DestinationsStore {
  readonly collection: Collection<DestinationDoc>;

  constructor(db: Db, name = 'destinations') {
    this.collection = db.collection<DestinationDoc>(name);
  }

  /** The owner of a live destination, or null (unknown or deleted). */
  async ownerOf(destinationId: string): Promise<string | null> {
    return (await this.accessOf(destinationId))?.ownerId ?? null;
  }

  /** The owner and trip visibility of a live destination, or null (unknown or deleted). */
  async accessOf(destinationId: string): Promise<DestinationAccess | null> {
    const doc = await this.collection.findOne(
      { _id: destinationId, deletedAt: null },
      { projection: { ownerId: 1, visibility: 1 } },
    );
    return doc ? { ownerId: doc.ownerId, visibility: doc.visibility ?? 'friends' } : null;
  }

  /**
   * Records the destinations of a created trip (or those a `trip.updated` names), with the
   * trip's visibility as of `version`. Insert-if-absent: a redelivery changes nothing, an
   * existing tombstone stays dead and an owner is never replaced. Returns the ids that already
   * existed with another owner or trip (a conflict worth logging).
   */
  async addTripDestinations(
    tripId: string,
    ownerId: string,
    destinationIds: readonly string[],
    trip: { visibility: TripVisibility; version: number } = {
      visibility: 'friends',
      version: TRIP_FIRST_VERSION,
    },
  ): Promise<string[]> {
    const conflicts: string[] = [];
    for (const _id of new Set(destinationIds)) {
      try {
        await this.collection.insertOne({ _id, ownerId, tripId, deletedAt: null, ...trip });
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
   * The trip's visibility after its change of `version` (`trip.updated`), on every live
   * destination of the trip holding an older version (none: version 1); a replay or an older
   * update arriving late changes nothing.
   */
  async setTripVisibility(
    tripId: string,
    visibility: TripVisibility,
    version: number,
  ): Promise<void> {
    await this.collection.updateMany(
      { tripId, deletedAt: null, version: { $not: { $gte: version } } },
      { $set: { visibility, version } },
    );
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
