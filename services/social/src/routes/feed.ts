import { z } from 'zod';
import { SocialLimits, SocialMessages } from '@wayfarer/contracts';
import {
  badRequest,
  decodeTimeCursor,
  pageLimitParam,
  parse,
  requireUserId,
} from '@wayfarer/service-kit';
import { feedPage } from '../usecases/read-feed';
import type { SocialContext } from './context';

const FeedQuery = z.object({
  limit: pageLimitParam(SocialLimits.feedPageMax, SocialMessages.badFeedLimit),
  cursor: z.string().optional(),
});

export function feedRoutes({ app, deps }: SocialContext): void {
  /**
   * One page of the feed (contracts' FeedResponse): the caller's friends' shared trips newest
   * first, from the feed cache, else one query (sent as PostgreSQL wrote it).
   */
  app.get('/api/feed', async (request, reply) => {
    const userId = requireUserId(request);
    const { limit = SocialLimits.feedPageDefault, cursor } = parse(FeedQuery, request.query);
    if (cursor !== undefined && decodeTimeCursor(cursor) === null) {
      throw badRequest(SocialMessages.badFeedCursor);
    }
    const page = await feedPage(deps, userId, cursor ?? null, limit);
    return reply.type('application/json; charset=utf-8').send(page.body);
  });
}
