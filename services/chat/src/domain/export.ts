import { usersOfRoom } from '@wayfarer/contracts';

/** A message as the account export holds it: who with, which way, what and when. */
export interface ExportedMessage {
  id: string;
  direction: 'sent' | 'received';
  /** The other person of the conversation. */
  otherId: string;
  /** Their name as chat knows it ('' when unknown). */
  otherName: string;
  content: string;
  timestamp: string;
}

export interface StoredMessage {
  id: string;
  roomId: string;
  senderId: string;
  content: string;
  timestamp: Date;
}

/**
 * The user's messages, sent and received, as exported; a message of a room that does not name
 * the user (the store never gives one) is left out.
 */
export function exportedMessages(
  userId: string,
  messages: readonly StoredMessage[],
  nameOf: (id: string) => string,
): ExportedMessage[] {
  const exported: ExportedMessage[] = [];
  for (const message of messages) {
    const users = usersOfRoom(message.roomId);
    if (!users?.includes(userId)) continue;
    const otherId = users[0] === userId ? users[1] : users[0];
    exported.push({
      id: message.id,
      direction: message.senderId === userId ? 'sent' : 'received',
      otherId,
      otherName: nameOf(otherId),
      content: message.content,
      timestamp: message.timestamp.toISOString(),
    });
  }
  return exported;
}

/** The other person of each of the user's rooms (whose names the export looks up). */
export function otherIdsOf(userId: string, roomIds: Iterable<string>): string[] {
  const others = new Set<string>();
  for (const roomId of roomIds) {
    const users = usersOfRoom(roomId);
    if (users?.includes(userId)) others.add(users[0] === userId ? users[1] : users[0]);
  }
  return [...others];
}
