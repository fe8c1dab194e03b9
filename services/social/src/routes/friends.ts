import { z } from 'zod';
import {
  FRIENDS_NEXT_CURSOR_HEADER,
  SocialLimits,
  SocialMessages,
  type AcceptFriendResponse,
  type FriendRequestsResponse,
  type SocialMessageResponse,
  type UserFriendsResponse,
} from '@wayfarer/contracts';
import {
  badRequest,
  jsonIdempotencyClaim,
  parse,
  requireUserId,
  sendOutcome,
} from '@wayfarer/service-kit';
import type { SocialContext } from './context';
import { decodeFriendsCursor, encodeFriendsCursor } from '../domain/paging';
import { acceptFriend } from '../usecases/accept-friend';
import { addFriend } from '../usecases/add-friend';
import { declineFriend } from '../usecases/decline-friend';
import { friendDestination } from '../usecases/friend-destination';
import { friendsPage, friendSummaries } from '../usecases/list-friends';
import { incomingRequests } from '../usecases/list-requests';
import { unfriend } from '../usecases/unfriend';

const Params = z.object({ id: z.string().min(1) });
const FriendsQuery = z.object({
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, SocialMessages.badFriendsLimit)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, SocialMessages.badFriendsLimit)
        .max(SocialLimits.friendsPageMax, SocialMessages.badFriendsLimit),
    )
    .optional(),
  cursor: z.string().optional(),
});
const DestinationParams = z.object({
  friendId: z.string().min(1),
  destinationId: z.string().min(1),
});

export function friendRoutes({ app, deps }: SocialContext): void {
  /**
   * One page of the caller's friends with their trips (sent as PostgreSQL wrote it); the next
   * page's cursor in the `x-next-cursor` header while more follow.
   */
  app.get('/api/friends', async (request, reply) => {
    const userId = requireUserId(request);
    const { limit = SocialLimits.friendsPageDefault, cursor } = parse(FriendsQuery, request.query);
    let afterId: string | null = null;
    if (cursor !== undefined) {
      afterId = decodeFriendsCursor(cursor);
      if (afterId === null) throw badRequest(SocialMessages.badFriendsCursor);
    }
    const page = await friendsPage(deps, userId, afterId, limit);
    if (page.last !== null)
      reply.header(FRIENDS_NEXT_CURSOR_HEADER, encodeFriendsCursor(page.last));
    return reply.type('application/json; charset=utf-8').send(page.body);
  });

  /** A friend's destination with every photo, for the info window of its pin (404 otherwise). */
  app.get('/api/friends/:friendId/destinations/:destinationId', async (request, reply) => {
    const userId = requireUserId(request);
    const { friendId, destinationId } = parse(DestinationParams, request.params);
    const body = await friendDestination(deps, userId, friendId, destinationId);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get('/api/friendRequests', async (request) => {
    const body: FriendRequestsResponse = await incomingRequests(deps, requireUserId(request));
    return body;
  });

  app.get('/api/getUserFriends', async (request) => {
    const userId = requireUserId(request);
    const body: UserFriendsResponse = { userId, friends: await friendSummaries(deps, userId) };
    return body;
  });

  /** Takes an `Idempotency-Key`: a retry with it answers the first answer, changing nothing. */
  app.post('/api/add-friend/:id', async (request, reply) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    const claim = jsonIdempotencyClaim(request, userId, null); // the path names the addressee
    return sendOutcome(reply, await addFriend(deps, userId, id, claim));
  });

  /** Only the addressee accepts: a request to anyone else is not found, nothing changes. */
  app.post('/api/acceptFriend/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    const body: AcceptFriendResponse = { newFriend: await acceptFriend(deps, userId, id) };
    return body;
  });

  app.post('/api/declineFriend/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    await declineFriend(deps, userId, id);
    const body: SocialMessageResponse = { message: SocialMessages.requestDeclined };
    return body;
  });

  /** Unfriending (not in the spec): both sides lose each other's trips, photos and journals. */
  app.delete('/api/friends/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    await unfriend(deps, userId, id);
    const body: SocialMessageResponse = { message: SocialMessages.unfriended };
    return body;
  });
}
