import { ObjectId, type Db } from 'mongodb';
import type { Cursor } from '../domain/messages';

export interface MessageDoc {
  _id: ObjectId;
  /** The conversation: the room id (`roomIdOf` of the two users). */
  roomId: string;
  senderId: string;
  content: string;
  timestamp: Date;
}

/** The messages of every conversation; a conversation is its room id (no document of its own). */
export class MessagesStore {
  readonly collection;

  constructor(db: Db) {
    this.collection = db.collection<MessageDoc>('messages');
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ roomId: 1, timestamp: -1, _id: -1 });
  }

  /** Stores a message (acknowledged by the server before this resolves). */
  async insert(message: Omit<MessageDoc, '_id'>): Promise<MessageDoc> {
    const doc: MessageDoc = { _id: new ObjectId(), ...message };
    await this.collection.insertOne(doc);
    return doc;
  }

  /**
   * Up to `limit` messages of the room older than `before` (newest first), and whether there are
   * older ones still.
   */
  async page(
    roomId: string,
    before: Cursor | null,
    limit: number,
  ): Promise<{ messages: MessageDoc[]; more: boolean }> {
    const filter = before
      ? {
          roomId,
          $or: [
            { timestamp: { $lt: new Date(before.timestampMs) } },
            { timestamp: new Date(before.timestampMs), _id: { $lt: new ObjectId(before.id) } },
          ],
        }
      : { roomId };
    const docs = await this.collection
      .find(filter)
      .sort({ timestamp: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    return { messages: docs.slice(0, limit), more: docs.length > limit };
  }
}
