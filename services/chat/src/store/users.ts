import type { Db } from 'mongodb';
import { readEvent, UserRegistered, type EventEnvelope } from '@wayfarer/contracts';

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

  /** Applies `user.registered` (idempotent); false for other events. */
  async apply(event: EventEnvelope): Promise<boolean> {
    const registered = readEvent(UserRegistered, event);
    if (!registered) return false;
    const { userId, name, email } = registered.payload;
    await this.collection.updateOne({ _id: userId }, { $set: { name, email } }, { upsert: true });
    return true;
  }

  async byIds(ids: string[]): Promise<Map<string, UserDoc>> {
    const docs = await this.collection.find({ _id: { $in: ids } }).toArray();
    return new Map(docs.map((d) => [d._id, d]));
  }
}
