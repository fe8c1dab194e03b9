import { z } from 'zod';
import { defineEvent, Topics } from './events';
import { plainText } from './text';
import { storyPreview } from './trips';

/*
 * The chat service's contract: the room id rule, the socket.io
 * events and their payloads, the limits, and the `GET /api/conversation/{roomId}` answer.
 *
 * The socket is reached through the gateway on the product's own origin at socket.io's default
 * path `/socket.io/`, websocket transport only (`transports: ['websocket']`), authenticated by the
 * session cookie on the handshake.
 */

/** The room id of two users: their ids sorted and joined with `_`. */
export function roomIdOf(a: string, b: string): string {
  return [a, b].sort().join('_');
}

/** The two user ids of a room id, or null when it is not one (`<id>_<id>`, two different ids). */
export function usersOfRoom(roomId: string): [string, string] | null {
  const parts = roomId.split('_');
  if (parts.length !== 2) return null;
  const [a, b] = parts as [string, string];
  if (!a || !b || a === b || roomIdOf(a, b) !== roomId) return null;
  return [a, b];
}

/** The socket path (socket.io's default). The gateway proxies websocket upgrades under it. */
export const CHAT_SOCKET_PATH = '/socket.io/';

/** Socket.io event names. */
export const ChatEvents = {
  /** client -> server: `join(roomId, ack?)`; ack `ChatAck`. */
  join: 'join',
  /** client -> server: `leave(roomId, ack?)`; ack `ChatAck`. */
  leave: 'leave',
  /** client -> server: `send_message(SendMessage, ack?)`; ack `SendMessageAck`. */
  sendMessage: 'send_message',
  /** server -> client (every socket in the room, the sender's other tabs included): `ReceiveMessage`. */
  receiveMessage: 'receive_message',
} as const;

export const ChatLimits = {
  /** Longest message text, in characters, after trimming. */
  textMax: 2000,
  /** Per-socket rate limit: at most `rateMessages` `send_message` per `rateWindowMs`. */
  rateMessages: 10,
  rateWindowMs: 5000,
  /** Messages shown on opening (the history's first page). */
  firstPage: 10,
  /** Messages each 'Load more messages' adds. */
  morePage: 20,
  /** Largest `?limit=` `GET /api/conversation/{roomId}` accepts. */
  pageMax: 50,
  /**
   * A message's preview (the inbox's `lastMessage.content`, `message.sent`'s `preview`, a message
   * notification's): its first characters, then `...` (`messagePreview`).
   */
  previewMax: 100,
} as const;

/** The preview of a message's text: `ChatLimits.previewMax` characters, then `...`. */
export const messagePreview = (text: string): string => storyPreview(text, ChatLimits.previewMax);

/** Texts the service answers with (ack `error`, or `{message}` of an HTTP error). */
export const ChatMessages = {
  notAuthenticated: 'Not authenticated.',
  sessionRevoked: 'Session ended.',
  badRoom: 'Invalid room id.',
  notInRoom: 'You can only chat with your friends.',
  notFriends: 'You can only chat with your friends.',
  emptyText: 'Message text is empty.',
  textTooLong: `Message text must be at most ${ChatLimits.textMax} characters.`,
  rateLimited: 'Too many messages, slow down.',
  badPayload: 'Invalid message.',
  badCursor: 'Invalid cursor.',
  failed: 'The message could not be sent.',
  conversationNotFound: 'Conversation not found.',
} as const;

/**
 * `send_message` payload (spec: Socket message {to, from, text, timestamp}). `from` is ignored: the
 * sender is the authenticated user. `timestamp` is the client's (ignored too: the server stamps
 * the stored message). `clientId` (optional) lets the client match the ack and the broadcast to its
 * optimistic copy.
 */
export const SendMessage = z.object({
  to: plainText().min(1),
  from: plainText().optional(),
  text: plainText('multiline'),
  timestamp: z.union([plainText(), z.number()]).optional(),
  clientId: plainText().max(100).optional(),
});
export type SendMessage = z.infer<typeof SendMessage>;

/**
 * `receive_message` payload (spec: {from, text, timestamp}) plus `_id` (the stored message id: a
 * client de-duplicates on it, e.g. between the live event and a history page fetched after a
 * reconnect), `roomId`, and the sender's `clientId` when it gave one. `timestamp` is ISO 8601.
 */
export const ReceiveMessage = z.object({
  _id: z.string(),
  roomId: z.string(),
  from: z.string(),
  text: z.string(),
  timestamp: z.string(),
  clientId: z.string().optional(),
});
export type ReceiveMessage = z.infer<typeof ReceiveMessage>;

/** Ack of `join` / `leave`: `{ok: true}` or `{ok: false, error}` (a `ChatMessages` text). */
export const ChatAck = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type ChatAck = z.infer<typeof ChatAck>;

/**
 * Ack of `send_message`: the stored message (sent after it is stored, before or with the
 * broadcast), or `{ok: false, error}` with nothing stored or delivered.
 */
export const SendMessageAck = z.union([
  z.object({ ok: z.literal(true), message: ReceiveMessage }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type SendMessageAck = z.infer<typeof SendMessageAck>;

/** A message of the history (spec: Conversation messages[]). `timestamp` ISO 8601. */
export const ConversationMessage = z.object({
  _id: z.string(),
  sender: z.object({ _id: z.string(), name: z.string(), email: z.string() }),
  content: z.string(),
  timestamp: z.string(),
  /** The conversation's `_id` (the room id). */
  conversation: z.string(),
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;

/**
 * `GET /api/conversation/{roomId}?before=<cursor>&limit=<n>`: one page of the room's history,
 * `messages` oldest to newest within the page; the first call (no `before`) answers the newest
 * `limit` (default `ChatLimits.firstPage`); `nextCursor` (null when there is nothing older) is
 * passed as `before` to fetch the page before it ('Load more messages', `limit` =
 * `ChatLimits.morePage`). A room with no messages answers an empty list (not 404). Only a
 * participant who is a current friend of the other may read it (403 otherwise).
 */
export const ConversationResponse = z.object({
  conversation: z.object({
    _id: z.string(),
    messages: z.array(ConversationMessage),
  }),
  nextCursor: z.string().nullable(),
});
export type ConversationResponse = z.infer<typeof ConversationResponse>;

/*
 * The inbox of conversations, and the event announcing each stored message.
 */

/**
 * A stored message (published through chat's MongoDB outbox, in the message's own document, so a
 * message is stored if and only if it is announced; at least once, keyed by the room id so a
 * conversation's messages keep their order). `recipientInRoom`: whether the recipient had a
 * socket joined to the room, on any chat instance, when the message was stored (through the
 * socket.io adapter's `fetchSockets`; false when that could not be known in time): notifications
 * makes a `message` notification only when it is false. chat's own inbox consumes it too.
 */
export const ChatMessageSent = defineEvent({
  topic: Topics.chatMessage,
  type: 'message.sent',
  version: 1,
  payload: z.object({
    messageId: z.string(),
    roomId: z.string(),
    senderId: z.string(),
    recipientId: z.string(),
    /** `messagePreview` of the stored text. */
    preview: z.string(),
    /** The stored message's timestamp, ISO 8601. */
    timestamp: z.string(),
    recipientInRoom: z.boolean(),
  }),
});

/**
 * One conversation of the caller's inbox: the friend (as auth last announced them: `picture` is
 * the profile picture URL or DEFAULT_AVATAR), the last message (`content` is its
 * `messagePreview`), and `unread`: the friend's messages after the caller last read the
 * conversation (`POST /api/conversations/{roomId}/read`, or a message the caller sent in it).
 */
export const ConversationSummary = z.object({
  roomId: z.string(),
  friend: z.object({ id: z.string(), name: z.string(), picture: z.string() }),
  lastMessage: z.object({
    _id: z.string(),
    content: z.string(),
    timestamp: z.string(),
    senderId: z.string(),
  }),
  unread: z.number().int().min(0),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/**
 * `GET /api/conversations`: the caller's conversations with current friends, newest last message
 * first (every one: a user's inbox is one stored document). A conversation appears with its
 * first message and follows each message within the event lag (chat's `message.sent`).
 */
export const ConversationsResponse = z.array(ConversationSummary);
export type ConversationsResponse = z.infer<typeof ConversationsResponse>;

/**
 * `POST /api/conversations/{roomId}/read` (no body): the caller has read the conversation up to
 * now: its `unread` becomes 0. 400 for a malformed room id, 403 for a room that is not the
 * caller's, 404 when the caller has no such conversation.
 */
export const ConversationReadResponse = z.object({ roomId: z.string(), unread: z.literal(0) });
export type ConversationReadResponse = z.infer<typeof ConversationReadResponse>;
