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
  /**
   * Bumped by every write of the document (absent on documents written before it: 0): an
   * instance's cached answer of the inbox is served only while this is what it was built from.
   */
  n?: number;
}

/** Attempts of a conditional write before the event is retried (someone wrote in between). */
const ATTEMPTS = 8;

/** Inbox answers an instance keeps, in characters of their JSON (the least recently read go first). */
const ANSWERS_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Answers of `GET /api/conversations` (JSON text) by user, each with the document's write counter
 * `n` it was built from. Reading the whole document is mostly the driver decoding it (500
 * entries: about 180 kB of nested BSON, several times a primary-key read); reading its `n` alone
 * is about one, so an inbox that has not changed since is answered from here. Exact, on every
 * instance: any write bumps `n` in the same document it changes.
 */
export class InboxAnswers {
  private readonly byUser = new Map<string, { n: number; body: string }>();
  private bytes = 0;

  constructor(private readonly maxBytes = ANSWERS_MAX_BYTES) {}

  /** The answer built from version `n` of the user's inbox, or null. */
  get(userId: string, n: number): string | null {
    const kept = this.byUser.get(userId);
    if (!kept || kept.n !== n) return null;
    // most recently read last: the first ones go first
    this.byUser.delete(userId);
    this.byUser.set(userId, kept);
    return kept.body;
  }

  set(userId: string, n: number, body: string): void {
    const old = this.byUser.get(userId);
    if (old) {
      this.byUser.delete(userId);
      this.bytes -= old.body.length;
    }
    if (body.length > this.maxBytes) return;
    this.byUser.set(userId, { n, body });
    this.bytes += body.length;
    for (const [id, kept] of this.byUser) {
      if (this.bytes <= this.maxBytes) break;
      this.byUser.delete(id);
      this.bytes -= kept.body.length;
    }
  }
}

export class InboxStore {
  readonly collection;

  constructor(
    db: Db,
    private readonly answers = new InboxAnswers(),
  ) {
    this.collection = db.collection<InboxDoc>('inboxes');
  }

  /** The caller's conversations, newest last message first. */
  async list(userId: string): Promise<ConversationSummary[]> {
    const doc = await this.collection.findOne({ _id: userId });
    return summariesOf(Object.values(doc?.c ?? {}));
  }

  /**
   * `list` as JSON text: from this instance's answers while the document's `n` is the one an
   * answer was built from (one small read), else read whole and kept.
   */
  async listJson(userId: string): Promise<string> {
    const head = await this.collection.findOne({ _id: userId }, { projection: { n: 1 } });
    if (!head) return '[]';
    const kept = this.answers.get(userId, head.n ?? 0);
    if (kept !== null) return kept;
    const doc = await this.collection.findOne({ _id: userId });
    const body = JSON.stringify(summariesOf(Object.values(doc?.c ?? {})));
    if (doc) this.answers.set(userId, doc.n ?? 0, body);
    return body;
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
        $inc: { [`${field}.v`]: 1, n: 1 },
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
        $inc: { [`${field}.v`]: 1, n: 1 },
      },
    );
  }

  /** Two users are no longer friends: their conversation leaves both inboxes. */
  async removePair(a: string, b: string): Promise<void> {
    await this.collection.updateOne(
      { _id: a },
      { $unset: { [`c.${entryKey(b)}`]: '' }, $inc: { n: 1 } },
    );
    await this.collection.updateOne(
      { _id: b },
      { $unset: { [`c.${entryKey(a)}`]: '' }, $inc: { n: 1 } },
    );
  }

  /** Erasure (`user.deleted`): the user's inbox, and their entry in every other one. */
  async eraseUser(userId: string): Promise<void> {
    const field = `c.${entryKey(userId)}`;
    await this.collection.deleteOne({ _id: userId });
    await this.collection.updateMany(
      { [field]: { $exists: true } },
      { $unset: { [field]: '' }, $inc: { n: 1 } },
    );
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
          { $set: { [field]: { ...entry, v: (current?.v ?? 0) + 1 } }, $inc: { n: 1 } },
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
