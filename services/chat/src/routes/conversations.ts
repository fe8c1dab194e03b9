import { z } from 'zod';
import { ChatMessages, type ConversationReadResponse } from '@wayfarer/contracts';
import { HttpError, notFound, parse, requireUserId } from '@wayfarer/service-kit';
import type { ChatContext } from './context';
import { roomOfCaller } from '../domain/messages';

const Params = z.object({ roomId: z.string().max(300) });

/** The inbox (issue 21): the caller's conversations, and marking one read. */
export function inboxRoutes(ctx: ChatContext): void {
  const { app, stores } = ctx;

  /**
   * The caller's conversations with friends, newest last message first (contracts'
   * ConversationsResponse, as the store wrote it).
   */
  app.get('/api/conversations', async (request, reply) => {
    const userId = requireUserId(request);
    const body = await stores.inbox.listJson(userId);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  /** The caller opened a conversation: its unread count becomes 0. */
  app.post('/api/conversations/:roomId/read', async (request) => {
    const userId = requireUserId(request);
    const { roomId } = parse(Params, request.params);
    const room = roomOfCaller(userId, roomId);
    if (!room.ok) throw new HttpError(room.error === ChatMessages.badRoom ? 400 : 403, room.error);
    if (!(await stores.inbox.markRead(userId, room.otherId, ctx.now()))) {
      throw notFound(ChatMessages.conversationNotFound);
    }
    const body: ConversationReadResponse = { roomId: room.roomId, unread: 0 };
    return body;
  });
}
