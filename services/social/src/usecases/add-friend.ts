import { randomUUID } from 'node:crypto';
import { SocialMessages, type AddFriendResponse } from '@wayfarer/contracts';
import {
  recordedAnswer,
  type IdempotencyClaim,
  type IdempotentOutcome,
  type RecordedAnswer,
} from '@wayfarer/service-kit';
import { idempotentTransaction } from '@wayfarer/service-kit/pg';
import { AddFriendRefusedError, NotFoundError } from '../domain/errors';
import { decideAddFriend, type AddFriendDecision } from '../domain/requests';
import { enqueueFriendRequested, enqueueFriendshipCreated } from '../events/outbox';
import type { SocialDeps } from './deps';

/**
 * `add-friend`: under the pair's lock, the domain decides from where the two stand; a new
 * request is written with `friend.requested`, a request the addressee had already sent makes
 * the friendship (`friendship.created`), a request already waiting is answered as a new one.
 * A refusal throws (nothing is written, no key recorded). With a `claim` (the request's
 * `Idempotency-Key`) the key and the answer are recorded in the same transaction, and a retry
 * with the key is answered the first answer, changing nothing (service-kit
 * `idempotentTransaction`): a request sent once stays sent once, even if it was declined or
 * accepted since.
 */
export async function addFriend(
  deps: SocialDeps,
  callerId: string,
  targetId: string,
  claim: IdempotencyClaim | null,
): Promise<IdempotentOutcome<AddFriendDecision>> {
  if (callerId === targetId) throw new AddFriendRefusedError('yourself');
  const { friendships, requests } = deps.stores;
  const outcome = await idempotentTransaction(deps.pool, claim, async (client) => {
    await friendships.lockPair(client, callerId, targetId);
    const state = await friendships.pairState(client, callerId, targetId);
    const decision = decideAddFriend(callerId, targetId, state);
    const answer = addFriendAnswer(decision);
    if (decision.kind === 'request') {
      const request = { id: randomUUID(), fromId: callerId, toId: targetId };
      await requests.insert(client, request);
      await enqueueFriendRequested(client, {
        requestId: request.id,
        fromUserId: callerId,
        toUserId: targetId,
      });
    } else if (decision.kind === 'befriend') {
      await friendships.befriend(client, callerId, targetId);
      await enqueueFriendshipCreated(client, callerId, targetId);
    }
    return { answer, value: decision };
  });
  if (!outcome.replayed && outcome.value.kind === 'befriend') {
    deps.friendshipsChanged([callerId, targetId]);
  }
  if (!outcome.replayed && ['request', 'befriend'].includes(outcome.value.kind)) {
    deps.relay?.kick();
  }
  return outcome;
}

/** The answer recorded for a decision; a refusal throws. */
function addFriendAnswer(decision: AddFriendDecision): RecordedAnswer {
  switch (decision.kind) {
    case 'refuse':
      if (decision.reason === 'unknownUser') throw new NotFoundError('user');
      throw new AddFriendRefusedError(decision.reason);
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
