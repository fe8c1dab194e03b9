import { z } from 'zod';
import { ChatLimits, type ConversationResponse } from '@wayfarer/contracts';
import { parse, requireUserId } from '@wayfarer/service-kit';
import { readHistory } from '../usecases/read-history';
import type { ChatContext } from './context';

const Params = z.object({ roomId: z.string().max(300) });
const Query = z.object({
  before: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(ChatLimits.pageMax).default(ChatLimits.firstPage),
});

export function conversationRoutes(ctx: ChatContext): void {
  /** One page of a room's history, newest page first (`ConversationResponse`). */
  ctx.app.get('/api/conversation/:roomId', async (request) => {
    const userId = requireUserId(request);
    const { roomId } = parse(Params, request.params);
    const { before, limit } = parse(Query, request.query);
    const body: ConversationResponse = await readHistory(ctx.deps, userId, {
      roomId,
      before,
      limit,
    });
    return body;
  });
}
