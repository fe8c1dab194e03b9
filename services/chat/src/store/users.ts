import type { Db } from 'mongodb';
import {
  DEFAULT_AVATAR,
  readEvent,
  UserDeleted,
  UserRegistered,
  UserUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';

export interface UserDoc {
  _id: string;
  name: string;
  email: string;
  /** The profile picture URL (issue 21: the inbox shows it; absent on older documents). */
  picture?: string;
}

/**
 * chat's read model of users (a message's `sender {_id, name, email}`, the inbox's friend
 * `{name, picture}`), from auth's events.
 */
export class UsersProjection {
  readonly collection;

  constructor(db: Db) {
    this.collection = db.collection<UserDoc>('users');
  }

  /**
   * Applies `user.registered`, `user.updated` (the new name: message senders and conversation
   * headers show it) and `user.deleted` (the user's document goes); idempotent. False for other
   * events.
   */
  async apply(event: EventEnvelope): Promise<boolean> {
    const registered = readEvent(UserRegistered, event);
    if (registered) {
      const { userId, name, email, profilePicture } = registered.payload;
      await this.collection.updateOne(
        { _id: userId },
        { $set: { name, email, picture: profilePicture } },
        { upsert: true },
      );
      return true;
    }
    const updated = readEvent(UserUpdated, event);
    if (updated) {
      const { userId, name, profilePicture } = updated.payload;
      await this.collection.updateOne({ _id: userId }, { $set: { name, picture: profilePicture } });
      return true;
    }
    const deleted = readEvent(UserDeleted, event);
    if (deleted) {
      await this.collection.deleteOne({ _id: deleted.payload.userId });
      return true;
    }
    return false;
  }

  /** A user's name and picture as the inbox shows them (unknown yet: '' and the default). */
  async profile(userId: string): Promise<{ name: string; picture: string }> {
    const doc = await this.collection.findOne({ _id: userId });
    return { name: doc?.name ?? '', picture: doc?.picture || DEFAULT_AVATAR };
  }

  async byIds(ids: string[]): Promise<Map<string, UserDoc>> {
    const docs = await this.collection.find({ _id: { $in: ids } }).toArray();
    return new Map(docs.map((d) => [d._id, d]));
  }
}
