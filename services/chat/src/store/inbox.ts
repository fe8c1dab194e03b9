import type { Db } from 'mongodb';
import type { ConversationSummary } from '@wayfarer/contracts';
import {
  entryAfterMessage,
  entryKey,
  summariesOf,
  type InboxEntry,
  type InboxMessage,
} from '../domain/inbox';

/**
 * A user's inbox: one document per user, an entry per friend they have a conversation with
 * (`c.<entryKey(friendId)>`). One document because the inbox is read whole (500 conversations
 * are one read by id, and the local MongoDB-wire server uses no secondary index: a query per
 * user would scan every user's summaries) and each message changes one entry of two documents.
 */
export interface InboxDoc {
  _id: string;
  c?: Record<string, InboxEntry>;
}

/** Attempts of a conditional write before the event is retried (someone wrote in between). */
const ATTEMPTS = 8;

export class InboxStore {
  readonly collection;

  constructor(db: Db) {
    this.collection = db.collection<InboxDoc>('inboxes');
  }

  /** The caller's conversations, newest last message first. */
  async list(userId: string): Promise<ConversationSummary[]> {
    const doc = await this.collection.findOne({ _id: userId });
    return summariesOf(Object.values(doc?.c ?? {}));
  }

  /**
   * A stored message (chat's `message.sent`) in both users' inboxes: its last message, the
   * recipient's unread count, the sender's read time. Idempotent and order-safe per entry (a
   * message not after the entry's last changes nothing). `profileOf` reads the other side's
   * name and picture (read again on each attempt).
   */
  async applyMessage(
    message: InboxMessage,
    profileOf: (userId: string) => Promise<{ name: string; picture: string }>,
  ): Promise<void> {
    for (const [ownerId, friendId] of [
      [message.recipientId, message.senderId],
      [message.senderId, message.recipientId],
    ] as const) {
      await this.updateEntry(ownerId, friendId, async (current) =>
        entryAfterMessage(current, ownerId, message, await profileOf(friendId)),
      );
    }
  }

  /**
   * The caller read their conversation with `friendId` up to `now`: unread 0. False when they
   * have no such conversation.
   */
  async markRead(userId: string, friendId: string, now: Date): Promise<boolean> {
    const field = `c.${entryKey(friendId)}`;
    const { matchedCount } = await this.collection.updateOne(
      { _id: userId, [field]: { $exists: true } },
      {
        $set: { [`${field}.unread`]: 0, [`${field}.readAt`]: now.toISOString() },
        $inc: { [`${field}.v`]: 1 },
      },
    );
    return matchedCount > 0;
  }

  /**
   * A user's new name or picture (auth's `user.updated`) in every inbox showing them. A scan of
   * the inboxes (no index on a variable field): rare, and off the request path.
   */
  async renameFriend(userId: string, profile: { name: string; picture: string }): Promise<void> {
    const field = `c.${entryKey(userId)}`;
    await this.collection.updateMany(
      { [field]: { $exists: true } },
      {
        $set: { [`${field}.name`]: profile.name, [`${field}.picture`]: profile.picture },
        $inc: { [`${field}.v`]: 1 },
      },
    );
  }

  /** Two users are no longer friends: their conversation leaves both inboxes. */
  async removePair(a: string, b: string): Promise<void> {
    await this.collection.updateOne({ _id: a }, { $unset: { [`c.${entryKey(b)}`]: '' } });
    await this.collection.updateOne({ _id: b }, { $unset: { [`c.${entryKey(a)}`]: '' } });
  }

  /** Erasure (`user.deleted`): the user's inbox, and their entry in every other one. */
  async eraseUser(userId: string): Promise<void> {
    const field = `c.${entryKey(userId)}`;
    await this.collection.deleteOne({ _id: userId });
    await this.collection.updateMany({ [field]: { $exists: true } }, { $unset: { [field]: '' } });
  }

  /**
   * Replaces `ownerId`'s entry for `friendId` with `next(current)` (nothing when null), only if
   * nobody wrote it meanwhile (its version `v`, or its absence), else reads and tries again.
   */
  private async updateEntry(
    ownerId: string,
    friendId: string,
    next: (current: InboxEntry | null) => Promise<Omit<InboxEntry, 'v'> | null>,
  ): Promise<void> {
    const key = entryKey(friendId);
    const field = `c.${key}`;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const doc = await this.collection.findOne({ _id: ownerId }, { projection: { [field]: 1 } });
      const current = doc?.c?.[key] ?? null;
      const entry = await next(current);
      if (!entry) return;
      const filter = current
        ? { _id: ownerId, [`${field}.v`]: current.v }
        : { _id: ownerId, [field]: { $exists: false } };
      try {
        const result = await this.collection.updateOne(
          filter,
          { $set: { [field]: { ...entry, v: (current?.v ?? 0) + 1 } } },
          { upsert: current === null },
        );
        if (result.matchedCount > 0 || result.upsertedCount > 0) return;
      } catch (err) {
        // the document appeared meanwhile (an upsert lost the race): read it again
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    }
    throw new Error(`inbox entry ${ownerId}/${friendId} kept changing: retrying the event`);
  }
}
