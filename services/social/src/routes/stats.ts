import { z } from 'zod';
import type { FriendStatsResponse } from '@wayfarer/contracts';
import { parse, requireUserId } from '@wayfarer/service-kit';
import { friendStats, ownStats } from '../usecases/read-stats';
import type { SocialContext } from './context';

const FriendParams = z.object({ friendId: z.string().min(1) });

/** A traveller's figures, and a current friend's with the countries both visited. */
export function statsRoutes({ app, deps }: SocialContext): void {
  /** The caller's figures from every live trip of theirs, private ones included. */
  app.get('/api/stats', async (request, reply) => {
    const userId = requireUserId(request);
    const body = await ownStats(deps, userId);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  /**
   * A current friend's figures from the trips friends may see (`trips_for_friends`: no private
   * one), plus `sharedCountries` (the caller's side counts all their own trips). Not a friend,
   * an unknown id or the caller's own id: the same 404.
   */
  app.get('/api/stats/friends/:friendId', async (request) => {
    const userId = requireUserId(request);
    const { friendId } = parse(FriendParams, request.params);
    const body: FriendStatsResponse = await friendStats(deps, userId, friendId);
    return body;
  });
}
