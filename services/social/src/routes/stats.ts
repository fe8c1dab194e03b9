import { z } from 'zod';
import { StatsMessages, type FriendStatsResponse } from '@wayfarer/contracts';
import { notFound, parse, requireUserId } from '@wayfarer/service-kit';
import { friendStatsOf } from '../domain/stats';
import type { SocialContext } from './context';

const FriendParams = z.object({ friendId: z.string().min(1) });

/** Issue 22: a traveller's figures, and a current friend's with the countries both visited. */
export function statsRoutes(ctx: SocialContext): void {
  const { app, store, statsPages } = ctx;

  /** The caller's figures from every live trip of theirs, private ones included. */
  app.get('/api/stats', async (request, reply) => {
    const userId = requireUserId(request);
    const body = await statsPages.json(userId, 'own');
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
    if (!(await store.areFriends(userId, friendId))) throw notFound(StatsMessages.friendNotFound);
    const [own, friend] = await Promise.all([
      statsPages.stats(userId, 'own'),
      statsPages.stats(friendId, 'friends'),
    ]);
    const body: FriendStatsResponse = friendStatsOf(own, friend);
    return body;
  });
}
