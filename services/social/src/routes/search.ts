import { z } from 'zod';
import type { SearchUsersResponse } from '@wayfarer/contracts';
import { badRequest, parse, requireUserId } from '@wayfarer/service-kit';
import type { SocialContext } from './context';
import { readSearchQuery } from '../domain/search';
import { searchUsers } from '../usecases/search-users';

// a repeated ?query= is refused by the schema (an array is not a string)
const Query = z.object({ query: z.string().optional() });

export function searchRoutes({ app, deps }: SocialContext): void {
  app.get('/api/search-users', async (request) => {
    const userId = requireUserId(request);
    const query = readSearchQuery(parse(Query, request.query).query);
    if (query.kind === 'tooLong') throw badRequest(query.message);
    const body: SearchUsersResponse = {
      users: query.kind === 'empty' ? [] : await searchUsers(deps, userId, query.pattern),
    };
    return body;
  });
}
