import { z } from 'zod';
import {
  FRIENDS_NEXT_CURSOR_HEADER,
  SocialLimits,
  SocialMessages,
  type AcceptFriendResponse,
  type AddFriendResponse,
  type FriendRequestsResponse,
  type SocialMessageResponse,
  type UserFriendsResponse,
} from '@wayfarer/contracts';
import {
  badRequest,
  HttpError,
  jsonIdempotencyClaim,
  notFound,
  parse,
  recordedAnswer,
  requireUserId,
  sendOutcome,
  type RecordedAnswer,
} from '@wayfarer/service-kit';
import type { SocialContext } from './context';
import { decodeFriendsCursor, encodeFriendsCursor } from '../domain/paging';
import type { AddFriendDecision } from '../domain/requests';

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

export function friendRoutes(ctx: SocialContext): void {
  const { app, store } = ctx;

  /**
   * One page of the caller's friends with their trips: from the friends cache, else one query
   * (sent as PostgreSQL wrote it); the next page's cursor in the `x-next-cursor` header while
   * more follow.
   */
  app.get('/api/friends', async (request, reply) => {
    const userId = requireUserId(request);
    const { limit = SocialLimits.friendsPageDefault, cursor } = parse(FriendsQuery, request.query);
    let afterId: string | null = null;
    if (cursor !== undefined) {
      afterId = decodeFriendsCursor(cursor);
      if (afterId === null) throw badRequest(SocialMessages.badFriendsCursor);
    }
    const page = await ctx.friendsPages.page(userId, afterId, limit);
    if (page.last !== null)
      reply.header(FRIENDS_NEXT_CURSOR_HEADER, encodeFriendsCursor(page.last));
    return reply.type('application/json; charset=utf-8').send(page.body);
  });

  /** A friend's destination with every photo, for the info window of its pin (404 otherwise). */
  app.get('/api/friends/:friendId/destinations/:destinationId', async (request, reply) => {
    const userId = requireUserId(request);
    const { friendId, destinationId } = parse(DestinationParams, request.params);
    const body = await store.friendDestinationJson(userId, friendId, destinationId);
    if (body === null) throw notFound(SocialMessages.destinationNotFound);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get('/api/friendRequests', async (request) => {
    const userId = requireUserId(request);
    const body: FriendRequestsResponse = await store.requests(userId);
    return body;
  });

  app.get('/api/getUserFriends', async (request) => {
    const userId = requireUserId(request);
    const body: UserFriendsResponse = { userId, friends: await store.friendSummaries(userId) };
    return body;
  });

  /** Takes an `Idempotency-Key`: a retry with it answers the first answer, changing nothing. */
  app.post('/api/add-friend/:id', async (request, reply) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    const claim = jsonIdempotencyClaim(request, userId, null); // the path names the addressee
    const outcome = await store.addFriend(userId, id, claim, addFriendAnswer);
    if (!outcome.replayed && ['request', 'befriend'].includes(outcome.value.kind)) {
      ctx.relay?.kick();
    }
    return sendOutcome(reply, outcome);
  });

  /** Only the addressee accepts: a request to anyone else is not found, nothing changes. */
  app.post('/api/acceptFriend/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    if (!(await store.accept(userId, id))) throw notFound(SocialMessages.requestNotFound);
    ctx.relay?.kick();
    const newFriend = await store.friend(userId, id);
    // unfriended between the commit and this read: the request was accepted all the same
    if (!newFriend) throw notFound(SocialMessages.notFriends);
    const body: AcceptFriendResponse = { newFriend };
    return body;
  });

  app.post('/api/declineFriend/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    if (!(await store.decline(userId, id))) throw notFound(SocialMessages.requestNotFound);
    const body: SocialMessageResponse = { message: SocialMessages.requestDeclined };
    return body;
  });

  /** Unfriending (not in the spec): both sides lose each other's trips, photos and journals. */
  app.delete('/api/friends/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    if (!(await store.unfriend(userId, id))) throw notFound(SocialMessages.notFriends);
    ctx.relay?.kick();
    const body: SocialMessageResponse = { message: SocialMessages.unfriended };
    return body;
  });
}

/**
 * The answer to `add-friend`'s decision; a refusal throws (inside the store's transaction, so
 * nothing is written and no key recorded). A request already waiting is answered as a new one.
 */
function addFriendAnswer(decision: AddFriendDecision): RecordedAnswer {
  switch (decision.kind) {
    case 'refuse':
      if (decision.reason === 'yourself') throw badRequest(SocialMessages.notYourself);
      if (decision.reason === 'unknownUser') throw notFound(SocialMessages.userNotFound);
      throw new HttpError(409, SocialMessages.alreadyFriends);
    case 'befriend': {
      const body: AddFriendResponse = { status: 'friends', message: SocialMessages.nowFriends };
      return recordedAnswer(200, body);
    }
    case 'request':
    case 'alreadyRequested': {
      const body: AddFriendResponse = { status: 'requested', message: SocialMessages.requestSent };
      return recordedAnswer(200, body);
    }
  }
}
