import type { Collection, Db } from 'mongodb';
import {
  notDeleted,
  withOutboxEvents,
  withPendingFlag,
  type OutboxEntry,
} from '@wayfarer/service-kit/mongo';
import type { TripDoc } from '../domain/trip';

/** The API never needs the pending events nor the relay's bookkeeping. */
const WITHOUT_OUTBOX = { projection: { outbox: 0, outboxPending: 0, outboxClaim: 0 } } as const;

/**
 * The `trips` collection. Single-document writes only (no transactions on the local server):
 * a trip is written by its insert (with `trip.created` in its outbox), by the soft-delete
 * (with `trip.deleted`) and by the outbox relay (removing sent entries, then the deleted
 * document). Each is one atomic update, so none can undo another.
 */
export class TripsRepo {
  readonly collection: Collection<TripDoc>;

  constructor(db: Db, name = 'trips') {
    this.collection = db.collection<TripDoc>(name);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ ownerId: 1, createdAt: -1 });
  }

  /** Inserts a new trip with its `trip.created` event already in `outbox` (one write). */
  async insert(trip: TripDoc): Promise<void> {
    await this.collection.insertOne(withPendingFlag(trip));
  }

  /** The owner's trips, newest first; soft-deleted ones (pending removal) excluded. */
  async listByOwner(ownerId: string): Promise<TripDoc[]> {
    return this.collection
      .find({ ownerId, ...notDeleted }, WITHOUT_OUTBOX)
      .sort({ createdAt: -1, _id: -1 })
      .toArray() as Promise<TripDoc[]>;
  }

  /** The trip if `ownerId` owns it and it is not deleted. */
  async findOwned(id: string, ownerId: string): Promise<TripDoc | null> {
    return this.collection.findOne({ _id: id, ownerId, ...notDeleted }, WITHOUT_OUTBOX);
  }

  /** Any live trip by id (access is checked by the caller). */
  async findLive(id: string): Promise<TripDoc | null> {
    return this.collection.findOne({ _id: id, ...notDeleted }, WITHOUT_OUTBOX);
  }

  /** Which of `ids` have a trip document, live or soft-deleted (the sweeper keeps their objects). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const docs = await this.collection
      .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(docs.map((d) => d._id));
  }

  /**
   * Marks the trip deleted and queues its `trip.deleted` event in one single-document update;
   * the outbox relay publishes the event and then removes the document. Returns false when the
   * trip was not (or no longer) the owner's live trip, e.g. a concurrent delete won.
   */
  async softDelete(
    id: string,
    ownerId: string,
    deletedAt: Date,
    event: OutboxEntry,
  ): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: id, ownerId, ...notDeleted },
      withOutboxEvents<TripDoc>({ $set: { deletedAt } }, [event]),
    );
    return result.modifiedCount === 1;
  }
}
