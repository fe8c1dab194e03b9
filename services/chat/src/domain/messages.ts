import type { z } from 'zod';
import {
  ChatLimits,
  ChatMessages,
  isPlainText,
  roomIdOf,
  usersOfRoom,
  type ReceiveMessage,
} from '@wayfarer/contracts';

/*
 * chat's rules, pure: what text may be sent, who may be in which room, the per-socket rate.
 * No I/O: the callers pass in what the stores know (whether two users are friends).
 */

export type TextCheck = { ok: true; text: string } | { ok: false; error: string };

/** The text as stored: trimmed; empty, whitespace-only or over `ChatLimits.textMax` is refused. */
export function checkText(text: unknown): TextCheck {
  if (typeof text !== 'string') return { ok: false, error: ChatMessages.badPayload };
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: ChatMessages.emptyText };
  if ([...trimmed].length > ChatLimits.textMax)
    return { ok: false, error: ChatMessages.textTooLong };
  return { ok: true, text: trimmed };
}

export type RoomCheck =
  { ok: true; roomId: string; otherId: string } | { ok: false; error: string };

/**
 * Whether `userId` may be in `roomId`: a room made of the caller's own id and another's
 * (`roomIdOf`); whether the other is a current friend is the caller's second question
 * (`mayChat`).
 */
export function roomOfCaller(userId: string, roomId: unknown): RoomCheck {
  if (typeof roomId !== 'string' || roomId.length > 300 || !isPlainText(roomId))
    return { ok: false, error: ChatMessages.badRoom };
  const users = usersOfRoom(roomId);
  if (!users) return { ok: false, error: ChatMessages.badRoom };
  if (!users.includes(userId)) return { ok: false, error: ChatMessages.notInRoom };
  const otherId = users[0] === userId ? users[1] : users[0];
  return { ok: true, roomId, otherId };
}

/** The room of a message from `userId` to `to` (never to oneself). */
export function roomOfMessage(userId: string, to: string): RoomCheck {
  if (to === userId || to.includes('_') || to.length > 200) {
    return { ok: false, error: ChatMessages.notFriends };
  }
  return { ok: true, roomId: roomIdOf(userId, to), otherId: to };
}

/**
 * What to answer a `send_message` payload `SendMessage` refused: the field that is not plain
 * text and why (contracts' `plainText`, e.g. "text: must not contain control characters ..."),
 * else `ChatMessages.badPayload`.
 */
export function payloadError(error: z.ZodError): string {
  const text = error.issues.find((issue) => issue.code === 'custom');
  return text ? `${text.path.join('.')}: ${text.message}` : ChatMessages.badPayload;
}

/**
 * A per-socket sliding-window rate limit: at most `ChatLimits.rateMessages` sends in any
 * `ChatLimits.rateWindowMs`. `sent` holds the times of the sends still in the window (mutated).
 */
export function allowSend(
  sent: number[],
  nowMs: number,
  limits: { rateMessages: number; rateWindowMs: number } = ChatLimits,
): boolean {
  while (sent.length > 0 && sent[0]! <= nowMs - limits.rateWindowMs) sent.shift();
  if (sent.length >= limits.rateMessages) return false;
  sent.push(nowMs);
  return true;
}

/** A history cursor: the oldest message of a page (`<timestamp ms>-<message id>`). */
export interface Cursor {
  timestampMs: number;
  id: string;
}

export const encodeCursor = (c: Cursor): string => `${c.timestampMs}-${c.id}`;

export function decodeCursor(value: string): Cursor | null {
  const m = /^(\d{1,15})-([0-9a-f]{24})$/.exec(value);
  return m ? { timestampMs: Number(m[1]), id: m[2]! } : null;
}

/** A stored message as `receive_message` (and the send's ack) carries it. */
export function receiveMessageOf(
  message: {
    _id: { toHexString(): string };
    roomId: string;
    senderId: string;
    content: string;
    timestamp: Date;
  },
  clientId: string | undefined,
): ReceiveMessage {
  return {
    _id: message._id.toHexString(),
    roomId: message.roomId,
    from: message.senderId,
    text: message.content,
    timestamp: message.timestamp.toISOString(),
    ...(clientId === undefined ? {} : { clientId }),
  };
}
