import type { Db } from 'mongodb';
import { DEFAULT_AVATAR } from '@wayfarer/contracts';

export interface UserDoc {
  _id: string;
  name: string;
  email: string;
  /** The profile picture URL (the inbox shows it; absent on older documents). */
  picture?: string;
}

/**
 * chat's read model of users (a message's `sender {_id, name, email}`, the inbox's friend
 * `{name, picture}`), from auth's events. Every write is idempotent.
 */
export class UsersStore {
  readonly collection;

  constructor(db: Db) {
    this.collection = db.collection<UserDoc>('users');
  }

  /** A registered user (`user.registered`), created or overwritten. */
  async register(userId: string, user: Omit<UserDoc, '_id'>): Promise<void> {
    await this.collection.updateOne({ _id: userId }, { $set: user }, { upsert: true });
  }

  /** A new name or picture (`user.updated`): message senders and inbox entries show it. */
  async rename(userId: string, profile: { name: string; picture: string }): Promise<void> {
    await this.collection.updateOne({ _id: userId }, { $set: profile });
  }

  /** A closed account (`user.deleted`): its document goes. */
  async remove(userId: string): Promise<void> {
    await this.collection.deleteOne({ _id: userId });
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
