import { MongoServerError, type Collection, type Db } from 'mongodb';

/** A destination's journal text as journal last announced it (`journal.saved` with `content`). */
export interface JournalStoryDoc {
  /** The destination id. */
  _id: string;
  ownerId: string;
  content: string;
  /** When journal saved it (the event's `occurredAt`): an older save never replaces it. */
  savedAt: Date;
}

const DUPLICATE_KEY = 11000;

/**
 * `journal_stories`: per destination, the text of its journal, for share links that include
 * stories (issue 20). Written by the `journal.saved` consumer (`events/stories.ts`); removed
 * with their destination (a change removing it, the trip's delete) and on the owner's
 * erasure (`TripsRepo`).
 */
export class JournalStoriesRepo {
  readonly collection: Collection<JournalStoryDoc>;

  constructor(db: Db) {
    this.collection = db.collection<JournalStoryDoc>('journal_stories');
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ ownerId: 1 });
  }

  /**
   * Keeps `story` unless a save at least as new is kept already (a late, older event changes
   * nothing). True when written.
   */
  async save(story: JournalStoryDoc): Promise<boolean> {
    try {
      const result = await this.collection.updateOne(
        { _id: story._id, savedAt: { $lt: story.savedAt } },
        { $set: { ownerId: story.ownerId, content: story.content, savedAt: story.savedAt } },
        { upsert: true },
      );
      return result.modifiedCount + result.upsertedCount === 1;
    } catch (err) {
      // a newer save is kept: the filter missed it and the upsert hit its _id
      if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) return false;
      throw err;
    }
  }

  /** The journal texts of `destinationIds` that `ownerId` wrote, by destination id. */
  async ofDestinations(
    destinationIds: readonly string[],
    ownerId: string,
  ): Promise<Map<string, string>> {
    if (destinationIds.length === 0) return new Map();
    const docs = await this.collection
      .find({ _id: { $in: [...destinationIds] }, ownerId }, { projection: { content: 1 } })
      .toArray();
    return new Map(docs.map((d) => [d._id, d.content]));
  }

  /** Removes the stories of removed destinations. */
  async removeDestinations(destinationIds: readonly string[]): Promise<void> {
    if (destinationIds.length === 0) return;
    await this.collection.deleteMany({ _id: { $in: [...destinationIds] } });
  }

  /** Removes every story of an erased user. */
  async removeOwner(ownerId: string): Promise<void> {
    await this.collection.deleteMany({ ownerId });
  }
}
