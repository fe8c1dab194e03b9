import { DEFAULT_AVATAR, type ConversationSummary } from '@wayfarer/contracts';

/*
 * The inbox's rules, pure: what a user's summary of one conversation becomes with a
 * message, and how the inbox is answered. The store keeps one document per user holding an
 * entry per friend they have a conversation with (store/inbox.ts).
 */

/** A message as the inbox sees it (chat's `message.sent`). */
export interface InboxMessage {
  messageId: string;
  roomId: string;
  senderId: string;
  recipientId: string;
  /** The text's preview (contracts' `messagePreview`). */
  preview: string;
  /** ISO 8601, as stored: fixed width, so it orders as text. */
  timestamp: string;
}

/** One user's summary of their conversation with a friend. */
export interface InboxEntry {
  roomId: string;
  friendId: string;
  /** The friend as auth last announced them (chat's users read model). */
  name: string;
  picture: string;
  last: { _id: string; content: string; timestamp: string; senderId: string };
  /** The friend's messages after `readAt`. */
  unread: number;
  /** When the user last read the conversation (opened it, or wrote in it), ISO 8601. */
  readAt: string | null;
  /** Bumped by every write: a write applies only to the version it read. */
  v: number;
}

/** Whether message `a` comes after `b` (by timestamp, then id: ids of one ms order as made). */
const isAfter = (a: InboxEntry['last'], b: InboxEntry['last']): boolean =>
  a.timestamp !== b.timestamp ? a.timestamp > b.timestamp : a._id > b._id;

/**
 * `ownerId`'s entry after `message` (they sent it or received it), or null when it changes
 * nothing: the entry already shows this message or a later one (a redelivered event). A message
 * from the friend after the owner last read counts as unread; one stored before that read (its
 * event arriving after it) does not. Writing in a conversation reads it: the sender's unread
 * count is 0.
 */
export function entryAfterMessage(
  current: Omit<InboxEntry, 'v'> | null,
  ownerId: string,
  message: InboxMessage,
  friend: { name: string; picture: string },
): Omit<InboxEntry, 'v'> | null {
  const last = {
    _id: message.messageId,
    content: message.preview,
    timestamp: message.timestamp,
    senderId: message.senderId,
  };
  if (current && !isAfter(last, current.last)) return null;
  const fromFriend = message.senderId !== ownerId;
  const readAt = current?.readAt ?? null;
  const common = {
    roomId: message.roomId,
    friendId: fromFriend ? message.senderId : message.recipientId,
    name: friend.name,
    picture: friend.picture || DEFAULT_AVATAR,
    last,
  };
  if (!fromFriend) {
    const read = readAt !== null && readAt > message.timestamp ? readAt : message.timestamp;
    return { ...common, unread: 0, readAt: read };
  }
  const alreadyRead = readAt !== null && readAt >= message.timestamp;
  return { ...common, unread: (current?.unread ?? 0) + (alreadyRead ? 0 : 1), readAt };
}

/** The inbox as answered: every entry, the newest last message first. */
export function summariesOf(entries: Iterable<InboxEntry>): ConversationSummary[] {
  return [...entries]
    .sort((a, b) => (isAfter(a.last, b.last) ? -1 : isAfter(b.last, a.last) ? 1 : 0))
    .map((e) => ({
      roomId: e.roomId,
      friend: { id: e.friendId, name: e.name, picture: e.picture },
      lastMessage: { ...e.last },
      unread: e.unread,
    }));
}

/**
 * The field of a friend's entry in an inbox document: their id with every character but
 * letters, digits, `_` and `-` written `%` + four hex digits (a field name must not hold `.` or
 * start with `$`; the fixed width keeps distinct ids distinct).
 */
export const entryKey = (friendId: string): string =>
  friendId.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
