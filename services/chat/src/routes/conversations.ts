import { z } from 'zod';
import type { ConversationReadResponse } from '@wayfarer/contracts';
import { parse, requireUserId } from '@wayfarer/service-kit';
import { listConversationsJson } from '../usecases/list-conversations';
import { markRead } from '../usecases/mark-read';
import type { ChatContext } from './context';

const Params = z.object({ roomId: z.string().max(300) });

/** The inbox: the caller's conversations, and marking one read. */
export function inboxRoutes(ctx: ChatContext): void {
  const { app, deps } = ctx;

  /**
   * The caller's conversations with friends, newest last message first (contracts'
   * ConversationsResponse, as the store wrote it).
   */
  app.get('/api/conversations', async (request, reply) => {
    const body = await listConversationsJson(deps, requireUserId(request));
    return reply.type('application/json; charset=utf-8').send(body);
  });

  /** The caller opened a conversation: its unread count becomes 0. */
  app.post('/api/conversations/:roomId/read', async (request) => {
    const userId = requireUserId(request);
    const { roomId } = parse(Params, request.params);
    const body: ConversationReadResponse = {
      roomId: await markRead(deps, userId, roomId, ctx.now()),
      unread: 0,
    };
    return body;
  });
}
