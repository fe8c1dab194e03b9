import type { Collection } from 'mongodb';
import type { StoredTripDoc } from './stored-trip';

/**
 * The trash of trips (`trashedPhotos`): photos a change took away whose objects are still to be
 * removed from the bucket, written by the change's own update, taken out once removed.
 */
export class TrashStore {
  constructor(private readonly collection: Collection<StoredTripDoc>) {}

  /** Trips with removed photos whose objects are still to be removed (at most `limit`). */
  async list(limit: number): Promise<Pick<StoredTripDoc, '_id' | 'trashedPhotos'>[]> {
    return this.collection
      .find({ trashedPhotos: { $exists: true } }, { projection: { trashedPhotos: 1 } })
      .limit(limit)
      .toArray();
  }

  /** Takes photos whose objects were removed off the trip's trash (the field goes once empty). */
  async takeOut(tripId: string, photoIds: readonly string[]): Promise<void> {
    if (photoIds.length === 0) return;
    await this.collection.updateOne(
      { _id: tripId },
      { $pull: { trashedPhotos: { $in: [...photoIds] } } },
    );
    await this.collection.updateOne(
      { _id: tripId, trashedPhotos: { $size: 0 } },
      { $unset: { trashedPhotos: '' } },
    );
  }
}
