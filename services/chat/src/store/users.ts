import type { Db } from 'mongodb';
import {
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
}

/** chat's read model of users (a message's `sender {_id, name, email}`), from auth's events. */
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
      const { userId, name, email } = registered.payload;
      await this.collection.updateOne({ _id: userId }, { $set: { name, email } }, { upsert: true });
      return true;
    }
    const updated = readEvent(UserUpdated, event);
    if (updated) {
      const { userId, name } = updated.payload;
      await this.collection.updateOne({ _id: userId }, { $set: { name } });
      return true;
    }
    const deleted = readEvent(UserDeleted, event);
    if (deleted) {
      await this.collection.deleteOne({ _id: deleted.payload.userId });
      return true;
    }
    return false;
  }

  async byIds(ids: string[]): Promise<Map<string, UserDoc>> {
    const docs = await this.collection.find({ _id: { $in: ids } }).toArray();
    return new Map(docs.map((d) => [d._id, d]));
  }
}
