import { z } from 'zod';
import {
  ChatLimits,
  ChatMessages,
  type ConversationMessage,
  type ConversationResponse,
} from '@wayfarer/contracts';
import { HttpError, parse, requireUserId } from '@wayfarer/service-kit';
import { decodeCursor, encodeCursor, roomOfCaller } from '../domain/messages';
import type { ChatContext } from './context';

const Params = z.object({ roomId: z.string().max(300) });
const Query = z.object({
  before: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(ChatLimits.pageMax).default(ChatLimits.firstPage),
});

export function conversationRoutes(ctx: ChatContext): void {
  const { app, stores } = ctx;

  /** One page of a room's history, newest page first (`ConversationResponse`). */
  app.get('/api/conversation/:roomId', async (request) => {
    const userId = requireUserId(request);
    const { roomId } = parse(Params, request.params);
    const { before, limit } = parse(Query, request.query);
    const room = roomOfCaller(userId, roomId);
    if (!room.ok) throw new HttpError(room.error === ChatMessages.badRoom ? 400 : 403, room.error);
    const cursor = before === undefined ? null : decodeCursor(before);
    if (before !== undefined && cursor === null) throw new HttpError(400, ChatMessages.badCursor);
    if (!(await stores.friendships.areFriends(userId, room.otherId))) {
      throw new HttpError(403, ChatMessages.notFriends);
    }
    const page = await stores.messages.page(room.roomId, cursor, limit);
    const users = await stores.users.byIds([...new Set(page.messages.map((m) => m.senderId))]);
    const messages: ConversationMessage[] = page.messages.reverse().map((m) => {
      const sender = users.get(m.senderId);
      return {
        _id: m._id.toHexString(),
        sender: { _id: m.senderId, name: sender?.name ?? '', email: sender?.email ?? '' },
        content: m.content,
        timestamp: m.timestamp.toISOString(),
        conversation: room.roomId,
      };
    });
    const oldest = page.messages[0];
    const body: ConversationResponse = {
      conversation: { _id: room.roomId, messages },
      nextCursor:
        page.more && oldest
          ? encodeCursor({ timestampMs: oldest.timestamp.getTime(), id: oldest._id.toHexString() })
          : null,
    };
    return body;
  });
}
