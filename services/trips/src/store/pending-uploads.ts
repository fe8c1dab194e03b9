import type { Collection, Db } from 'mongodb';

/**
 * Photos being written: recorded before the first object is stored, removed once the trip
 * document holds them (or their objects were removed again). `expiresAt` is a lease the
 * uploading request renews while it works; a record whose lease ran out belongs to a process
 * that died (or hung), and the sweeper removes its objects. Two kinds:
 * - a new trip's: `_id` is the trip id, its objects live under `tripPrefix(_id)`;
 * - photos added to a saved trip: `_id` an id of its own, `tripId` the trip and `photoIds` the
 *   photos (each under `photoPrefix(tripId, photoId)`).
 */
export interface PendingUploadDoc {
  _id: string;
  ownerId: string;
  startedAt: Date;
  expiresAt: Date;
  /** Photos added to a saved trip: the trip. */
  tripId?: string;
  /** Photos added to a saved trip: their ids. */
  photoIds?: string[];
}

/** The `pending_uploads` collection (single-document writes only, like `trips`). */
export class PendingUploadsStore {
  readonly collection: Collection<PendingUploadDoc>;

  constructor(db: Db, name = 'pending_uploads') {
    this.collection = db.collection<PendingUploadDoc>(name);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ expiresAt: 1 });
  }

  /** Records a new upload with a lease until `expiresAt`. */
  async start(doc: PendingUploadDoc): Promise<void> {
    await this.collection.insertOne(doc);
  }

  /**
   * Extends the lease; false when the record is gone (a sweeper judged the upload dead and is
   * removing its objects: the upload must give up).
   */
  async renew(id: string, expiresAt: Date): Promise<boolean> {
    const result = await this.collection.updateOne({ _id: id }, { $set: { expiresAt } });
    return result.matchedCount === 1;
  }

  /** Removes the record (the trip exists, or its objects are gone). */
  async finish(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  /** Records whose lease ran out before `now`, oldest first, at most `limit`. */
  async expired(now: Date, limit: number): Promise<PendingUploadDoc[]> {
    return this.collection
      .find({ expiresAt: { $lt: now } })
      .sort({ expiresAt: 1 })
      .limit(limit)
      .toArray();
  }

  /**
   * Takes an expired record for sweeping: removes it only if its lease is still the one the
   * sweeper saw (an upload that renewed meanwhile keeps it). True when this caller took it.
   */
  async claimExpired(record: PendingUploadDoc): Promise<boolean> {
    const result = await this.collection.deleteOne({
      _id: record._id,
      expiresAt: record.expiresAt,
    });
    return result.deletedCount === 1;
  }

  /** Which of `ids` have a record. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const docs = await this.collection
      .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(docs.map((d) => d._id));
  }
}
