import type { Collection } from 'mongodb';
import type { OutboxEntry } from '@wayfarer/service-kit/mongo';
import { importOwner } from '../domain/import/unit';
import { tripSummaryJson, type TripDoc } from '../domain/trip';
import type { ListVersionsStore } from './list-versions';
import { SUMMARY_VERSION, type StoredTripDoc } from './stored-trip';

/**
 * The trips of imports still running, in the `trips` collection: written hidden under
 * `importOwner(importId)` (no read, list or event sees them), shown all at once by the
 * import's commit, or removed when it fails (an import is one unit).
 */
export class HiddenTripsStore {
  constructor(
    private readonly collection: Collection<StoredTripDoc>,
    private readonly versions: ListVersionsStore,
  ) {}

  /**
   * Inserts a trip of the running import `importId`, hidden (`StoredTripDoc.heldOutbox`): under
   * `importOwner(importId)`, its `trip.created` (made for its real owner) and its photos'
   * variants held. No list version moves: no list shows it.
   */
  async insert(trip: TripDoc, importId: string, events: OutboxEntry[]): Promise<void> {
    const { pendingVariants, ...rest } = trip;
    await this.collection.insertOne({
      ...rest,
      ownerId: importOwner(importId),
      summaryJson: tripSummaryJson(trip),
      summaryVersion: SUMMARY_VERSION,
      rev: 0,
      heldOutbox: events,
      ...(pendingVariants && pendingVariants.length > 0 ? { heldVariants: pendingVariants } : {}),
    });
  }

  /**
   * The commit of the import `importId`: every trip it wrote hidden gets `ownerId`, its
   * `trip.created` into the outbox (flagged for the relay) and its photos into
   * `pendingVariants`, in ONE update of them all (a single `updateMany`, which the server
   * carries out whole even when the caller dies meanwhile); then the owner's list version is
   * bumped. Idempotent: run again (a retry, the sweeper rolling a commit forward) it finds
   * nothing hidden and only bumps. Returns how many trips it showed.
   */
  async reveal(importId: string, ownerId: string): Promise<number> {
    const result = await this.collection.updateMany(
      { ownerId: importOwner(importId) },
      {
        $set: { ownerId, outboxPending: true },
        $rename: { heldOutbox: 'outbox', heldVariants: 'pendingVariants' },
      },
    );
    await this.versions.bump(ownerId);
    return result.modifiedCount;
  }

  /** The trips the import `importId` wrote and still hides: ids and held variants. */
  async list(importId: string): Promise<Pick<StoredTripDoc, '_id' | 'heldVariants'>[]> {
    return this.collection
      .find({ ownerId: importOwner(importId) }, { projection: { _id: 1, heldVariants: 1 } })
      .toArray();
  }

  /**
   * Removes a hidden trip of the import `importId` (it failed, or died): never shown, never
   * announced, so nothing else knows of it and the document simply goes.
   */
  async remove(importId: string, tripId: string): Promise<void> {
    await this.collection.deleteOne({ _id: tripId, ownerId: importOwner(importId) });
  }
}
