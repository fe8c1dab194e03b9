import type { Collection, Db } from 'mongodb';
import { pushToOutbox, type OutboxEntry, type WithOutbox } from '@wayfarer/service-kit/mongo';
import { KeyedLock } from './lock';

/**
 * One journal entry per destination (`_id` is the destination id). Its pending events live in
 * its own `outbox` array, written in the same single-document update as the text.
 *
 * Every write to an entry document goes through this class and is serialized per document
 * (see `KeyedLock`: FerretDB v1 loses concurrent updates of one document).
 */
export interface JournalEntryDoc extends WithOutbox {
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

export interface PendingOutbox {
  _id: string;
  outbox: OutboxEntry[];
}

const DUPLICATE_KEY = 11000;

export class JournalEntriesStore {
  readonly collection: Collection<JournalEntryDoc>;
  private readonly lock = new KeyedLock();

  constructor(db: Db, name = 'entries') {
    this.collection = db.collection<JournalEntryDoc>(name);
  }

  async contentOf(destinationId: string): Promise<string | null> {
    const doc = await this.collection.findOne(
      { _id: destinationId },
      { projection: { content: 1 } },
    );
    return doc?.content ?? null;
  }

  /** Upserts the entry and appends `events` to its outbox: one single-document write. */
  save(entry: SaveEntry, events: OutboxEntry[]): Promise<void> {
    const write = () =>
      this.collection.updateOne(
        { _id: entry.destinationId },
        {
          $set: {
            ownerId: entry.ownerId,
            content: entry.content,
            date: entry.date,
            updatedAt: entry.updatedAt,
          },
          ...pushToOutbox(events),
        },
        { upsert: true },
      );
    return this.lock.run(entry.destinationId, async () => {
      try {
        await write();
      } catch (err) {
        // two first saves racing (another instance): one inserts, the other hits the key
        if ((err as { code?: number }).code !== DUPLICATE_KEY) throw err;
        await write();
      }
    });
  }

  /** Deletes the entries of these destinations (their unsent events go with them). */
  async removeMany(destinationIds: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const _id of new Set(destinationIds)) {
      deleted += await this.lock.run(_id, async () => {
        const result = await this.collection.deleteOne({ _id });
        return result.deletedCount;
      });
    }
    return deleted;
  }

  /** Entries with unsent events (at most `limit` documents). */
  async pendingOutbox(limit: number): Promise<PendingOutbox[]> {
    const docs = await this.collection
      .find({ 'outbox.0': { $exists: true } })
      .project<PendingOutbox>({ _id: 1, outbox: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ _id: d._id, outbox: d.outbox ?? [] }));
  }

  /**
   * Removes exactly these sent entries from the document's outbox. `$pullAll` with the exact
   * values: FerretDB v1 silently ignores `$pull` with a condition.
   */
  ackOutbox(destinationId: string, sent: OutboxEntry[]): Promise<void> {
    return this.lock.run(destinationId, async () => {
      await this.collection.updateOne({ _id: destinationId }, { $pullAll: { outbox: sent } });
    });
  }
}
