import { withTransaction } from '@wayfarer/service-kit/pg';
import { NotFoundError } from '../domain/errors';
import { enqueueFriendshipRemoved } from '../events/outbox';
import type { SocialDeps } from './deps';

/**
 * Ends a friendship (both sides lose each other's trips, photos and journals); not found when
 * the two are not friends. Its fence is written before the commit, with the removal event's
 * time: once this returns, the services deciding from their projection refuse the pair,
 * whatever Kafka does. No fence, no unfriending (a 503, nothing changed). A commit that fails
 * after the fence lifts it again when the pair is still friends here (known only when
 * PostgreSQL answers; otherwise it stays: the safe side).
 */
export async function unfriend(deps: SocialDeps, callerId: string, friendId: string) {
  const { friendships } = deps.stores;
  let fencedAt: string | null = null;
  let removed: boolean;
  try {
    removed = await withTransaction(deps.pool, async (client) => {
      await friendships.lockPair(client, callerId, friendId);
      if (!(await friendships.remove(client, callerId, friendId))) return false;
      const { occurredAt } = await enqueueFriendshipRemoved(client, callerId, friendId);
      await deps.fences.endFriendship(callerId, friendId, occurredAt);
      fencedAt = occurredAt;
      return true;
    });
  } catch (err) {
    if (
      fencedAt !== null &&
      (await friendships.areFriends(callerId, friendId).catch(() => false))
    ) {
      await deps.fences.liftEndedFriendship(callerId, friendId, fencedAt).catch(() => undefined);
    }
    throw err;
  }
  if (!removed) throw new NotFoundError('friendship');
  deps.friendshipsChanged([callerId, friendId]);
  deps.relay?.kick();
}
