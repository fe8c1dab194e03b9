import type { Collection, Db } from 'mongodb';
import {
  keyedFilter,
  keyedRecord,
  MongoIdempotency,
  withOutboxEvents,
  type OutboxEntry,
  type WithIdempotency,
  type WithOutbox,
} from '@wayfarer/service-kit/mongo';

/**
 * One journal entry per destination (`_id` is the destination id). Its pending events live in
 * its own `outbox` array, written in the same single-document update as the text; service-kit's
 * `startMongoOutboxRelay` publishes them and removes exactly the ones it sent, so a save landing
 * meanwhile is never undone (single-document atomicity, no locks).
 */
export interface JournalEntryDoc extends WithOutbox, WithIdempotency {
  _id: string;
  ownerId: string;
  content: string;
  /** The client's claimed time of the save, as sent. */
  date: string;
  /** The server's time of the save. */
  updatedAt: Date;
}

export interface SaveEntry {
  destinationId: string;
  ownerId: string;
  content: string;
  date: string;
  updatedAt: Date;
}

/** An entry as the account export holds it: its destination, text and times. */
export interface ExportedJournalEntry {
  destinationId: string;
  content: string;
  /** The client's claimed time of the save, as sent. */
  date: string;
  /** The server's time of the save (ISO). */
  updatedAt: string;
}

const DUPLICATE_KEY = 11000;

export class JournalEntriesStore {
  readonly collection: Collection<JournalEntryDoc>;
  /**
   * The `Idempotency-Key` of the entry's latest keyed save, with its answer (`idempotency`, in
   * the entry: written by the save itself; service-kit `MongoIdempotency`, unique index made and
   * pruned by `openMongoService`).
   */
  readonly idempotency: MongoIdempotency;

  constructor(db: Db, name = 'entries') {
    this.collection = db.collection<JournalEntryDoc>(name);
    this.idempotency = new MongoIdempotency(this.collection);
  }

  async contentOf(destinationId: string): Promise<string | null> {
    const doc = await this.collection.findOne(
      { _id: destinationId },
      { projection: { content: 1 } },
    );
    return doc?.content ?? null;
  }

  /**
   * Upserts the entry and appends `events` to its outbox: one single-document write. In a keyed
   * save (service-kit `runUseCase`) the write also sets the entry's `idempotency` record
   * (`keyedRecord`) and matches only an entry not holding its key (`keyedFilter`): the same
   * save again writes nothing, its upsert being refused on `_id` (a duplicate key error, which
   * the wrapper answers).
   */
  async save(entry: SaveEntry, events: OutboxEntry[]): Promise<void> {
    const write = () =>
      this.collection.updateOne(
        { _id: entry.destinationId, ...keyedFilter(this.collection) },
        withOutboxEvents<JournalEntryDoc>(
          {
            $set: {
              ownerId: entry.ownerId,
              content: entry.content,
              date: entry.date,
              updatedAt: entry.updatedAt,
              ...keyedRecord(this.collection, entry),
            },
          },
          events,
        ),
        { upsert: true },
      );
    try {
      await write();
    } catch (err) {
      // two first saves racing on MongoDB: one inserts, the other's upsert hits the key
      if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
      await write();
    }
  }

  /** Every entry the user wrote, oldest save first (the account export). */
  async byOwner(ownerId: string): Promise<ExportedJournalEntry[]> {
    const docs = await this.collection
      .find({ ownerId }, { projection: { content: 1, date: 1, updatedAt: 1 } })
      .sort({ updatedAt: 1, _id: 1 })
      .toArray();
    return docs.map((doc) => ({
      destinationId: doc._id,
      content: doc.content,
      date: doc.date,
      updatedAt: doc.updatedAt.toISOString(),
    }));
  }

  /** Erasure (auth's `user.deleted`): every entry the user wrote (unsent events with them). */
  async eraseOwner(ownerId: string): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({ ownerId });
    return deletedCount;
  }

  /** Deletes the entries of these destinations (their unsent events go with them). */
  async removeMany(destinationIds: readonly string[]): Promise<number> {
    const ids = [...new Set(destinationIds)];
    if (ids.length === 0) return 0;
    const result = await this.collection.deleteMany({ _id: { $in: ids } });
    return result.deletedCount;
  }
}
