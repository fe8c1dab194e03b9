/** Where two users stand, as the store reads it under the pair's lock. */
export interface PairState {
  /** The addressee is a known user (registered, as auth announced). */
  targetExists: boolean;
  friends: boolean;
  /** The caller already asked the addressee. */
  requested: boolean;
  /** The addressee had asked the caller. */
  requestedBy: boolean;
}

/** What `add-friend` does, decided from the pair's state. */
export type AddFriendDecision =
  | { kind: 'refuse'; reason: 'yourself' | 'unknownUser' | 'alreadyFriends' }
  /** A request already waits: answered the same, nothing new is written or published. */
  | { kind: 'alreadyRequested' }
  | { kind: 'request' }
  /** The addressee had asked the caller: the two requests make a friendship. */
  | { kind: 'befriend' };

export function decideAddFriend(
  callerId: string,
  targetId: string,
  state: PairState,
): AddFriendDecision {
  if (callerId === targetId) return { kind: 'refuse', reason: 'yourself' };
  if (!state.targetExists) return { kind: 'refuse', reason: 'unknownUser' };
  if (state.friends) return { kind: 'refuse', reason: 'alreadyFriends' };
  if (state.requestedBy) return { kind: 'befriend' };
  if (state.requested) return { kind: 'alreadyRequested' };
  return { kind: 'request' };
}
