import type { Collection, Db } from 'mongodb';
import { notDeleted, pushToOutbox, type OutboxEntry } from '@wayfarer/service-kit/mongo';
import type { TripDoc } from '../domain/trip';

/** The API never needs the pending events. */
const WITHOUT_OUTBOX = { projection: { outbox: 0 } } as const;

/**
 * The `trips` collection. Every query shape here runs on FerretDB v1 as well as MongoDB 7
 * (verified by the integration tests): single-document writes only, no `$pull` with a
 * condition, and no projection on findAndModify (FerretDB v1 answers NotImplemented).
 *
 * FerretDB v1 applies an update as read, modify, replace the whole document, with no isolation:
 * two concurrent updates of one document both "match" and the last write wins, losing the other.
 * A trip is written by an insert, by the outbox relay (clearing published events) and by the
 * soft-delete; see usecases/delete-trip.ts for how the last two are kept apart.
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
    await this.collection.insertOne(trip);
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

  /** As findOwned, with the pending events (`outbox`) too. */
  async findOwnedWithOutbox(id: string, ownerId: string): Promise<TripDoc | null> {
    return this.collection.findOne({ _id: id, ownerId, ...notDeleted });
  }

  /** Any live trip by id (access is checked by the caller). */
  async findLive(id: string): Promise<TripDoc | null> {
    return this.collection.findOne({ _id: id, ...notDeleted }, WITHOUT_OUTBOX);
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
      { $set: { deletedAt }, ...pushToOutbox([event]) },
    );
    return result.modifiedCount === 1;
  }
}
