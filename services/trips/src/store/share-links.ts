import type { Collection, Db } from 'mongodb';
import type { ShareLinkDoc } from '../domain/share';

/**
 * `share_links`: each trip's one live link (`_id` the trip id), found by a visitor only by its
 * token's hash (`tokenHash`, unique index). Creating a link replaces the trip's document
 * (the old token is gone with it); revoking removes it; the trip's delete and the owner's
 * erasure remove it too (`TripsRepo`).
 */
export class ShareLinksRepo {
  readonly collection: Collection<ShareLinkDoc>;

  constructor(db: Db) {
    this.collection = db.collection<ShareLinkDoc>('share_links');
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ tokenHash: 1 }, { unique: true });
    await this.collection.createIndex({ ownerId: 1 });
  }

  /** Puts `link` as its trip's link, replacing any other (its token stops working). */
  async put(link: ShareLinkDoc): Promise<void> {
    await this.collection.replaceOne({ _id: link._id }, link, { upsert: true });
  }

  /** The trip's link (live or expired) if `ownerId` made it. */
  async ofTrip(tripId: string, ownerId: string): Promise<ShareLinkDoc | null> {
    return this.collection.findOne({ _id: tripId, ownerId });
  }

  /** The link whose token hashes to `tokenHash` (the only way a visitor's link is found). */
  async byTokenHash(tokenHash: string): Promise<ShareLinkDoc | null> {
    return this.collection.findOne({ tokenHash });
  }

  /** Removes the trip's link as `ownerId` made it; the link removed, or null when none. */
  async revoke(tripId: string, ownerId: string): Promise<ShareLinkDoc | null> {
    return this.collection.findOneAndDelete({ _id: tripId, ownerId });
  }

  /** Removes the link of a deleted trip. */
  async removeTrip(tripId: string): Promise<void> {
    await this.collection.deleteOne({ _id: tripId });
  }

  /** Removes every link of an erased user. */
  async removeOwner(ownerId: string): Promise<void> {
    await this.collection.deleteMany({ ownerId });
  }
}
