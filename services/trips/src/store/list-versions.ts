import type { Collection, Db } from 'mongodb';

/** One owner's list version: `_id` is the owner id. */
export interface ListVersionDoc {
  _id: string;
  v: number;
}

/**
 * The `list_versions` collection: per owner, a counter bumped by every write that changes what
 * `GET /api/mytrips` answers for them (`TripsStore` bumps it after the trip write, before the
 * write is answered). Each instance's `MyTripsCache` keeps a list under the version it read
 * before listing and serves it only while the version is still that one, so the version, shared
 * in MongoDB, keeps every instance's cache right without any message between them.
 */
export class ListVersionsStore {
  readonly collection: Collection<ListVersionDoc>;

  constructor(db: Db, name = 'list_versions') {
    this.collection = db.collection<ListVersionDoc>(name);
  }

  /** The owner's current version; 0 before any write bumped it. */
  async current(ownerId: string): Promise<number> {
    const doc = await this.collection.findOne({ _id: ownerId });
    return doc?.v ?? 0;
  }

  /** Bumps the owner's version (created at 1 by the first bump). */
  async bump(ownerId: string): Promise<void> {
    await this.collection.updateOne({ _id: ownerId }, { $inc: { v: 1 } }, { upsert: true });
  }
}
