import { z } from 'zod';
import type { SearchUsersResponse } from '@wayfarer/contracts';
import { badRequest, parse, requireUserId } from '@wayfarer/service-kit';
import type { SocialContext } from './context';
import { readSearchQuery } from '../domain/search';

// a repeated ?query= is refused by the schema (an array is not a string)
const Query = z.object({ query: z.string().optional() });

export function searchRoutes(ctx: SocialContext): void {
  const { app, store } = ctx;

  app.get('/api/search-users', async (request) => {
    const userId = requireUserId(request);
    const query = readSearchQuery(parse(Query, request.query).query);
    if (query.kind === 'tooLong') throw badRequest(query.message);
    const body: SearchUsersResponse = {
      users: query.kind === 'empty' ? [] : await store.search(userId, query.pattern),
    };
    return body;
  });
}
