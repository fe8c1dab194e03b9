import { ObjectId, type Db } from 'mongodb';
import {
  keyedRecord,
  MongoIdempotency,
  WITHOUT_IDEMPOTENCY,
  withPendingFlag,
  type OutboxEntry,
  type WithIdempotency,
  type WithOutbox,
} from '@wayfarer/service-kit/mongo';
import type { StoredMessage } from '../domain/export';
import type { Cursor } from '../domain/messages';

/**
 * A stored message. `idempotency` (service-kit `WithIdempotency`) is the sender's `clientId`
 * with the ack first answered, written by the insert itself (24 h). `outbox` (service-kit's
 * MongoDB outbox) holds its `message.sent` until the relay has published it.
 */
export interface MessageDoc extends WithIdempotency, WithOutbox {
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
  /**
   * Senders' `clientId`s, kept in the messages they created (service-kit `MongoIdempotency`:
   * unique per sender; the index made and expired keys pruned by `openMongoService`).
   */
  readonly idempotency: MongoIdempotency;

  constructor(db: Db) {
    this.collection = db.collection<MessageDoc>('messages');
    this.idempotency = new MongoIdempotency(this.collection);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ roomId: 1, timestamp: -1, _id: -1 });
  }

  /**
   * Stores a message (acknowledged by the server before this resolves) with `announce(doc)`: its
   * events, in its outbox (one insert: stored if and only if announced). In a keyed send
   * (service-kit `runUseCase`) the insert also holds the idempotency record of its `clientId`
   * (`keyedRecord`), refused as a duplicate key when the sender's same `clientId` is stored
   * already.
   */
  async insert(
    message: Omit<MessageDoc, '_id' | 'idempotency' | keyof WithOutbox>,
    announce: (doc: MessageDoc) => OutboxEntry[] = () => [],
  ): Promise<MessageDoc> {
    const doc: MessageDoc = { _id: new ObjectId(), ...message };
    await this.collection.insertOne(
      withPendingFlag({ ...doc, ...keyedRecord(this.collection, doc), outbox: announce(doc) }),
    );
    return doc;
  }

  /**
   * Erasure (`user.deleted`): every message of every conversation the user was in, the
   * friend's side too (a room is named by both ids; docs/architecture.md, "Erasure").
   */
  async eraseUser(userId: string): Promise<number> {
    // a bare regular expression: mongo-java-server refuses a RegExp given as `$regex`
    const { deletedCount } = await this.collection.deleteMany({
      $or: [{ senderId: userId }, { roomId: roomsOf(userId) }],
    });
    return deletedCount;
  }

  /**
   * Every message of every conversation the user is in, sent and received, oldest first (the
   * account export).
   */
  async ofUser(userId: string): Promise<StoredMessage[]> {
    const docs = await this.collection
      .find(
        { roomId: roomsOf(userId) },
        { projection: { roomId: 1, senderId: 1, content: 1, timestamp: 1 } },
      )
      .sort({ timestamp: 1, _id: 1 })
      .toArray();
    return docs.map((doc) => ({
      id: doc._id.toHexString(),
      roomId: doc.roomId,
      senderId: doc.senderId,
      content: doc.content,
      timestamp: doc.timestamp,
    }));
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
      .find(filter, { projection: WITHOUT_IDEMPOTENCY })
      .sort({ timestamp: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    return { messages: docs.slice(0, limit), more: docs.length > limit };
  }
}

/** The room ids naming `userId` (`roomIdOf`: the two ids sorted, joined by `_`). */
function roomsOf(userId: string): RegExp {
  const id = userId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${id}_|_${id}$`);
}
