import {
  FriendRequested,
  friendshipId,
  FriendshipCreated,
  FriendshipRemoved,
  makeEvent,
  Topics,
  type EventEnvelope,
  type Topic,
} from '@wayfarer/contracts';
import { enqueueEvent, type PoolClient } from '@wayfarer/service-kit/pg';

/** Topics social publishes (created by the outbox relay on first connect). */
export const PUBLISHED_TOPICS: readonly Topic[] = [Topics.socialFriendship];

const pair = (a: string, b: string): [string, string] => {
  const [x, y] = [a, b].sort();
  return [x!, y!];
};

/**
 * Every event of a pair is keyed by its friendship id, so a pair's request, friendship and
 * removal reach a consumer in the order they happened.
 */
export async function enqueueFriendRequested(
  client: PoolClient,
  request: { requestId: string; fromUserId: string; toUserId: string },
): Promise<void> {
  const id = friendshipId(request.fromUserId, request.toUserId);
  await enqueueEvent(client, FriendRequested.topic, makeEvent(FriendRequested, id, request));
}

/** `by` made the friendship (accepting, or asking one who had asked): notifications tells `b`. */
export async function enqueueFriendshipCreated(
  client: PoolClient,
  by: string,
  b: string,
): Promise<void> {
  const event = makeEvent(FriendshipCreated, friendshipId(by, b), { userIds: pair(by, b), by });
  await enqueueEvent(client, FriendshipCreated.topic, event);
}

/** Returns the event (its `occurredAt` is the time of the unfriending's fence). */
export async function enqueueFriendshipRemoved(
  client: PoolClient,
  a: string,
  b: string,
): Promise<EventEnvelope> {
  const event = makeEvent(FriendshipRemoved, friendshipId(a, b), { userIds: pair(a, b) });
  await enqueueEvent(client, FriendshipRemoved.topic, event);
  return event;
}

/**
 * A friendship ended by a closed account (`user.deleted`): `erased`, so consumers forget the
 * pair instead of keeping an inactive record, and forgotten from the outbox once sent. Keyed
 * like the pair's other events, so it reaches a consumer after any of them.
 */
export async function enqueueFriendshipErased(
  client: PoolClient,
  a: string,
  b: string,
): Promise<void> {
  const event = makeEvent(FriendshipRemoved, friendshipId(a, b), {
    userIds: pair(a, b),
    erased: true,
  });
  await enqueueEvent(client, FriendshipRemoved.topic, event, { forgetOnPublish: true });
}
