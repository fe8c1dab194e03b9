import type { Collection } from 'mongodb';
import { notDeleted } from '@wayfarer/service-kit/mongo';
import type { JournalStoryDoc, ShareLinkDoc } from '../domain/share';
import { SHARED_FIELDS, storyPath, type SharedTripRead, type StoredTripDoc } from './stored-trip';

/**
 * A trip's share link and its destinations' journal texts, kept in the trip (`share`,
 * `stories`): each written by a field-level update that leaves `version`, `rev` and the
 * summary alone (neither is part of the owner's trip JSON nor of their list), so none races
 * with a change's update over its version and `rev`.
 */
export class SharedTripsStore {
  constructor(private readonly collection: Collection<StoredTripDoc>) {}

  /**
   * Puts `link` as the live link of the owner's live trip, replacing any other (its token stops
   * working in the same write). False when the trip is not the owner's live trip (nothing
   * written). Neither the version nor the list version moves: the link is not in either.
   */
  async putShareLink(tripId: string, ownerId: string, link: ShareLinkDoc): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: tripId, ownerId, ...notDeleted },
      { $set: { share: link } },
    );
    return result.matchedCount === 1;
  }

  /** The owner's live trip's link (live or expired): `{}` when none, null when no such trip. */
  async shareLinkOf(tripId: string, ownerId: string): Promise<Pick<StoredTripDoc, 'share'> | null> {
    return this.collection.findOne(
      { _id: tripId, ownerId, ...notDeleted },
      { projection: { _id: 0, share: 1 } },
    );
  }

  /**
   * Removes the owner's live trip's link: what it was (`{}` when it had none), or null when no
   * such trip. One write of the trip, leaving its version alone.
   */
  async revokeShareLink(
    tripId: string,
    ownerId: string,
  ): Promise<Pick<StoredTripDoc, 'share'> | null> {
    return this.collection.findOneAndUpdate(
      { _id: tripId, ownerId, ...notDeleted },
      { $unset: { share: '' } },
      { projection: { _id: 0, share: 1 }, returnDocument: 'before' },
    );
  }

  /**
   * The trip whose link's token hashes to `tokenHash` (the only way a visitor's link is found:
   * one indexed read), with its link and, if asked, its journal texts. Whether the trip is live
   * (its soft-delete unsets `share`, so a deleted one is found only if an older instance deleted
   * it) and the link too is the caller's check (`domain/share.ts` `checkSharedLink`): the filter
   * is the index's key alone, as the local server uses an index only for a filter on exactly
   * its keys (with `deletedAt` beside it, it scans the collection).
   */
  async findShared(
    tokenHash: string,
    options: { stories: boolean },
  ): Promise<SharedTripRead | null> {
    return this.collection.findOne(
      { 'share.tokenHash': tokenHash },
      options.stories ? SHARED_FIELDS.withStories : SHARED_FIELDS.withoutStories,
    );
  }

  /**
   * Keeps `story` as the journal text of `destinationId` in the live trip of `ownerId` holding
   * that destination, unless a save at least as new is kept already (a late, older event
   * changes nothing: compared in the update's filter). One conditional update of the trip, so a
   * change removing the destination or the trip's delete either lands after it (and unsets it)
   * or before it (and it matches nothing). True when written. `destinationId` must be an id we
   * make (`isTripId`): it names a field.
   */
  async saveStory(
    destinationId: string,
    ownerId: string,
    story: JournalStoryDoc,
  ): Promise<boolean> {
    const path = storyPath(destinationId);
    const result = await this.collection.updateOne(
      {
        'destinations._id': destinationId,
        ownerId,
        ...notDeleted,
        $or: [{ [path]: { $exists: false } }, { [`${path}.savedAt`]: { $lt: story.savedAt } }],
      },
      { $set: { [path]: story } },
    );
    return result.modifiedCount === 1;
  }
}
