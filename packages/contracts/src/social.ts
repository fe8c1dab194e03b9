import { z } from 'zod';
import { defineEvent, Topics } from './events';

/**
 * Friendship events (published by social). The aggregate id is the friendship id: the two
 * user ids sorted and joined with '_' (the same rule as the spec's chat room id).
 */
export function friendshipId(a: string, b: string): string {
  return [a, b].sort().join('_');
}

const Pair = z.object({ userIds: z.tuple([z.string(), z.string()]) });

/** Published by the social service of issue 11 (no producer or consumer yet). */
export const FriendRequested = defineEvent({
  topic: Topics.socialFriendship,
  type: 'friend.requested',
  version: 1,
  payload: z.object({ requestId: z.string(), fromUserId: z.string(), toUserId: z.string() }),
});

export const FriendshipCreated = defineEvent({
  topic: Topics.socialFriendship,
  type: 'friendship.created',
  version: 1,
  payload: Pair,
});

export const FriendshipRemoved = defineEvent({
  topic: Topics.socialFriendship,
  type: 'friendship.removed',
  version: 1,
  payload: Pair,
});
