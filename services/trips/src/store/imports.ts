import type { Collection, Db } from 'mongodb';
import type { RecordedAnswer } from '@wayfarer/service-kit';

/**
 * Where an import is (one unit, all of its trips or none):
 * - `running`: its trips are being written, hidden (`TripsStore.insertHidden`), while its
 *   `holder` (one request's attempt) renews the lease `expiresAt`;
 * - `committing`: its answer is recorded and its trips are being shown (`revealImport`);
 *   whoever finds it so (a retry, the sweeper) finishes that, which is idempotent;
 * - `done`: shown; a retry with its key is answered `answer` (24 h, then pruned);
 * - `abandoned`: it failed, or its lease ran out (its process died): its key is free again and
 *   its hidden trips and their photos are being removed (by the request itself, a retry that
 *   took over, or the sweeper);
 * - `failed`: nothing of it is left; kept for the rate limit's window, then pruned.
 */
export type ImportState = 'running' | 'committing' | 'done' | 'abandoned' | 'failed';

export interface ImportDoc {
  /** The import's id (a trip id's shape: time-ordered), its hidden trips' `importOwner`. */
  _id: string;
  ownerId: string;
  startedAt: Date;
  state: ImportState;
  /** The attempt holding the lease (a random token of the request running it). */
  holder: string;
  /** The lease: past it, a `running` import's process is taken for dead. */
  expiresAt: Date;
  /**
   * Its `Idempotency-Key`, `[owner, key]` as JSON (service-kit's scope; unique index): absent
   * without a key, and taken off once the import failed (the key is free again).
   */
  scope?: string;
  /** The request's fingerprint (the same key with another file is a 422). */
  fingerprint?: string;
  /** The 201's status and JSON, recorded by the commit (what a retry is answered). */
  answer?: RecordedAnswer;
}

/** How long a finished import's record is kept: its key's answer (`IdempotencyLimits`). */
export const IMPORT_RECORD_RETENTION_MS = 24 * 60 * 60 * 1000;

const DUPLICATE_KEY = 11000;

/**
 * The `imports` collection: one record per import, single-document writes only (like `trips`),
 * each conditional on the state (and holder) it was decided from, so that of a request, a
 * retry taking over and the sweeper, exactly one moves an import on.
 */
export class ImportsStore {
  readonly collection: Collection<ImportDoc>;

  constructor(db: Db, name = 'imports') {
    this.collection = db.collection<ImportDoc>(name);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ scope: 1 }, { unique: true, sparse: true });
    // the rate limit's count of a user's imports, newest
    await this.collection.createIndex({ ownerId: 1, startedAt: 1 });
    // the sweeper's scan of leases run out, and the prune
    await this.collection.createIndex({ expiresAt: 1 });
    await this.collection.createIndex({ state: 1 });
  }

  /** Records a new import; false when its key is recorded already (another request's). */
  async start(doc: ImportDoc): Promise<boolean> {
    try {
      await this.collection.insertOne(doc);
      return true;
    } catch (err) {
      if ((err as { code?: number } | null)?.code === DUPLICATE_KEY) return false;
      throw err;
    }
  }

  /** The import of this key (`[owner, key]` scope), if one holds it. */
  async findByScope(scope: string): Promise<ImportDoc | null> {
    return this.collection.findOne({ scope });
  }

  async find(id: string): Promise<ImportDoc | null> {
    return this.collection.findOne({ _id: id });
  }

  /**
   * The user's imports started since `since` up to `id` in id order (ids are unique and
   * time-ordered): the rank of `id` among them, so that of imports racing for the last place,
   * exactly those ranked within the limit go on whatever order they were written in.
   */
  async rank(ownerId: string, since: Date, id: string): Promise<number> {
    return this.collection.countDocuments({
      ownerId,
      startedAt: { $gte: since },
      _id: { $lte: id },
    });
  }

  /** The user's imports started since `since`. */
  async countSince(ownerId: string, since: Date): Promise<number> {
    return this.collection.countDocuments({ ownerId, startedAt: { $gte: since } });
  }

  /** When the user's oldest import since `since` started (null: none). */
  async oldestSince(ownerId: string, since: Date): Promise<Date | null> {
    const [doc] = await this.collection
      .find({ ownerId, startedAt: { $gte: since } }, { projection: { startedAt: 1 } })
      .sort({ startedAt: 1 })
      .limit(1)
      .toArray();
    return doc?.startedAt ?? null;
  }

  /** Extends the lease of a running import its holder still holds; false when it does not. */
  async renew(id: string, holder: string, expiresAt: Date): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: id, holder, state: 'running' },
      { $set: { expiresAt } },
    );
    return result.matchedCount === 1;
  }

  /**
   * The commit point: records the answer and moves the import to `committing`, only while its
   * holder still holds it running (a sweeper or a retry that judged it dead has abandoned it).
   */
  async commit(id: string, holder: string, answer: RecordedAnswer): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: id, holder, state: 'running' },
      { $set: { state: 'committing', answer } },
    );
    return result.modifiedCount === 1;
  }

  /** Its trips are shown: `done`. */
  async markDone(id: string): Promise<void> {
    await this.collection.updateOne({ _id: id, state: 'committing' }, { $set: { state: 'done' } });
  }

  /**
   * Abandons a running import, its key freed: `holder` and `expiresAt` as the caller saw them
   * (a retry or the sweeper, after the lease ran out: not if it was renewed meanwhile), its own
   * holder's failure (`expiresAt` left out), or the erasure's (only `_id`). True when this call
   * abandoned it.
   */
  async abandon(
    seen: Pick<ImportDoc, '_id'> & { holder?: string; expiresAt?: Date },
  ): Promise<boolean> {
    const result = await this.collection.updateOne(
      {
        _id: seen._id,
        state: 'running',
        ...(seen.holder ? { holder: seen.holder } : {}),
        ...(seen.expiresAt ? { expiresAt: seen.expiresAt } : {}),
      },
      { $set: { state: 'abandoned' }, $unset: { scope: '', fingerprint: '' } },
    );
    return result.modifiedCount === 1;
  }

  /** An abandoned import's leftovers are removed: `failed` (kept for the rate limit's window). */
  async markFailed(id: string): Promise<void> {
    await this.collection.updateOne(
      { _id: id, state: 'abandoned' },
      { $set: { state: 'failed' }, $unset: { answer: '' } },
    );
  }

  /** Takes the record away (an import refused by the rate limit before it did anything). */
  async remove(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  /**
   * What the sweeper has to finish, at most `limit`: running or committing imports whose lease
   * ran out before `now`, and abandoned ones (their leftovers being removed).
   */
  async stale(now: Date, limit: number): Promise<ImportDoc[]> {
    const [expired, abandoned] = await Promise.all([
      this.collection
        .find({ state: { $in: ['running', 'committing'] }, expiresAt: { $lt: now } })
        .limit(limit)
        .toArray(),
      this.collection.find({ state: 'abandoned' }).limit(limit).toArray(),
    ]);
    return [...expired, ...abandoned];
  }

  /** Removes finished records started before `before` (their key's answer and rate are past). */
  async prune(before: Date): Promise<number> {
    const result = await this.collection.deleteMany({
      state: { $in: ['done', 'failed'] },
      startedAt: { $lt: before },
    });
    return result.deletedCount;
  }

  /** Every import of `ownerId` (the erasure's). */
  async ofOwner(ownerId: string): Promise<ImportDoc[]> {
    return this.collection.find({ ownerId }).toArray();
  }

  /** Removes every record of `ownerId` (the erasure's, once their trips are handled). */
  async removeOwner(ownerId: string): Promise<void> {
    await this.collection.deleteMany({ ownerId });
  }
}
